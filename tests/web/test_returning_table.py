"""The bugs a new group of players hit, each checked in Chromium: the log tells what
happened at the time, the right code is shown and shared, a started game can be watched,
a preset's player range shapes the seats, the lobby's texts and the rules editor say what
they mean, the hand stays readable, and every seat can read the rules in force."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from web_helpers import create_room, join_from_list, open_settled_lobby, show_rule, start

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}

# Feeds a RoomSession (uno-client) a snapshot and patches exactly as the socket would (no
# socket), then draws the table of the last view with the log the room page keeps of them.
FEED = """
async ([snapshot, patches, lang]) => {
  const i18n = await import('/js/i18n.js');
  i18n.setLanguage(lang);
  const { RoomSession, UnoClient } = await import('uno-client');
  const { stampEvents } = await import('/js/stamp.js');
  const table = await import('/js/table.js');
  const log = [];
  let view = null;
  const conn = new RoomSession(new UnoClient(), 'x', null);
  conn.on('view', (v, events, change) => {
    view = v;
    log.push(...stampEvents(events, change.previous, v).map((e) => ({ ...e, seq: change.seq })));
  });
  for (const m of [snapshot, ...patches]) conn.handle(m);
  conn.close();
  const ctx = {
    name: (seat) => (view.players.find((p) => p.seat === seat) || {}).name || `#${seat + 1}`,
    send: () => {}, playCard: () => {}, log, you: view.you, isHost: true,
  };
  document.getElementById('main').replaceChildren(table.renderTable(view, ctx));
}
"""


def flip_view(**changes):
    view = {
        "you": 0,
        "hand": ["R1|T2", "G4|P7"],
        "players": [
            {"seat": 0, "name": "Anna", "cards": 2, "score": 0, "connected": True},
            {"seat": 1, "name": "Ben", "cards": 3, "score": 0, "connected": True},
            {"seat": 2, "name": "Cara", "cards": 5, "score": 0, "connected": True},
        ],
        "top": "B3|V5",
        "color": "B",
        "turn": 1,
        "direction": 1,
        "drawPile": 50,
        "pendingDraw": 0,
        "phase": "playing",
        "rules": {"preset": "flip"},
        "legal": [],
        "side": "light",
        "unoCalled": [],
        "deal": 1,
        "moves": 3,
        "seq": 10,
    }
    view.update(changes)
    return view


@pytest.fixture
def page(new_page, server_url):
    page = new_page()
    return open_settled_lobby(page, server_url)


def log_lines(page: Page) -> list[str]:
    return page.get_by_test_id("log").locator("li").all_inner_texts()


def test_the_log_names_the_face_played_and_the_seat_as_it_was_then(page):
    snapshot = {"type": "snapshot", "seq": 10, "view": flip_view()}
    patches = [
        {  # Ben plays Blue 3, then the Yellow Flip; the deck turns to its dark side.
            "type": "patch",
            "seq": 11,
            "ops": [
                {"op": "replace", "path": "/top", "value": "YF|O6"},
                {"op": "replace", "path": "/side", "value": "dark"},
            ],
            "events": [
                {"type": "play", "seat": 1, "cards": ["B3|V5"], "color": "B"},
                {"type": "play", "seat": 1, "cards": ["YF|O6"], "color": "Y"},
                {"type": "flip", "seat": 1, "side": "dark", "top": "YF|O6"},
                {"type": "draw", "seat": 2, "count": 1},
            ],
        },
        {  # Cara leaves; her seat is gone from the view.
            "type": "patch",
            "seq": 12,
            "ops": [{"op": "remove", "path": "/players/2"}],
            "events": [{"type": "callUno", "seat": 1}],
        },
        {  # Ben called UNO, then played: the engine confirms the call with the play.
            "type": "patch",
            "seq": 13,
            "ops": [],
            "events": [
                {"type": "play", "seat": 1, "cards": ["R9|T1"], "color": "T"},
                {"type": "callUno", "seat": 1},
            ],
        },
    ]
    page.evaluate(FEED, [snapshot, patches, "en"])
    page.wait_for_function("document.querySelectorAll('[data-testid=log] li').length >= 4")
    lines = log_lines(page)[::-1]  # oldest first
    assert lines[0] == "Ben played Blue 3"
    assert lines[1].startswith("Ben played Yellow Flip")
    assert "Cara" in lines[3] and "#3" not in lines[3]  # named as she was
    assert sum("called UNO" in line for line in lines) == 1
    assert lines[-1].startswith("Ben played Teal 1")  # dark side, as played


def test_unplayable_cards_keep_their_colours_between_turns(page):
    view = flip_view(rules={"preset": "classic"}, side=None, hand=["Y5", "G7"], top="R3")
    view.update(color="R", turn=0, legal=[{"type": "draw"}])
    page.evaluate(FEED, [{"type": "snapshot", "seq": 10, "view": view}, [], "en"])
    for code in ("Y5", "G7"):
        face = page.locator(f'[data-testid=card][data-card="{code}"] .card')
        assert face.evaluate("el => getComputedStyle(el).filter") == "none"


def test_a_guest_says_ready_and_sees_the_scores_of_every_deal(page):
    view = flip_view(rules={"preset": "classic"}, side=None, top="R3", color="R", hand=[])
    view.update(
        phase="dealOver",
        winner=1,
        dealScores=[0, 40, 0],
        totals=[30, 40, 0],
        legal=[{"type": "nextDeal"}],
        deal=2,
        room={
            "hostSeat": 1,
            "ready": [2],
            "deals": [
                {"deal": 1, "winner": 0, "scores": [30, 0, 0], "totals": [30, 0, 0]},
                {"deal": 2, "winner": 1, "scores": [0, 40, 0], "totals": [30, 40, 0]},
            ],
        },
    )
    page.evaluate(
        """async (view) => {
          const table = await import('/js/table.js');
          window.__sent = [];
          const ctx = { name: (s) => ['Anna', 'Ben', 'Cara'][s], send: (a) => window.__sent.push(a),
                        playCard: () => {}, log: [], you: 0, isHost: false };
          document.getElementById('main').replaceChildren(table.renderTable(view, ctx));
        }""",
        view,
    )
    expect(page.get_by_test_id("next-deal")).to_have_count(0)
    expect(page.get_by_test_id("ready-list")).to_contain_text("Cara")
    rows = page.get_by_test_id("summary").get_by_test_id("match-scoreboard").locator("tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("Anna")
    page.get_by_test_id("ready").click()
    assert page.evaluate("window.__sent") == [{"type": "nextDeal"}]


def test_danish_counts_one_sip_as_one_slurk(page):
    texts = page.evaluate(
        """async () => {
          const i18n = await import('/js/i18n.js');
          i18n.setLanguage('da');
          return [i18n.t('table.sips', {n: 1}), i18n.t('table.sips', {n: 3}),
                  i18n.t('bottle.do.drink', {name: 'Bo', n: 1})];
        }"""
    )
    assert texts == ["1 slurk", "3 slurke", "Bo drikker 1 slurk."]


def test_the_lobby_form_says_what_it_means(page):
    # An emptied seat box is the browser's to refuse, not the server's raw text.
    page.get_by_test_id("player-name").fill("Zed")
    expect(page.get_by_test_id("room-name")).to_have_attribute("placeholder", "Zed's table")
    expect(page.locator("#player-name-help")).to_contain_text("24")
    page.get_by_test_id("seats").fill("")
    page.get_by_test_id("create-room").click()
    assert page.get_by_test_id("seats").evaluate("el => !el.checkValidity()")
    expect(page.locator(".toast")).to_have_count(0)
    assert "#/room/" not in page.url
    # UNO Duo seats two: the seat box follows the preset.
    page.get_by_test_id("preset").select_option("duo")
    expect(page.get_by_test_id("seats")).to_have_value("2")
    expect(page.get_by_test_id("seats")).to_have_attribute("max", "2")
    # One and done says its points are counted, as the summary shows them.
    page.get_by_test_id("preset").select_option("oneAndDone")
    expect(page.locator("#preset-help")).not_to_contain_text("no scoring")
    # Rommy: a description, and none of the classic options that do not apply.
    page.get_by_test_id("preset").select_option("rommy")
    expect(page.locator("#preset-help")).not_to_have_text("")
    show_rule(page, "decks")
    expect(page.locator('[data-option="stacking"]')).to_be_hidden()
    expect(page.locator('[data-option="decks"]')).to_be_visible()
    # Two options, two labels.
    page.get_by_test_id("preset").select_option("classic")
    zero = page.locator('label[for="rule-zeroPass"]').inner_text()
    direction = page.locator('label[for="rule-zeroPassDirection"]').inner_text()
    assert zero != direction
    # The deck count follows a big table, as its help suggests (two for 7-10).
    page.get_by_test_id("seats").fill("9")
    expect(page.locator("#rule-decks")).to_have_value("2")
    page.get_by_test_id("seats").fill("4")
    expect(page.locator("#rule-decks")).to_have_value("1")


def test_a_shared_link_shows_the_code_and_a_started_game_can_be_watched(new_page, server_url):
    anna, ben = new_page(), new_page(**PHONE)
    room_id, code = create_room(anna, server_url, "Anna", seats=2)
    assert code != room_id
    # Ben opens the shared link without a seat, on a phone.
    ben.goto(f"{server_url}/#/room/{room_id}?code={code}")
    expect(ben.get_by_test_id("room-code")).to_have_text(code)
    # The share tools are the host's; the link they share carries the code.
    expect(anna.get_by_test_id("share-link")).to_contain_text(f"?code={code}")
    expect(ben.get_by_test_id("share-link")).to_have_count(0)
    expect(ben.get_by_test_id("connection")).to_have_attribute("data-state", "online")
    # Both boxes in one script: the top bar is re-rendered whenever the room's info
    # refreshes, and a box read from an element replaced in between would be empty.
    box, badge = ben.evaluate(
        """() => ['room-code', 'connection'].map((id) => {
          const r = document.querySelector(`[data-testid=${id}]`).getBoundingClientRect();
          return { x: r.x, y: r.y, width: r.width, height: r.height };
        })"""
    )
    assert box["width"] and badge["width"], (box, badge)
    apart = (
        box["x"] + box["width"] <= badge["x"]
        or badge["x"] + badge["width"] <= box["x"]
        or box["y"] + box["height"] <= badge["y"]
        or badge["y"] + badge["height"] <= box["y"]
    )
    assert apart, (box, badge)
    # Everyone reads the rules in force, not only the host.
    expect(ben.get_by_test_id("rules-summary")).to_contain_text("Classic")
    join_from_list(ben, server_url, "Ben", room_id)
    expect(ben.get_by_test_id("room-code")).to_have_text(code)
    start(anna, players=2)
    # Cara types the code of the started room: she watches instead of a dead end.
    cara = new_page()
    cara.goto(f"{server_url}/#/")
    cara.get_by_test_id("player-name").fill("Cara")
    cara.get_by_test_id("room-code").fill(code)
    cara.get_by_test_id("join").click()
    expect(cara.get_by_test_id("spectating")).to_be_visible()
    expect(cara.locator("#topbar-room").get_by_test_id("room-code")).to_have_text(code)


def test_every_text_the_client_names_exists_in_every_language(page):
    """Each literal key the modules pass to t() (chat, sound, sharing, scoreboard, the
    account pages and the rest) has a text in every language of the catalogue, and no two
    option labels read alike."""
    import re
    from pathlib import Path

    web = Path(__file__).resolve().parents[2] / "web" / "js"
    keys = set()
    for source in [*web.glob("*.js"), *web.glob("accounts/*.js")]:
        keys.update(re.findall(r"""\bt\(\s*["']([a-zA-Z][\w.]*)["']""", source.read_text()))
    assert {
        "chat.send",
        "attention.soundOn",
        "share.copy",
        "summary.allDeals",
        "playNow.title",
    } <= keys
    missing = page.evaluate(
        """async (keys) => {
            const { CATALOGUES, LANGUAGES } = await import('/js/i18n.js');
            const { STRINGS, OPTION_TEXT } = CATALOGUES;
            const out = keys.filter((k) => LANGUAGES.some((lang) => !(k in STRINGS[lang])));
            for (const lang of LANGUAGES) {
              const labels = Object.values(OPTION_TEXT).map((t) => t[lang]?.[0]);
              const twice = labels.filter((l, i) => labels.indexOf(l) !== i);
              if (twice.length) out.push(`${lang} labels twice: ${twice}`);
            }
            return out;
        }""",
        sorted(keys),
    )
    assert missing == []
