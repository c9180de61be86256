"""Tables that never stall, in real browsers: the countdown, an away seat and its
autopilot, "I'm back", leaving mid-match, "Play again", bots added in the lobby, and a
one-click game against three bots on a phone."""

from __future__ import annotations

import re
import time

import httpx
import pytest
from playwright.sync_api import Page, expect
from web_helpers import create_room, join_from_list, my_turn, phase, take_turn

pytestmark = pytest.mark.browser

LIVE = ("playing", "chooseColor")


def _play_until(page: Page, done, limit: float = 120.0) -> None:
    """Move on this page's turns until ``done()``."""
    deadline = time.monotonic() + limit
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError("the table did not get there in time")
        if my_turn(page) and phase(page) in LIVE:
            try:
                take_turn(page)
            except Exception:
                # A move the room (a timer) made first: look again.
                page.wait_for_timeout(100)
        else:
            page.wait_for_timeout(100)


def test_away_autopilot_back_leave_and_play_again(new_page, server_url, shot):
    anna, ben = new_page(), new_page()
    room_id, _ = create_room(anna, server_url, "Anna", seats=3, options={"matchMode": "oneAndDone"})
    # Bots in the lobby, and the room's timers.
    anna.get_by_test_id("bot-level").select_option("easy")
    anna.get_by_test_id("add-bot").click()
    expect(anna.locator(".seat:not(.empty)")).to_have_count(2)
    anna.get_by_test_id("turn-seconds").select_option("5")
    expect(anna.get_by_test_id("turn-seconds")).to_have_value("5")
    # No time bank (the lobby has no control for it; the host sets it over REST): Ben's
    # first timeout comes after the 5 s turn, not after the 30 s bank as well.
    host_token = anna.evaluate(f"JSON.parse(localStorage.getItem('uno.room.{room_id}')).hostToken")
    changed = httpx.patch(
        f"{server_url}/api/rooms/{room_id}",
        json={"timeBank": 0},
        headers={"Authorization": f"Bearer {host_token}"},
    )
    assert changed.status_code == 200, changed.text
    expect(anna.get_by_test_id("timer-summary")).to_contain_text("Turn timer: 5 s ·")
    join_from_list(ben, server_url, "Ben", room_id)
    expect(anna.locator(".seat:not(.empty)")).to_have_count(3)
    shot(anna, "tables-01-lobby-with-bot")
    anna.get_by_test_id("start").click()
    expect(anna.get_by_test_id("turn-indicator")).to_be_visible()
    # A countdown on the table for whoever's decision it is.
    expect(anna.get_by_test_id("countdown").first).to_be_visible()
    # Ben does nothing: two timeouts in a row make his seat away, and the autopilot plays.
    _play_until(
        anna, lambda: ben.get_by_test_id("im-back").count() > 0 or phase(anna) == "matchOver"
    )
    if phase(anna) != "matchOver":
        expect(anna.get_by_test_id("away")).to_be_visible()
        shot(ben, "tables-02-away")
        ben.get_by_test_id("im-back").click()
        expect(ben.get_by_test_id("im-back")).to_have_count(0)
        # Ben leaves mid-match: a bot plays his seat on, marked as left.
        ben.get_by_test_id("leave-match").click()
        ben.get_by_test_id("leave-yes").click()
        expect(anna.get_by_test_id("left")).to_be_visible()
    _play_until(anna, lambda: phase(anna) == "matchOver")
    shot(anna, "tables-03-match-over")
    anna.get_by_test_id("play-again").click()
    # A new match is dealt (its first card a wild: the first player names a colour).
    expect(anna.get_by_test_id("turn-indicator")).to_have_attribute(
        "data-phase", re.compile("^(playing|chooseColor)$")
    )


def test_one_click_game_against_three_bots_on_a_phone(new_page, server_url, shot):
    phone = new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    phone.goto(f"{server_url}/#/")
    phone.get_by_test_id("player-name").fill("Mia")
    phone.get_by_test_id("play-bots").click()
    expect(phone.get_by_test_id("turn-indicator")).to_be_visible()
    expect(phone.get_by_test_id("bot")).to_have_count(3)
    _play_until(phone, lambda: phase(phone) in ("dealOver", "matchOver"), limit=240)
    expect(phone.get_by_test_id("scoreboard")).to_be_visible()
    shot(phone, "tables-04-phone-vs-bots")
