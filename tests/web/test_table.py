"""The table against the real server: refusals, languages, phones, spectators, the host."""

from __future__ import annotations

import json
import re
import urllib.request

import pytest
from playwright.sync_api import expect
from web_helpers import (
    create_room,
    hand,
    join_by_code,
    join_from_list,
    my_turn,
    open_settled_lobby,
    phase,
    show_rule,
    start,
    take_turn,
)

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def get_json(url):
    with urllib.request.urlopen(url, timeout=5) as response:
        return json.loads(response.read())


def table(new_page, server_url, players=2, **first):
    pages = [new_page(**first)] + [new_page() for _ in range(players - 1)]
    room_id, code = create_room(pages[0], server_url, "Anna", seats=players)
    for i, page in enumerate(pages[1:]):
        join_by_code(page, server_url, ["Ben", "Cara", "Dan"][i], code)
    start(pages[0], players=players)
    for page in pages:
        expect(page.get_by_test_id("turn-indicator")).to_be_visible()
    return room_id, pages


def test_refused_action_shows_the_reason(new_page, server_url, shot):
    _, pages = table(new_page, server_url)
    mover = next(p for p in pages if my_turn(p))
    if phase(mover) == "chooseColor":  # a Wild turned up first: name its colour first
        take_turn(mover)
    waiting = next(p for p in pages if not my_turn(p))
    waiting.get_by_test_id("hand").get_by_test_id("card").first.click()
    toast = waiting.get_by_test_id("toast")
    expect(toast).to_contain_text("It is not your turn.")
    expect(toast).to_have_attribute("data-code", "not_your_turn")
    expect(toast).to_have_attribute("role", "alert")
    shot(waiting, "30-refused")
    # The same refusal in Danish, after switching the language on the page.
    waiting.get_by_test_id("language").select_option("da")
    expect(waiting.get_by_test_id("turn-indicator")).to_contain_text("s tur")
    waiting.get_by_test_id("draw").click()
    expect(waiting.get_by_test_id("toast").last).to_contain_text("Det er ikke din tur.")
    # Passing without having drawn is refused for the turn holder too.
    mover.get_by_test_id("pass").click()
    expect(mover.get_by_test_id("toast")).to_have_attribute("data-code", "cannot_pass")


def test_phone_sized_table(new_page, server_url, shot):
    _, pages = table(new_page, server_url, players=3, **PHONE)
    phone = pages[0]
    for testid in ("hand", "top-card", "draw", "turn-indicator", "uno", "pass"):
        expect(phone.get_by_test_id(testid)).to_be_visible()
    # Nothing is wider than the screen, and every card of the hand can be reached.
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    boxes = phone.get_by_test_id("card").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect()).map(r => [r.left, r.right, r.width])"
    )
    assert len(boxes) == len(hand(phone)) >= 7
    assert all(width >= 44 for _, _, width in boxes)
    # The hand is one row that scrolls sideways: its last card scrolls into the screen.
    last = phone.get_by_test_id("card").last
    last.scroll_into_view_if_needed()
    box = last.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390
    shot(phone, "31-phone-table")
    shot(phone, "32-phone-screen", full_page=False)


def test_spectator_watches_without_hands(new_page, server_url, shot):
    room_id, pages = table(new_page, server_url)
    watcher = new_page()
    watcher.goto(f"{server_url}/#/room/{room_id}")
    expect(watcher.get_by_test_id("spectating")).to_be_visible()
    expect(watcher.get_by_test_id("hand")).to_have_count(0)
    expect(watcher.get_by_test_id("player")).to_have_count(2)
    # Seven each (nine for a first player hit by a Draw Two turned up first).
    expect(watcher.get_by_test_id("player").first).to_contain_text(re.compile(r"^.*[79] cards"))
    top = pages[0].get_by_test_id("top-card").get_attribute("data-card")
    expect(watcher.get_by_test_id("top-card")).to_have_attribute("data-card", top)
    shot(watcher, "33-spectator")


def test_host_removes_a_player_before_the_start(new_page, server_url):
    anna, ben = new_page(), new_page()
    room_id, code = create_room(anna, server_url, "Anna", seats=3)
    # Alone, the host reads how many players the preset needs (GET /api/rules presetFacts).
    expect(anna.get_by_test_id("need-players")).to_have_text(
        "At least 2 players are needed to start."
    )
    join_from_list(ben, server_url, "Ben", room_id)
    expect(anna.locator(".seat:not(.empty)")).to_have_count(2)
    expect(anna.get_by_test_id("need-players")).to_have_count(0)
    anna.get_by_test_id("kick-1").click()
    expect(anna.locator(".seat:not(.empty)")).to_have_count(1)
    expect(anna.get_by_test_id("need-players")).to_be_visible()
    # Ben is told; a kick bans his name from the room, so sitting down again is refused.
    expect(ben.get_by_test_id("toast").filter(has_text="removed")).to_have_count(1)
    # His shuffle contribution, refused if it reached the room after the kick, is no news.
    expect(ben.get_by_test_id("toast").filter(has_text="Spectators")).to_have_count(0)
    expect(ben.get_by_test_id("take-seat")).to_be_visible()
    ben.get_by_test_id("join").click()
    expect(ben.get_by_text("The host removed this name from the room.")).to_be_visible()
    expect(anna.locator(".seat:not(.empty)")).to_have_count(1)


def test_host_changes_the_rules_before_the_start(new_page, server_url):
    anna, ben = new_page(), new_page()
    room_id, code = create_room(anna, server_url, "Anna", seats=3)
    anna.get_by_test_id("settings").locator(".rules-editor summary").click()
    anna.locator("#rule-targetScore").fill("300")
    # A player joining redraws the waiting room; the half-made change must survive it.
    join_by_code(ben, server_url, "Ben", code)
    expect(anna.locator(".seat:not(.empty)")).to_have_count(2)
    expect(anna.locator("#rule-targetScore")).to_have_value("300")
    anna.get_by_test_id("save-rules").click()
    expect(anna.get_by_test_id("toast")).to_have_attribute("data-code", "saved")
    assert get_json(f"{server_url}/api/rooms/{room_id}")["rules"]["targetScore"] == 300
    expect(ben.get_by_test_id("settings")).to_have_count(0)  # only the host


def test_rules_editor_offers_every_option_and_creates_with_changes(new_page, server_url, shot):
    page = new_page()
    page.goto(f"{server_url}/#/")
    editor = page.get_by_test_id("rules-editor")
    editor.locator("summary").click()
    options = get_json(f"{server_url}/api/rules")["options"]
    # The common house rules stand before the editor's fold, the rest inside it.
    rules = page.locator(".rules")
    expect(rules.locator(".rule[data-option]")).to_have_count(len(options))
    expect(page.get_by_test_id("common-rules").locator(".rule[data-option]")).to_have_count(7)
    for option in options:
        row = rules.locator(f'.rule[data-option="{option["name"]}"]')
        expect(row.locator(".hint")).not_to_be_empty()
        if option["kind"] == "int":
            control = row.locator("input")
            assert control.get_attribute("min") == str(option["min"])
            assert control.get_attribute("max") == str(option["max"])
            expect(row).to_contain_text(f"{option['min']}-{option['max']}")
    # Groups, each a section that folds, and a box that finds a rule by its words.
    sections = editor.get_by_test_id("rule-section")
    expect(sections.first).to_contain_text("Play")
    groups = sections.evaluate_all("els => els.map((e) => e.dataset.group)")
    assert groups[:3] == ["play", "deck", "scoring"]
    assert len(groups) == len({o["group"] for o in options})
    expect(rules.locator('.rule[data-option="bomb"]')).to_be_hidden()
    page.get_by_test_id("rules-filter").fill("bomb")
    expect(rules.locator('.rule[data-option="bomb"]')).to_be_visible()
    expect(editor.locator(".rule[data-option]:visible")).to_have_count(1)
    page.get_by_test_id("rules-filter").fill("no such rule")
    expect(page.get_by_test_id("rules-filter-none")).to_be_visible()
    page.get_by_test_id("rules-filter").fill("")
    expect(editor.locator(".rule[data-option]:visible")).to_have_count(0)
    # A preset fills in its values.
    page.get_by_test_id("preset").select_option("house")
    expect(page.locator("#rule-stacking")).to_be_checked()
    expect(page.locator("#rule-jumpIn")).to_be_checked()
    shot(page, "34-rules-editor")

    room_id, _ = create_room(
        page, server_url, "Anna", preset="knockout", options={"targetScore": 200, "unoPenalty": 4}
    )
    rules = get_json(f"{server_url}/api/rooms/{room_id}")["rules"]
    assert rules["preset"] == "knockout"
    assert rules["matchMode"] == "knockout"
    assert rules["targetScore"] == 200 and rules["unoPenalty"] == 4


def test_danish_lobby(new_page, server_url, shot):
    page = new_page(lang="da")
    page.goto(f"{server_url}/#/")
    expect(page.get_by_test_id("create-room")).to_have_text("Opret bord")
    page.get_by_test_id("rules-editor").locator("summary").click()
    expect(page.locator('.rule[data-option="stacking"] label')).to_have_text("Stabling")
    assert page.evaluate("document.documentElement.lang") == "da"
    show_rule(page, "unoPenalty").fill("5")
    page.locator("#rule-unoPenalty").dispatch_event("change")
    shot(page, "35-lobby-da")
    # Switching language keeps what was typed into the rules editor.
    page.get_by_test_id("language").select_option("en")
    expect(page.get_by_test_id("create-room")).to_have_text("Create room")
    expect(page.locator('.rule[data-option="stacking"] label')).to_have_text("Stacking")
    expect(page.locator("#rule-unoPenalty")).to_have_value("5")


def test_keyboard_only_player_reaches_the_hand(new_page, server_url):
    _, pages = table(new_page, server_url)
    page = pages[0]
    cards = hand(page)
    # Cards are real buttons: focusable in order, with spoken names.
    first = page.get_by_test_id("hand").get_by_test_id("card").first
    first.focus()
    assert page.evaluate("document.activeElement.dataset.card") == cards[0]
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.dataset.card") == cards[1]
    label = first.get_attribute("aria-label") or ""
    assert label and label[0].isupper()


def test_opponents_show_who_is_connected(new_page, server_url):
    _, (anna, ben) = table(new_page, server_url)
    ben_seat = ben.locator(".table").get_attribute("data-you")
    chip = anna.locator(f'[data-testid=player][data-seat="{ben_seat}"]')
    expect(chip.locator(".dot")).to_have_attribute("aria-label", "online")
    ben.context.close()
    expect(chip.locator(".dot")).to_have_attribute("aria-label", "offline")
    expect(chip).to_have_class(re.compile(r"\boffline\b"))


def test_drinking_room_asks_every_player_for_their_age(new_page, server_url, shot):
    anna, ben, cara = new_page(), new_page(), new_page()
    open_settled_lobby(anna, server_url)
    anna.get_by_test_id("player-name").fill("Anna")
    anna.get_by_test_id("seats").fill("3")
    anna.get_by_test_id("rules-editor").locator("summary").click()
    show_rule(anna, "drinks").check()
    anna.get_by_test_id("create-room").click()
    anna.get_by_test_id("adult-yes").click()
    anna.wait_for_url(re.compile(r"#/room/"))
    code = anna.get_by_test_id("room-code").inner_text()

    # The server refuses a join without the confirmation; the client asks and retries.
    open_settled_lobby(ben, server_url)
    ben.get_by_test_id("room-code").fill(code)
    ben.get_by_test_id("join").click()
    ben.get_by_test_id("adult-yes").click()
    ben.wait_for_url(re.compile(r"#/room/"))
    # Declining leaves the player in the lobby, seatless and without an error.
    open_settled_lobby(cara, server_url)
    cara.get_by_test_id("room-code").fill(code)
    cara.get_by_test_id("join").click()
    cara.get_by_test_id("adult-no").click()
    expect(cara.get_by_test_id("create-room")).to_be_visible()
    expect(cara.get_by_test_id("toast")).to_have_count(0)

    start(anna, players=2)
    expect(anna.get_by_test_id("sips")).to_have_count(2)
    expect(anna.get_by_test_id("drinks-guide")).to_be_visible()
    shot(anna, "36-drinks-table")


def test_phone_sized_lobby_and_rules_editor(new_page, server_url, shot):
    page = new_page(**PHONE)
    page.goto(f"{server_url}/#/")
    page.get_by_test_id("rules-editor").locator("summary").click()
    expect(page.get_by_test_id("create-room")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "37-phone-lobby")
