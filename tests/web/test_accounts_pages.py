"""Accounts in the browser: sign up from the front page, sign out, a wrong password said
in words, sign in again; the profile page (a provisional rating with its "?") and the
leaderboard page; the account token never in a URL."""

from __future__ import annotations

import secrets

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


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
    assert axe(page) == []

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
    expect(page.get_by_test_id("play-now-status")).to_contain_text("Looking for players")
    page.get_by_test_id("play-now-cancel").click()
    expect(page.get_by_test_id("play-now-status")).to_have_text("Left the queue.")
    expect(page.get_by_test_id("play-now")).to_be_visible()
    # Again, and wait: alone in the queue, bots fill the table after the fill time (20 s).
    page.get_by_test_id("play-now").click()
    expect(page.get_by_test_id("play-now-status")).to_contain_text(" s", timeout=10_000)
    page.wait_for_url("**/#/room/*", timeout=40_000)
    expect(page.get_by_test_id("hand")).to_be_visible(timeout=15_000)
