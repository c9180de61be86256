"""Accounts in the browser: sign up from the front page, sign out, a wrong password said
in words, sign in again; the profile page (a provisional rating with its "?") and the
leaderboard page; the account token never in a URL."""

from __future__ import annotations

import re
import secrets

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

WAIT = re.compile(r"^\d+ players? waiting; bots (fill the table in \d+ s|are filling the table)$")


def test_sign_up_out_and_in_then_the_profile_and_the_leaderboard(new_page, server_url, axe):
    page: Page = new_page()
    urls: list[str] = []
    page.on("request", lambda request: urls.append(request.url))
    name = f"Ada_{secrets.token_hex(3)}"
    page.goto(f"{server_url}/#/")
    page.get_by_test_id("nav-account").click()
    page.get_by_test_id("account-name").fill(name)
    page.get_by_test_id("account-password").fill("correct horse")
    page.get_by_test_id("sign-up").click()
    expect(page.get_by_test_id("me-name")).to_be_visible()
    expect(page.get_by_test_id("me-name")).to_have_text(name)
    assert axe(page) == []

    page.get_by_test_id("sign-out").click()
    expect(page.get_by_test_id("sign-in")).to_be_visible()
    page.get_by_test_id("account-name").fill(name.lower())
    page.get_by_test_id("account-password").fill("not the password")
    page.get_by_test_id("sign-in").click()
    expect(page.get_by_test_id("account-error")).to_have_text("Wrong name or password.")
    page.get_by_test_id("account-password").fill("correct horse")
    page.get_by_test_id("sign-in").click()
    expect(page.get_by_test_id("me-name")).to_be_visible()
    expect(page.get_by_test_id("me-name")).to_have_text(name)

    # A reload keeps the account signed in.
    page.reload()
    expect(page.get_by_test_id("me-name")).to_be_visible()
    expect(page.get_by_test_id("me-name")).to_have_text(name)
    page.get_by_test_id("me-profile").click()
    expect(page.get_by_test_id("player-name")).to_have_text(name)
    expect(page.get_by_test_id("rating-classic")).to_have_text("1500?")
    expect(page.get_by_test_id("stats")).to_contain_text("Matches")
    expect(page.get_by_test_id("rated-games-classic")).to_have_text("0 rated games")
    expect(page.get_by_test_id("stat-places")).to_have_text("none yet")
    expect(page.get_by_test_id("rating-chart")).to_have_attribute(
        "aria-label", "No rated match yet."
    )
    assert axe(page) == []
    # The page speaks the catalogue's languages, switched in its top bar.
    page.get_by_test_id("language").select_option("is")
    expect(page.locator("#stats-title")).to_have_text("Tölfræði")
    expect(page.get_by_test_id("rated-games-classic")).to_have_text("0 metnir leikir")
    assert page.evaluate("document.documentElement.lang") == "is"
    assert axe(page) == []
    page.get_by_test_id("language").select_option("en")

    page.goto(f"{server_url}/leaderboard.html?pool=duo")
    expect(page.get_by_test_id("board-empty")).to_be_visible()
    expect(page.get_by_test_id("pool")).to_have_value("duo")
    assert axe(page) == []

    token = page.evaluate("JSON.parse(localStorage.getItem('uno.account')).token")
    assert token and not [u for u in urls if token in u]


def test_a_profile_of_nobody_says_so(new_page, server_url):
    page: Page = new_page()
    page.goto(f"{server_url}/player.html?name=nobody_here")
    expect(page.get_by_test_id("player-error")).to_have_text("No player has that name.")


def test_play_now_shows_the_wait_cancels_and_then_seats_the_guest(new_page, server_url):
    page: Page = new_page()
    page.goto(f"{server_url}/#/")
    page.get_by_test_id("player-name").fill("Quick Guest")
    page.get_by_test_id("play-now").click()
    # The wait in words: how many wait and when bots fill (the server's `waiting` and
    # `fillSeconds`).
    expect(page.get_by_test_id("play-now-status")).to_have_text(WAIT)
    page.get_by_test_id("play-now-cancel").click()
    expect(page.get_by_test_id("play-now-status")).to_have_text("Left the queue.")
    expect(page.get_by_test_id("play-now")).to_be_visible()
    # Again, and wait: alone in the queue, bots fill the table after the fill time (6 s,
    # UNO_QUICKPLAY_FILL_SECONDS in conftest.py).
    page.get_by_test_id("play-now").click()
    expect(page.get_by_test_id("play-now-status")).to_contain_text(" s", timeout=10_000)
    page.wait_for_url("**/#/room/*", timeout=40_000)
    expect(page.get_by_test_id("hand")).to_be_visible(timeout=15_000)


RECENT = [  # a profile's recent matches, newest first, as GET /api/players/{name} gives them
    {
        "started": f"2026-11-0{d}T19:00:00Z",
        "finished": f"2026-11-0{d}T19:30:00Z",
        "ratingBefore": before,
        "ratingAfter": after,
    }
    for d, before, after in [(9, 1523, 1486), (7, 1540, 1523), (4, 1500, 1540), (2, 1500, 1500)]
]


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)])
def test_the_rating_chart_has_axes_dates_and_values(new_page, server_url, shot, size):
    width, height = size
    page: Page = new_page(lang="", locale="is-IS", viewport={"width": width, "height": height})
    page.goto(f"{server_url}/player.html?name=nobody_here")
    # No language chosen yet: the browser's (Icelandic) is taken.
    expect(page.get_by_test_id("player-error")).to_have_text("Enginn leikmaður heitir þetta.")
    page.evaluate(
        """async (recent) => {
            const { ratingChart } = await import('/js/accounts/rating-chart.js');
            ratingChart(document.getElementById('rating-chart'), recent);
        }""",
        RECENT,
    )
    chart = page.get_by_test_id("rating-chart")
    box = chart.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= width
    points = chart.get_by_test_id("chart-point")
    # The rating before the oldest match, then after each, oldest first.
    values = [int(v) for v in points.evaluate_all("ps => ps.map(p => p.dataset.value)")]
    assert values == [1500, 1500, 1540, 1523, 1486]
    # The value axis: round ticks, rising upwards, covering every point.
    ticks = chart.get_by_test_id("chart-y-tick")
    tick_values = [int(t) for t in ticks.all_text_contents()]
    tick_ys = [ticks.nth(i).bounding_box()["y"] for i in range(ticks.count())]
    assert tick_values == sorted(tick_values) and tick_ys == sorted(tick_ys, reverse=True)
    assert tick_values[0] <= 1486 and tick_values[-1] >= 1540
    # Dates under the points, apart from each other, inside the chart.
    labels = chart.get_by_test_id("chart-x-label")
    boxes = [labels.nth(i).bounding_box() for i in range(labels.count())]
    assert len(boxes) >= 2
    boxes.sort(key=lambda b: b["x"])
    for left, right in zip(boxes, boxes[1:], strict=False):
        assert left["x"] + left["width"] <= right["x"]
    assert (
        boxes[0]["x"] >= box["x"] and boxes[-1]["x"] + boxes[-1]["width"] <= box["x"] + box["width"]
    )
    assert "2" in (labels.first.text_content() or "")  # 2 November, the oldest start
    # The first and last values are written beside their points.
    written = chart.get_by_test_id("chart-value").all_text_contents()
    assert "1500" in written and "1486" in written and "1540" in written
    assert "1486" in (chart.get_attribute("aria-label") or "")
    shot(page, f"83-rating-chart-{width}", full_page=False)
