"""Whole games in real browsers: create, join, start, play a deal to its end, continue."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from web_helpers import (
    create_room,
    hand,
    join_by_code,
    join_from_list,
    play_until_deal_over,
    start,
)

pytestmark = pytest.mark.browser


def test_two_players_play_a_deal_to_the_end(new_page, server_url, shot):
    anna, ben = new_page(), new_page()
    room_id, code = create_room(anna, server_url, "Anna", seats=2)
    shot(anna, "01-waiting-room")
    join_from_list(ben, server_url, "Ben", room_id)
    # The join code, never the room id, is what a player joining from the list shares.
    expect(ben.get_by_test_id("room-code")).to_have_text(code)
    start(anna, players=2)
    expect(ben.get_by_test_id("turn-indicator")).to_be_visible()
    # Seven each, plus two for the first player if a Draw Two was turned up first.
    assert sorted([len(hand(anna)), len(hand(ben))]) in ([7, 7], [7, 9])
    expect(anna.get_by_test_id("top-card")).to_have_attribute("data-card", code_pattern())
    shot(anna, "02-table-start")

    moves = play_until_deal_over([anna, ben])
    assert moves > 0
    for page in (anna, ben):
        board = page.get_by_test_id("scoreboard")
        expect(board).to_be_visible()
        expect(board.locator("tbody tr")).to_have_count(2)
    shot(anna, "03-deal-over")
    # Each browser contributed to the deal's seed and now checks the revealed server seed
    # against the commitment it saw before the deal.
    for page in (anna, ben):
        check = page.get_by_test_id("shuffle-check")
        expect(check).to_have_attribute("data-state", "verified")
        expect(check).to_contain_text("Shuffle verified")

    # Exactly one seat went out; the summary shows the other's cards and the points.
    rows = anna.get_by_test_id("scoreboard").locator("tbody tr")
    points = [int(t) for t in rows.get_by_test_id("deal-score").all_inner_texts()]
    totals = [int(t) for t in rows.get_by_test_id("total").all_inner_texts()]
    assert totals == points and sum(1 for p in points if p > 0) <= 1

    # A guest says ready; the host deals the next deal.
    # A Wild turned up first opens the deal with the dealer's left naming the colour.
    ben.get_by_test_id("ready").click()
    expect(anna.get_by_test_id("ready-list")).to_contain_text("Ben")
    expect(ben.get_by_test_id("waiting-host")).to_be_visible()
    anna.get_by_test_id("next-deal").click()
    dealing = re.compile(r"^(playing|chooseColor)$")
    expect(anna.get_by_test_id("turn-indicator")).to_have_attribute("data-phase", dealing)
    expect(ben.get_by_test_id("turn-indicator")).to_have_attribute("data-phase", dealing)
    assert len(hand(anna)) in (7, 9)
    # Ben's scoreboard of deal 1 stays until he closes it; the host who dealt on has none.
    expect(ben.get_by_test_id("summary")).to_have_attribute("data-deal", "1")
    expect(anna.get_by_test_id("summary")).to_have_count(0)
    ben.get_by_test_id("close-summary").click()
    expect(ben.get_by_test_id("summary")).to_have_count(0)
    # The scores of every deal so far, for anyone at any time.
    anna.get_by_test_id("scores-panel").locator("summary").click()
    expect(anna.get_by_test_id("match-scoreboard").locator("tbody tr")).to_have_count(1)
    # A reload brings the deal's log back, not only the hand.
    ben.reload()
    expect(ben.get_by_test_id("turn-indicator")).to_have_attribute("data-phase", dealing)
    expect(ben.get_by_test_id("log").locator('li[data-type="deal"]')).to_have_count(1)


def code_pattern():
    # Any card code from docs/cards.md (classic deck).
    return re.compile(r"^([RGBY]([0-9]|S|R|\+2)|W|W\+4)$")


def test_private_room_joined_by_code(new_page, server_url):
    anna, ben = new_page(), new_page()
    room_id, code = create_room(anna, server_url, "Anna", seats=3, private=True)
    assert code != room_id and code
    # A private room is not in the lobby list.
    ben.goto(f"{server_url}/#/")
    expect(ben.get_by_test_id("room-list")).to_be_visible()
    expect(ben.locator(f'[data-room-id="{room_id}"]')).to_have_count(0)
    assert join_by_code(ben, server_url, "Ben", code.lower()) == room_id
    expect(anna.locator(".seat:not(.empty)")).to_have_count(2)
    expect(ben.get_by_test_id("start")).to_have_count(0)  # only the host starts
    # The link the waiting room shows carries the code: opening it and joining is enough.
    link = anna.locator(".share-link").get_attribute("href")
    assert link and f"code={code}" in link
    cara = new_page()
    cara.goto(link)
    cara.get_by_test_id("join").click()
    expect(anna.locator(".seat:not(.empty)")).to_have_count(3)
    expect(cara.locator(".seat", has_text="(you)")).to_have_count(1)


def test_three_players_finish_a_one_deal_match_under_house_rules(new_page, server_url, shot):
    """Stacking, jump-in, seven-zero and draw-to-match on: the deal still ends, and with
    one-and-done it ends the match. (A hand limit of 12 keeps the deal short: stacked
    penalties and drawing to match once made a deal of this simple play last 576 moves.)"""
    pages = [new_page(), new_page(), new_page()]
    options = {"matchMode": "oneAndDone", "handLimit": 12}
    room_id, code = create_room(
        pages[0], server_url, "Anna", preset="house", seats=3, options=options
    )
    join_by_code(pages[1], server_url, "Ben", code)
    join_by_code(pages[2], server_url, "Cara", code)
    start(pages[0], players=3)
    play_until_deal_over(pages)
    for page in pages:
        expect(page.get_by_test_id("turn-indicator")).to_have_attribute("data-phase", "matchOver")
        expect(page.get_by_test_id("summary")).to_contain_text("The match is over")
        expect(page.get_by_test_id("next-deal")).to_have_count(0)
    shot(pages[1], "04-match-over")
