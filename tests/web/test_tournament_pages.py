"""A tournament in the browser: the host creates it and opens check-in in the host
console, a player on a phone (in Danish) registers and checks in in the tournament lobby,
goes to their table and watches another, the host pauses, resumes and starts the next
round, the standings update live on the player's page, the host ends early and, on a
phone, corrects a table's result with a reason.

Five more players register over REST and look in at their tables once (a socket opened
and closed while the tournament is paused), so the autopilot plays their seats without
withdrawing them; rounds are one deal at 3-seat tables."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import Page, expect
from websockets.sync.client import connect

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
NO_SIDEWAYS_SCROLL = "() => document.documentElement.scrollWidth <= window.innerWidth"


def _clean(violations: list[dict[str, object]]) -> str:
    return "\n".join(f"{v['impact']} {v['id']}: {v['help']} {v['nodes']}" for v in violations)


def _look_in(base: str, tid: str, token: str) -> None:
    """A player opens their table's socket once and leaves: they came."""
    seat = httpx.get(
        f"{base}/api/tournaments/{tid}/seat", headers={"Authorization": f"Bearer {token}"}
    )
    assert seat.status_code == 200, seat.text
    found = seat.json()
    url = f"{base.replace('http', 'ws')}/ws/rooms/{found['roomId']}?token={found['token']}"
    with connect(url, subprotocols=["uno.v1"], origin=base) as ws:  # type: ignore[list-item,arg-type]
        ws.recv(timeout=10)  # the snapshot


def test_register_check_in_watch_pause_next_round_and_live_standings(
    new_page, server_url, axe, shot
):
    host: Page = new_page()
    host.goto(f"{server_url}/#/")
    host.get_by_test_id("nav-tournaments").click()
    host.get_by_test_id("t-name").fill("Club night")
    host.get_by_test_id("t-rounds").fill("2")
    host.get_by_test_id("t-table-size").fill("3")
    host.get_by_test_id("t-turn-seconds").fill("5")
    host.get_by_test_id("t-table-start").fill("1")
    host.get_by_test_id("create-tournament").click()
    host.wait_for_url("**/host")
    tid = host.url.split("#/tournament/")[1].split("/")[0]
    host.get_by_test_id("host-open-check-in").click()
    expect(host.get_by_test_id("tournament-status")).to_have_text("Check-in open")

    # A player on a phone registers in the tournament lobby and checks in.
    ada: Page = new_page(lang="da", **PHONE)
    ada.goto(f"{server_url}/#/tournaments")
    expect(ada.locator(f'[data-tournament-id="{tid}"]').first).to_be_visible()
    found = axe(ada)
    assert not found, "tournament lobby:\n" + _clean(found)
    assert ada.evaluate(NO_SIDEWAYS_SCROLL)
    shot(ada, "tournament-00-phone-lobby")
    ada.get_by_test_id("player-name").fill("Ada")
    ada.locator(f'[data-testid="register-tournament"][data-tournament-id="{tid}"]').click()
    ada.wait_for_url(f"**/#/tournament/{tid}")
    ada.get_by_test_id("check-in").click()
    expect(ada.get_by_test_id("my-entry")).to_contain_text("tjekket ind")
    assert ada.evaluate(NO_SIDEWAYS_SCROLL)

    others = []
    for name in ("Bo", "Cai", "Dee", "Eli", "Fay"):
        r = httpx.post(f"{server_url}/api/tournaments/{tid}/players", json={"name": name})
        assert r.status_code == 201, r.text
        token = r.json()["token"]
        r = httpx.post(
            f"{server_url}/api/tournaments/{tid}/check-in",
            headers={"Authorization": f"Bearer {token}"},
        )
        assert r.status_code == 200, r.text
        others.append(token)
    # Registrations reach the host's page over the tournament socket.
    expect(host.get_by_test_id("tournament-players").locator("li")).to_have_count(6)
    found = axe(host)
    assert not found, "host console:\n" + _clean(found)
    shot(host, "tournament-01-host-console")

    # The host starts and at once pauses: no table deals while the players look in.
    host.get_by_test_id("host-start").click()
    host.get_by_test_id("host-pause").click()
    expect(host.get_by_test_id("tournament-status")).to_have_attribute("data-paused", "1")
    for token in others:
        _look_in(server_url, tid, token)

    # Ada goes to her table (her seat token opens it) and comes back.
    ada.get_by_test_id("play-table").click()
    ada.wait_for_url("**/#/room/**")
    expect(ada.get_by_test_id("back-to-tournament")).to_be_visible()
    ada.get_by_test_id("back-to-tournament").click()
    expect(ada.get_by_test_id("round")).to_have_count(1)
    assert ada.evaluate(NO_SIDEWAYS_SCROLL)
    found = axe(ada)
    assert not found, "tournament page:\n" + _clean(found)

    # She watches the other table: a spectator there when the host resumes.
    ada.get_by_test_id("tournament-table").filter(has_not_text="Ada").get_by_test_id(
        "watch-table"
    ).click()
    ada.wait_for_url("**/#/room/**")
    host.get_by_test_id("host-resume").click()
    expect(ada.get_by_test_id("turn-indicator")).to_be_visible(timeout=30_000)
    expect(ada.get_by_test_id("spectating")).to_be_visible()

    # Back on the tournament page, the round's results come in over the socket: each
    # 3-seat table's winner has 3 points.
    ada.get_by_test_id("back-to-tournament").click()
    ada.evaluate("() => { window.stayed = true; }")
    rows = ada.get_by_test_id("standing-row")
    expect(rows).to_have_count(6)
    expect(ada.locator('[data-testid="standing-row"][data-points="3"]')).to_have_count(
        2, timeout=60_000
    )
    assert ada.evaluate("() => window.stayed === true"), "the page was reloaded"
    shot(ada, "tournament-02-phone-standings")

    # The next round, started in the console, reaches the player's page live.
    next_round = host.get_by_test_id("host-next-round")
    expect(next_round).to_be_enabled(timeout=20_000)
    next_round.click()
    expect(ada.locator('[data-testid="round"][data-round="2"]')).to_be_visible()
    host.get_by_test_id("host-end").click()
    host.get_by_test_id("host-end-confirm").click()
    expect(ada.get_by_test_id("tournament-status")).to_have_attribute("data-status", "over")
    # Open check-in, start, pause, resume, the next round, end.
    expect(host.get_by_test_id("audit").locator("li")).to_have_count(6)
    shot(host, "tournament-03-host-over")
    assert ada.evaluate(NO_SIDEWAYS_SCROLL)

    # On a phone, the host corrects a round-1 table's result (places reversed) with a
    # reason: the public log says so on the player's page.
    host.set_viewport_size({"width": 390, "height": 844})
    host.get_by_test_id("fix-table").select_option(index=1)
    rows = host.locator(".fix-row")
    expect(rows).to_have_count(3)
    for i in range(3):
        rows.nth(i).locator('[data-testid^="fix-place-"]').fill(str(3 - i))
    host.get_by_test_id("fix-reason").fill("scored wrongly")
    host.get_by_test_id("host-fix").click()
    expect(ada.get_by_test_id("audit").locator("li")).to_have_count(7)
    expect(ada.get_by_test_id("audit")).to_contain_text("scored wrongly")
    assert host.evaluate(NO_SIDEWAYS_SCROLL)
    found = axe(host)
    assert not found, "host console on a phone:\n" + _clean(found)
    shot(host, "tournament-04-phone-correction")
