"""The table's flow as players read it, in Chromium: the timer's turn time and bank
apart and counting to when the table really moves, "away in N s"; leaving with a
question and a plain word after; a log in plain words with its details apart; your own
UNO call on your seat; the lobby's running games to watch, kept live; watching a started
room with no refused request; reaction buttons with words."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import FloatRect, Locator, Page, expect
from test_components import HARNESS, base_view
from web_helpers import (
    create_room,
    enabled,
    join_by_code,
    join_from_list,
    my_turn,
    open_settled_lobby,
    phase,
    start,
    take_turn,
)

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
LAPTOP = {"viewport": {"width": 1280, "height": 800}}


def inside_viewport(page: Page, testid: str) -> dict[str, float]:
    """The element's box, scrolled into view, checked to lie within the viewport (to the
    pixel: the page scrolls by whole pixels, so a box at a fractional offset scrolled to the
    bottom edge can end a fraction past it)."""
    box = _box_in_view(page.get_by_test_id(testid).first)
    size = page.viewport_size
    assert box and size, testid
    right, bottom = box["x"] + box["width"], box["y"] + box["height"]
    assert box["x"] >= 0 and right < size["width"] + 1, (testid, box)
    assert box["y"] >= 0 and bottom < size["height"] + 1, (testid, box)
    return box


def apart(a: dict[str, float], b: dict[str, float], gap: float) -> bool:
    """Boxes at least ``gap`` px apart, side by side or one above the other."""
    return (
        a["x"] + a["width"] + gap <= b["x"]
        or b["x"] + b["width"] + gap <= a["x"]
        or a["y"] + a["height"] + gap <= b["y"]
        or b["y"] + b["height"] + gap <= a["y"]
    )


def render(page: Page, view: dict, log: list[dict] | None = None) -> None:
    harness = HARNESS.replace(
        "log: [{ type: 'play', seat: 1, cards: ['W+4'], color: 'R' }],", "log: view.__log || [],"
    )
    page.evaluate(harness, [{**view, "__log": log or []}, "en"])


def now_ms(page: Page) -> int:
    return int(page.evaluate("Date.now()"))


def seat(page: Page, n: int):
    return page.locator(f'[data-testid=player][data-seat="{n}"]')


# 4. The timer


def test_the_countdown_shows_turn_time_and_bank_apart_and_an_away_seat_counts_down(
    new_page, server_url
):
    page = open_settled_lobby(new_page(**LAPTOP), server_url)
    now = now_ms(page)
    players = base_view()["players"]
    players[1] = {**players[1], "connected": False, "awayAt": now + 12_000}
    view = base_view(
        turn=1,
        players=players,
        deadline=now + 60_000,
        bankFrom=now + 30_000,
        deadlineSeat=2,
    )
    # Cara decides, connected: her turn time, then the bank.
    view["players"][2] = {**view["players"][2], "connected": True}
    render(page, view)
    chip = seat(page, 2).get_by_test_id("countdown")
    expect(chip).to_have_text(re.compile(r"^(30|29) s \+ bank 30 s$"))
    # Ben's tab is closed: the autopilot takes him in 12 s, and the badge says so.
    expect(seat(page, 1).get_by_test_id("away-in")).to_have_text(re.compile(r"^away in (12|11) s$"))
    inside_viewport(page, "away-in")
    inside_viewport(page, "countdown")
    # In the bank: the chip counts the bank alone (times from the page's clock now, as the
    # checks above may have taken seconds on a busy machine).
    now = now_ms(page)
    render(page, {**view, "bankFrom": now - 1000, "deadline": now + 25_000})
    expect(seat(page, 2).get_by_test_id("countdown")).to_have_text(re.compile(r"^bank (25|24) s$"))
    # The decider's own tab is closed: the chip counts to the autopilot's move, not to the
    # 60 s deadline.
    now = now_ms(page)
    players[1] = {**players[1], "awayAt": now + 12_000}
    render(page, {**view, "players": players, "deadline": now + 60_000, "deadlineSeat": 1})
    expect(seat(page, 1).get_by_test_id("countdown")).to_have_text(re.compile(r"^(12|11) s$"))


def test_the_waiting_room_and_a_closed_tab_show_what_the_server_will_do(new_page, server_url, shot):
    anna, ben = new_page(**LAPTOP), new_page(**PHONE)
    room_id, _ = create_room(anna, server_url, "Anna", seats=2)
    expect(anna.get_by_test_id("timer-summary")).to_have_text(
        "Turn timer: 30 s + bank 30 s · a closed tab goes to the autopilot after 30 s"
    )
    join_from_list(ben, server_url, "Ben", room_id)
    expect(ben.get_by_test_id("timer-summary")).to_contain_text("30 s + bank 30 s")
    start(anna, 2)
    expect(ben.get_by_test_id("turn-indicator")).to_be_visible()
    ben.close()
    # Anna sees when the autopilot takes Ben's seat: at most absentAfter (30 s) from now.
    away_in = anna.get_by_test_id("away-in")
    expect(away_in).to_have_text(re.compile(r"^away in \d+ s$"))
    left = int(re.findall(r"\d+", away_in.inner_text())[0])
    assert 0 < left <= 30, left
    ben_seat = anna.locator('[data-testid=player][data-seat]:has([data-testid="away-in"])')
    chip = ben_seat.get_by_test_id("countdown")
    if chip.count():  # Ben's decision: his chip counts to the take-over too
        assert int(re.findall(r"\d+", chip.inner_text())[0]) <= left
    inside_viewport(anna, "away-in")
    shot(anna, "flow-01-away-in", full_page=False)


# 5. Leaving


def test_leaving_asks_first_says_you_left_and_keeps_the_players_chat_behind(
    new_page, server_url, shot
):
    anna, ben = new_page(**LAPTOP), new_page(**PHONE)
    room_id, _ = create_room(anna, server_url, "Anna", seats=3)
    join_from_list(ben, server_url, "Ben", room_id)
    anna.get_by_test_id("bot-level").select_option("easy")
    anna.get_by_test_id("add-bot").click()
    start(anna, 3)
    expect(ben.get_by_test_id("turn-indicator")).to_be_visible()
    anna.get_by_test_id("chat-text").fill("players only")
    anna.get_by_test_id("chat-send").click()
    expect(ben.get_by_test_id("chat-lines")).to_contain_text("players only")
    # On the phone the link is well away from Pass and UNO!.
    leave = inside_viewport(ben, "leave-match")
    for control in ("pass", "uno"):
        box = inside_viewport(ben, control)
        assert apart(leave, box, 44), (control, leave, box)
    ben.get_by_test_id("leave-match").click()
    dialog = ben.get_by_test_id("leave-confirm")
    expect(dialog).to_contain_text("A bot will play your cards")
    shot(ben, "flow-02-leave-confirm", full_page=False)
    inside_viewport(ben, "leave-yes")
    # "Stay" keeps the seat.
    ben.get_by_test_id("leave-no").click()
    expect(dialog).to_have_count(0)
    expect(ben.get_by_test_id("hand")).to_be_visible()
    ben.get_by_test_id("leave-match").click()
    ben.get_by_test_id("leave-yes").click()
    expect(ben.get_by_test_id("toast")).to_contain_text("You left the table")
    expect(ben.get_by_test_id("spectating")).to_be_visible()
    expect(ben.get_by_test_id("chat")).to_contain_text("the players do not see it")
    expect(ben.get_by_test_id("chat-lines")).not_to_contain_text("players only")
    assert not any("removed" in text for text in ben.get_by_test_id("toast").all_inner_texts())
    expect(anna.get_by_test_id("left")).to_be_visible()


# 6. The log


def test_the_log_reads_in_plain_words_and_keeps_the_details_apart(new_page, server_url):
    page = open_settled_lobby(new_page(**LAPTOP), server_url)
    log = [
        {"type": "deal", "deal": 2},
        {"type": "entropy", "seat": 1, "deal": 2},
        {"type": "play", "seat": 1, "cards": ["R5"]},
        {"type": "auto", "seat": 1, "by": "bot"},
        {"type": "jumpIn", "seat": 2},
        {"type": "play", "seat": 2, "cards": ["R5"]},
        {"type": "callUno", "seat": 1},
        {"type": "race", "winner": 1, "claims": [{"seat": 1, "reaction": 237}], "window": 25},
    ]
    render(page, base_view(), log)
    lines = page.get_by_test_id("log").locator("li")
    texts = lines.all_inner_texts()
    assert texts == [
        "Ben called UNO!",
        "Cara jumped in with Red 5",
        "Ben played Red 5",
        "Deal 2 is dealt",
    ]
    for word in ("(bot)", "randomness", "race", "ms"):
        assert not any(word in line for line in texts), (word, texts)
    inside_viewport(page, "log")
    details = page.get_by_test_id("log-details")
    expect(details).to_have_text("Show details")
    details.click()
    expect(details).to_have_attribute("aria-pressed", "true")
    expect(lines).to_have_count(7)
    expect(page.locator('[data-testid=log] li.detail[data-type="race"]')).to_contain_text("237 ms")
    expect(page.locator('[data-testid=log] li.detail[data-type="entropy"]')).to_be_visible()
    details.click()
    expect(lines).to_have_count(4)


# 7. Your own UNO call


def test_your_uno_call_shows_on_your_seat_as_on_the_others(new_page, server_url):
    page = open_settled_lobby(new_page(**PHONE), server_url)
    # The seats that have called UNO are the view's `unoCalled`: here this seat (a call
    # ahead of its next-to-last card) and Ben.
    view = base_view(hand=["R5", "G7"], unoCalled=[0, 1])
    view["players"][0] = {**view["players"][0], "cards": 2}
    render(page, view, [{"type": "callUno", "seat": 0}])
    mine = page.locator(".me-head").get_by_test_id("uno-called")
    expect(mine).to_have_text("UNO!")
    inside_viewport(page, "uno-called")
    expect(seat(page, 1).get_by_test_id("uno-called")).to_have_text("UNO!")
    # Exposed (one card, no call): the view lists neither seat, and no sign shows, whatever
    # the cards held and the log say.
    view = base_view(hand=["G7"], unoExposed=0, unoCalled=[])
    view["players"][0] = {**view["players"][0], "cards": 1}
    render(
        page, view, [{"type": "play", "seat": 0, "cards": ["R5"]}, {"type": "callUno", "seat": 1}]
    )
    expect(page.get_by_test_id("uno-called")).to_have_count(0)


def test_a_real_uno_call_reaches_every_seat_at_once(new_page, server_url):
    """Both players play until one calls UNO; the call shows on the caller's own seat and
    on the other's view of it."""
    anna, ben = new_page(**LAPTOP), new_page(**LAPTOP)
    room_id, _ = create_room(anna, server_url, "Anna", seats=2)
    join_from_list(ben, server_url, "Ben", room_id)
    start(anna, 2)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if phase(anna) in ("dealOver", "matchOver"):
            pytest.skip("the deal ended without a call to watch")
        mover = next((p for p in (anna, ben) if my_turn(p) and phase(p) == "playing"), None)
        if mover is None:
            anna.wait_for_timeout(50)
            continue
        if enabled(mover, "uno"):
            mover.get_by_test_id("uno").click()
            other = ben if mover is anna else anna
            expect(mover.locator(".me-head").get_by_test_id("uno-called")).to_have_text("UNO!")
            you = int(mover.locator(".table").get_attribute("data-you") or 0)
            expect(seat(other, you).get_by_test_id("uno-called")).to_have_text("UNO!")
            return
        try:
            take_turn(mover)
        except Exception:
            mover.wait_for_timeout(100)  # a move the room's timer made first: look again
    raise AssertionError("no UNO call within the time")


# 9. The lobby, and 11: no refused request, reactions with words


def test_the_lobby_lists_running_games_to_watch_live_and_drops_empty_rooms(
    new_page, server_url, shot
):
    cy = new_page(**LAPTOP)
    console: list[str] = []
    cy.on("console", lambda msg: console.append(msg.text))
    open_settled_lobby(cy, server_url)
    anna, ben = new_page(**LAPTOP), new_page(**LAPTOP)
    room_id, _ = create_room(anna, server_url, "Anna", seats=2)
    entry = cy.locator(f'[data-testid=room-list] li[data-room-id="{room_id}"]')
    expect(entry).to_be_visible()
    join_from_list(ben, server_url, "Ben", room_id)
    start(anna, 2)
    # Without a reload: the room leaves "Open rooms" and shows under "Watch a game".
    watch = cy.locator(f'[data-testid=watch-item][data-room-id="{room_id}"]')
    expect(watch).to_be_visible()
    expect(watch).to_contain_text("Anna, Ben")
    expect(entry).to_have_count(0)
    inside_viewport(cy, "watch-list")
    shot(cy, "flow-03-lobby-watch", full_page=False)
    # A room everyone left is listed nowhere.
    dan = new_page(**LAPTOP)
    lone, _ = create_room(dan, server_url, "Dan", seats=3)
    lone_entry = cy.locator(f'li[data-room-id="{lone}"]')
    expect(lone_entry).to_be_visible()
    dan.get_by_test_id("leave").click()
    expect(lone_entry).to_have_count(0)
    # Joining the started room by its link leads to watching it, with no 409 on the way.
    cy.get_by_test_id("player-name").fill("Cy")
    cy.get_by_test_id("room-code").fill(f"{server_url}/#/room/{room_id}")
    cy.get_by_test_id("join").click()
    expect(cy.get_by_test_id("spectating")).to_be_visible()
    cy.wait_for_timeout(300)
    assert not [line for line in console if "409" in line], console


def _box_in_view(button: Locator) -> FloatRect | None:
    """The element's box once scrolled into view; a redraw (a player's join, the room's
    info refresh) replaces its node, so a detached one is looked up again."""
    for _ in range(3):
        try:
            button.scroll_into_view_if_needed()
            return button.bounding_box()
        except PlaywrightError as err:
            if "not attached" not in str(err):
                raise
    button.scroll_into_view_if_needed()
    return button.bounding_box()


def test_reaction_buttons_carry_words_within_a_phone_screen(new_page, server_url):
    page = new_page(**PHONE)
    room_id, _ = create_room(page, server_url, "Mia", seats=2)
    # The bot picker comes with the rules catalogue, whose arrival redraws the waiting
    # room: measure the buttons after it.
    expect(page.get_by_test_id("bots")).to_be_visible()
    buttons = page.locator("[data-testid^=react-]")
    expect(buttons).to_have_count(8)
    labels = [label.strip() for label in buttons.all_inner_texts()]
    assert all(re.search(r"[A-Za-z]{2,}", label) for label in labels), labels
    assert "Thumbs up" in " ".join(labels) and "Good game" in " ".join(labels)
    size = page.viewport_size
    assert size
    for i in range(8):
        box = _box_in_view(buttons.nth(i))
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= size["width"], box
        assert box["height"] >= 44, box
    page.get_by_test_id("react-gg").click()
    expect(page.locator('[data-testid=chat-lines] li[data-type="reaction"]')).to_contain_text(
        "Good game"
    )


def test_a_code_of_a_started_room_leads_to_watching_with_no_refused_join(new_page, server_url):
    anna, ben = new_page(**LAPTOP), new_page(**LAPTOP)
    room_id, code = create_room(anna, server_url, "Anna", seats=2, private=True)
    join_by_code(ben, server_url, "Ben", code)
    start(anna, 2)
    cy = new_page(**PHONE)
    console: list[str] = []
    cy.on("console", lambda msg: console.append(msg.text))
    open_settled_lobby(cy, server_url)
    cy.get_by_test_id("player-name").fill("Cy")
    cy.get_by_test_id("room-code").fill(code.lower())
    cy.get_by_test_id("join").click()
    expect(cy.get_by_test_id("spectating")).to_be_visible()
    assert room_id in cy.url
    expect(cy.locator('.toast[data-code="watching"]')).to_be_visible()
    assert not [line for line in console if "409" in line or "Failed to load" in line], console
