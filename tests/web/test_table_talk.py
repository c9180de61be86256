"""Chat, reactions and the share tools in Chromium: talk reaches the table as text, a
spectator's only the spectators, the host's mute holds; the copy-link button and the QR
code of the join link."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from web_helpers import create_room, join_from_list

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def test_chat_and_reactions_reach_the_table_as_text_and_the_host_mutes(new_page, server_url):
    anna, ben = new_page(), new_page(lang="da", **PHONE)
    room_id, code = create_room(anna, server_url, "Anna", seats=2)
    join_from_list(ben, server_url, "Ben", room_id)
    cara = new_page()
    cara.goto(f"{server_url}/#/room/{room_id}?code={code}")  # a spectator
    expect(cara.get_by_test_id("chat")).to_contain_text("the players do not see it")

    anna.get_by_test_id("chat-text").fill("<b>hi</b> & welcome")
    anna.get_by_test_id("chat-text").press("Enter")
    line = ben.get_by_test_id("chat-lines").locator("li").last
    expect(line).to_have_text("Anna: <b>hi</b> & welcome")
    assert line.locator("b").count() == 0  # shown as text, never as HTML
    expect(cara.get_by_test_id("chat-lines").locator("li")).to_have_count(1)

    ben.get_by_test_id("react-laugh").click()
    expect(anna.get_by_test_id("chat-lines").locator('li[data-type="reaction"]')).to_contain_text(
        "😂"
    )
    cara.get_by_test_id("chat-text").fill("from the rail")
    cara.get_by_test_id("chat-send").click()
    expect(cara.get_by_test_id("chat-lines")).to_contain_text("from the rail")
    # The players' chat does not carry the spectators' talk.
    anna.get_by_test_id("chat-text").fill("still here")
    anna.get_by_test_id("chat-send").click()
    expect(ben.get_by_test_id("chat-lines")).to_contain_text("still here")
    expect(ben.get_by_test_id("chat-lines")).not_to_contain_text("from the rail")

    anna.get_by_test_id("mute-1").click()
    expect(anna.get_by_test_id("mute-1")).to_have_attribute("aria-pressed", "true")
    ben.get_by_test_id("chat-text").fill("hej")
    ben.get_by_test_id("chat-send").click()
    expect(ben.locator('.toast[data-code="muted"]')).to_be_visible()


# Counts what the page asks of the Notification API (the real one answers "denied" at
# once in a headless browser, which would hide when the question was asked).
NOTIFICATIONS = """
window.__asked = 0;
window.Notification = class {
  static permission = 'default';
  static requestPermission() {
    window.__asked += 1;
    this.permission = 'granted';
    return Promise.resolve('granted');
  }
  constructor(title) { window.__shown = (window.__shown || 0) + 1; }
};
"""


def test_sound_waits_for_a_touch_on_phones_and_the_tab_signals_the_turn(new_page, server_url):
    anna, ben = new_page(), new_page(**PHONE)
    for page in (anna, ben):
        page.add_init_script(NOTIFICATIONS)
    room_id, code = create_room(anna, server_url, "Anna", seats=2)
    join_from_list(ben, server_url, "Ben", room_id)
    expect(anna.get_by_test_id("sound")).to_have_attribute("aria-pressed", "true")
    expect(ben.get_by_test_id("sound")).to_have_attribute("aria-pressed", "false")
    expect(anna.get_by_test_id("share-link")).to_contain_text(f"?code={code}")
    anna.get_by_test_id("copy-link").click()
    expect(anna.locator('.toast[data-code="copied"]')).to_be_visible()
    assert anna.get_by_test_id("qr").get_attribute("data-modules") in {
        str(n) for n in range(21, 60, 4)
    }
    anna.get_by_test_id("start").click()
    for page in (anna, ben):
        expect(page.get_by_test_id("turn-indicator")).to_be_visible()
    anna_turn = anna.get_by_test_id("turn-indicator").get_attribute("data-mine") == "true"
    mine = anna if anna_turn else ben
    other = ben if mine is anna else anna
    expect(mine).to_have_title("(!) Your turn – UNO")
    assert mine.locator('link[rel="icon"]').get_attribute("data-turn") == "true"
    expect(other).to_have_title("UNO")
    last = mine.evaluate("document.documentElement.dataset.lastSound || null")
    assert last == ("turn" if mine is anna else None)  # the phone stays silent
    # Nobody was asked for notifications before clicking "Notify me".
    assert anna.evaluate("window.__asked") == 0 and ben.evaluate("window.__asked") == 0
    # On a phone sound and notifications sit in the top bar's menu.
    expect(ben.get_by_test_id("notify")).to_be_hidden()
    ben.get_by_test_id("menu").click()
    ben.get_by_test_id("notify").click()
    ben.wait_for_function("window.__asked === 1")
    ben.get_by_test_id("sound").click()  # the touch that turns sound on
    expect(ben.get_by_test_id("sound")).to_have_attribute("aria-pressed", "true")
    assert ben.evaluate("document.documentElement.dataset.lastSound") == "card"


MOVE = """
async ([first, second]) => {
  const table = await import('/js/table.js');
  const ctx = { name: (s) => `#${s}`, send: () => {}, playCard: () => {},
                log: [], you: 0, isHost: true };
  const main = document.getElementById('main');
  main.replaceChildren(table.renderTable(first, ctx));
  main.replaceChildren(table.renderTable(second, ctx));
  const card = document.querySelector('.discard.landed .card');
  const arrived = document.querySelector('.card-button.arrived .card');
  const name = (el) => el && getComputedStyle(el).animationName;
  return [name(card), name(arrived)];
}
"""


def _table_view(top, hand):
    return {
        "you": 0,
        "hand": hand,
        "players": [
            {"seat": 0, "name": "Anna", "cards": len(hand), "score": 0, "connected": True},
            {"seat": 1, "name": "Ben", "cards": 5, "score": 0, "connected": True},
        ],
        "top": top,
        "color": top[0],
        "turn": 1,
        "direction": 1,
        "drawPile": 50,
        "pendingDraw": 0,
        "phase": "playing",
        "rules": {"preset": "classic"},
        "legal": [],
        "unoCalled": [],
        "deal": 1,
        "moves": 3,
        "seq": 10,
    }


@pytest.mark.parametrize(("motion", "expected"), [("no-preference", "land"), ("reduce", "none")])
def test_cards_travel_unless_the_player_asks_for_less_motion(
    new_page, server_url, motion, expected
):
    page = new_page(reduced_motion=motion)
    page.goto(f"{server_url}/#/")
    expect(page.get_by_test_id("create-room")).to_be_visible()
    first, second = _table_view("R3", ["G1", "B2"]), _table_view("R7", ["G1", "B2", "Y9"])
    landed, arrived = page.evaluate(MOVE, [first, second])
    assert landed == expected
    assert arrived == ("arrive" if expected == "land" else "none")
