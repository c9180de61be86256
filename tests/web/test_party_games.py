"""The party games' own tables in real browsers: UNO Rommy and Bottle UNO.

Two players play through the lobby against the real server, one of them on a phone-sized
screen; the pages are read only through the ``data-testid`` hooks of docs/web-client.md.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from web_helpers import ROOM_URL, hand, open_settled_lobby, seq, show_rule, start, wait_change

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def create_drinking_room(page: Page, base: str, player: str, preset: str) -> str:
    """Create a two-seat room whose rules keep a drinking tally (the age is confirmed)."""
    page.goto(f"{base}/#/")
    page.get_by_test_id("player-name").fill(player)
    page.get_by_test_id("seats").fill("2")
    page.get_by_test_id("preset").select_option(preset)
    if not page.locator("#rule-drinks").is_checked():
        show_rule(page, "drinks").check()
    page.get_by_test_id("create-room").click()
    page.get_by_test_id("adult-yes").click()
    page.wait_for_url(ROOM_URL)
    return page.get_by_test_id("room-code").inner_text().strip()


def join_adult(page: Page, base: str, player: str, code: str) -> None:
    page.goto(f"{base}/#/")
    page.get_by_test_id("player-name").fill(player)
    page.get_by_test_id("room-code").fill(code)
    page.get_by_test_id("join").click()
    page.get_by_test_id("adult-yes").click()
    page.wait_for_url(ROOM_URL)


def mover_of(pages: list[Page]) -> Page:
    """The page whose table says it is its turn (waiting for the pages to agree)."""
    for _ in range(200):
        movers = [
            p
            for p in pages
            if p.get_by_test_id("turn-indicator").get_attribute("data-mine") == "true"
        ]
        if len(movers) == 1:
            return movers[0]
        pages[0].wait_for_timeout(50)
    raise AssertionError("no page shows that it is its turn")


def settle(pages: list[Page], mover: Page, before: int) -> None:
    """Wait until the mover's change shows on every page."""
    wait_change(mover, before)
    target = seq(mover)
    for p in pages:
        wait_change(p, target - 1)


def enabled(page: Page, testid: str) -> bool:
    el = page.get_by_test_id(testid)
    return el.count() > 0 and el.first.get_attribute("data-enabled") == "true"


# ---- UNO Rommy ------------------------------------------------------------------------------


def select(page: Page, cards: list[str]) -> None:
    """Press the hand's cards (one button per card, duplicates taken in turn)."""
    for code in cards:
        page.locator(
            f'[data-testid=hand] [data-testid=card][data-card="{code}"][data-selected=false]'
        ).first.click()


def rommy_play_step(page: Page, counts: dict[str, int]) -> None:
    """Meld if the table suggests one (through the selection), else lay off a card the
    table highlights, else discard; each move waits for its change."""
    before = seq(page)
    suggestion = page.get_by_test_id("rommy-suggestion")
    if suggestion.count():
        cards = (suggestion.first.get_attribute("data-cards") or "").split()
        if counts["meld"] % 2 == 0:
            select(page, cards)
            expect(page.locator("[data-testid=card][data-selected=true]")).to_have_count(len(cards))
            assert enabled(page, "rommy-meld-selected")
            page.get_by_test_id("rommy-meld-selected").click()
        else:
            suggestion.first.click()
        wait_change(page, before)
        counts["meld"] += 1
        return
    # A lay-off the legal list offers: the melds it could go on are highlighted.
    if page.locator(".rommy-meld.can-lay").count():
        for code in [c for c in dict.fromkeys(hand(page)) if c not in ("W", "W+4")]:
            select(page, [code])
            button = page.locator('[data-testid=rommy-layoff][data-enabled="true"]')
            if button.count() and len(hand(page)) > 2:
                meld = int(button.first.get_attribute("data-target") or 0)
                size = page.locator(f'[data-testid=rommy-meld][data-index="{meld}"] .meld-card')
                n = size.count()
                button.first.click()
                wait_change(page, before)
                expect(
                    page.locator(f'[data-testid=rommy-meld][data-index="{meld}"] .meld-card')
                ).to_have_count(n + 1)
                counts["layOff"] += 1
                return
            page.get_by_test_id("rommy-clear").click()
    # Discard: a lone card, preferably not a joker.
    cards = hand(page)
    plain = [c for c in cards if c not in ("W", "W+4")] or cards
    select(page, [plain[-1]])
    assert enabled(page, "rommy-discard-selected")
    page.get_by_test_id("rommy-discard-selected").click()
    wait_change(page, before)
    counts["discard"] += 1


def check_rommy_summary(pages: list[Page], shot, n: int) -> None:
    """The end of a deal: each seat's melded points, hand points, the deal and the total."""
    for page in pages:
        board = page.get_by_test_id("scoreboard")
        expect(board.locator("tbody tr")).to_have_count(2)
    rows = pages[0].get_by_test_id("scoreboard").locator("tbody tr")
    for i in range(2):
        melded = int(rows.nth(i).get_by_test_id("rommy-melded").inner_text())
        in_hand = int(rows.nth(i).get_by_test_id("rommy-in-hand").inner_text().split()[-1])
        deal = int(rows.nth(i).get_by_test_id("deal-score").inner_text())
        assert melded + in_hand == deal
    if n == 0:
        shot(pages[0], "66-rommy-deal-over-phone")


def test_rommy_two_players_draw_meld_and_discard(new_page, server_url, shot):
    anna, ben = new_page(**PHONE), new_page()
    code = create_drinking_room(anna, server_url, "Anna", "rommy")
    join_adult(ben, server_url, "Ben", code)
    start(anna, players=2)
    pages = [anna, ben]
    for page in pages:
        expect(page.get_by_test_id("rommy-melds")).to_be_visible()
        expect(page.get_by_test_id("rommy-stock")).to_be_visible()
        expect(page.get_by_test_id("rommy-discard")).to_have_attribute("data-count", "1")
        expect(page.get_by_test_id("rommy-drinks")).to_be_visible()
        assert len(hand(page)) == 7
    # The first discard has no effect; 108 - 14 dealt - 1 turned up.
    expect(anna.get_by_test_id("rommy-stock")).to_have_attribute("data-count", "93")

    counts = {"draw": 0, "takeDiscard": 0, "meld": 0, "layOff": 0, "discard": 0, "deals": 0}
    turns = 0
    while turns < 60 and not (turns >= 6 and anna.get_by_test_id("rommy-meld").count() >= 1):
        if anna.get_by_test_id("turn-indicator").get_attribute("data-phase") != "playing":
            check_rommy_summary(pages, shot, counts["deals"])
            counts["deals"] += 1
            anna.get_by_test_id("next-deal").click()  # the host deals on
            for page in pages:
                expect(page.get_by_test_id("turn-indicator")).to_have_attribute(
                    "data-phase", "playing"
                )
            continue
        mover = mover_of(pages)
        other = ben if mover is anna else anna
        # Only the turn holder's draw buttons are live.
        assert not enabled(other, "rommy-stock")
        expect(mover.get_by_test_id("rommy-step")).to_have_attribute("data-step", "draw")
        before = seq(mover)
        if turns == 1 and enabled(mover, "rommy-take-discard"):
            top = mover.get_by_test_id("rommy-discard").get_attribute("data-card")
            mover.get_by_test_id("rommy-take-discard").click()
            wait_change(mover, before)
            assert top in hand(mover)
            counts["takeDiscard"] += 1
        else:
            stock = int(mover.get_by_test_id("rommy-stock").get_attribute("data-count") or 0)
            if turns == 2:
                mover.keyboard.press("d")  # the keyboard shortcut draws too
            else:
                mover.get_by_test_id("rommy-stock").click()
            wait_change(mover, before)
            expect(mover.get_by_test_id("rommy-stock")).not_to_have_attribute(
                "data-count", str(stock)
            )
            counts["draw"] += 1
        expect(mover.get_by_test_id("rommy-step")).to_have_attribute("data-step", "play")
        # Play until the turn ends (a Skip may give it straight back, in the draw step):
        # melds and lay-offs, then a discard.
        for _ in range(10):
            indicator = mover.get_by_test_id("turn-indicator")
            if (
                indicator.get_attribute("data-mine") != "true"
                or indicator.get_attribute("data-phase") != "playing"
                or indicator.get_attribute("data-step") != "play"
            ):
                break
            rommy_play_step(mover, counts)
        settle(pages, mover, before)
        turns += 1

    assert counts["draw"] + counts["takeDiscard"] == turns >= 6
    assert counts["meld"] >= 1 and counts["discard"] >= 1, counts
    # Both pages show the same melds, grouped by who laid them, jokers with their meaning.
    melds = [
        p.get_by_test_id("rommy-meld").evaluate_all("els => els.map(e => e.dataset.cards)")
        for p in pages
    ]
    assert melds[0] == melds[1] and len(melds[0]) >= 1
    expect(anna.get_by_test_id("rommy-melds")).to_have_attribute("data-count", str(len(melds[0])))
    assert anna.get_by_test_id("rommy-meld-group").count() >= 1
    for joker in anna.locator(".meld-card.joker").all():
        assert re.match(r"^= ", joker.locator(".stands").inner_text())
    assert anna.evaluate("document.documentElement.scrollWidth") <= 390
    shot(anna, "60-rommy-phone")
    shot(anna, "61-rommy-phone-screen", full_page=False)
    shot(ben, "62-rommy-desktop")


# ---- Bottle UNO -----------------------------------------------------------------------------


def tally(page: Page) -> list[int]:
    return [
        int(x) for x in page.get_by_test_id("bottle-tally").get_by_test_id("sips").all_inner_texts()
    ]


def test_bottle_two_players_turn_cards(new_page, server_url, shot):
    anna, ben = new_page(**PHONE), new_page()
    code = create_drinking_room(anna, server_url, "Anna", "bottle")
    join_adult(ben, server_url, "Ben", code)
    start(anna, players=2)
    pages = [anna, ben]
    for page in pages:
        expect(page.get_by_test_id("bottle-pile")).to_have_attribute("data-count", "108")
        expect(page.get_by_test_id("bottle-last-action")).to_have_attribute("data-action", "")
        expect(page.get_by_test_id("bottle-tally").locator("tbody tr")).to_have_count(2)
        expect(page.get_by_test_id("direction")).to_be_visible()

    actions = []
    for turned in range(1, 13):
        mover = mover_of(pages)
        other = ben if mover is anna else anna
        expect(other.get_by_test_id("bottle-turn")).to_have_attribute("data-enabled", "false")
        expect(mover.get_by_test_id("bottle-turn")).to_have_attribute("data-enabled", "true")
        before = seq(mover)
        if turned % 3 == 0:
            # Name the receiver of green / yellow sips: the only other seat.
            mover.get_by_test_id("bottle-target").select_option(index=1)
        if turned == 5:
            mover.keyboard.press("t")  # the keyboard shortcut turns a card too
        else:
            mover.get_by_test_id("bottle-turn").click()
        settle(pages, mover, before)
        for page in pages:
            expect(page.get_by_test_id("bottle-pile")).to_have_attribute(
                "data-count", str(108 - turned)
            )
        last = anna.get_by_test_id("bottle-last-action")
        action = last.get_attribute("data-action") or ""
        assert action
        assert last.get_attribute("data-card") == ben.get_by_test_id("top-card").get_attribute(
            "data-card"
        )
        assert "turned" in last.inner_text()
        actions.append(action)

    # Both pages agree on the tally; every sip in it has a reason written next to it.
    assert tally(anna) == tally(ben)
    rows = anna.get_by_test_id("bottle-tally").locator("tbody tr")
    for i in range(2):
        sips = int(rows.nth(i).get_attribute("data-sips") or 0)
        reasons = rows.nth(i).locator(".reasons").inner_text()
        numbers = [int(n) for n in re.findall(r"\d+", reasons)]
        assert sum(numbers) == sips
    pee = [int(x) for x in anna.get_by_test_id("bottle-pee").all_inner_texts()]
    assert sum(pee) == actions.count("peeCard")
    # Danish on the same table.
    ben.get_by_test_id("language").select_option("da")
    expect(ben.get_by_test_id("bottle-last-action")).to_contain_text("vendte")
    assert anna.evaluate("document.documentElement.scrollWidth") <= 390
    shot(anna, "63-bottle-phone")
    shot(anna, "64-bottle-phone-screen", full_page=False)
    shot(ben, "65-bottle-desktop-da")


# ---- crafted views: what a random deal rarely shows on demand ------------------------------

# Renders a view with the real table module and records what it sends (as in
# test_components.py; the view shapes are engine/variants/rommy/view.py's and bottle.py's).
HARNESS = """
async ([view, lang]) => {
  const i18n = await import('/js/i18n.js');
  i18n.setLanguage(lang);
  const table = await import('/js/table.js');
  window.__sent = [];
  const ctx = {
    name: (seat) => (view.players.find((p) => p.seat === seat) || {}).name || `#${seat}`,
    send: (action) => window.__sent.push(action),
    playCard: () => {},
    log: [],
    you: view.you,
  };
  document.getElementById('main').replaceChildren(table.renderTable(view, ctx));
}
"""


@pytest.fixture
def page(new_page, server_url):
    page = new_page(**PHONE)
    return open_settled_lobby(page, server_url)


def render(page: Page, view: dict, lang: str = "en") -> None:
    page.evaluate(HARNESS, [view, lang])


def sent(page: Page) -> list[dict]:
    return page.evaluate("window.__sent.splice(0)")


def meld(kind: str, cards: list[str], stands: list[str], seat: int) -> dict:
    return {"kind": kind, "cards": cards, "as": stands, "seats": [seat] * len(cards)}


def rommy_view(**changes):
    hand_cards = ["R3", "R5", "R6", "W", "G7", "B7"]
    view = {
        "game": "rommy",
        "you": 0,
        "hand": hand_cards,
        "players": [
            {"seat": 0, "name": "Anna", "cards": 6, "score": 0, "out": False},
            {"seat": 1, "name": "Ben", "cards": 4, "score": 0, "out": False},
        ],
        "top": "Y3",
        "color": "Y",
        "discard": ["Y3", "B2"],
        "melds": [
            meld("run", ["R2", "W", "R4"], ["R2", "R3", "R4"], 1),
            meld("set", ["G7", "Y7", "W+4"], ["G7", "Y7", "7"], 0),
        ],
        "turn": 0,
        "direction": 1,
        "step": "play",
        "mustMeld": False,
        "drawPile": 50,
        "stock": 50,
        "pendingDraw": 0,
        "phase": "playing",
        "rules": {"preset": "rommy", "drinks": True},
        "legal": [
            {"type": "meld", "cards": ["R5", "R6", "W"]},
            {"type": "layOff", "cards": ["R5"], "target": 0},
            {"type": "layOff", "cards": ["W"], "target": 0},
            {"type": "layOff", "cards": ["G7"], "target": 1},
            {"type": "layOff", "cards": ["B7"], "target": 1},
            {"type": "layOff", "cards": ["W"], "target": 1},
            {"type": "swapJoker", "cards": ["R3"], "target": 0},
            *({"type": "discardCard", "cards": [c]} for c in hand_cards),
        ],
        "deal": 1,
        "dealer": 1,
        "dealScores": None,
        "totals": [40, -15],
        "winner": None,
        "matchOver": False,
        "reveal": None,
        "drinks": [0, 4],
        "sips": [{"seat": 1, "count": 4, "reason": "jokerSwapped"}],
        "moves": 10,
        "seq": 20,
    }
    view.update(changes)
    return view


def press(page: Page, *cards: str) -> None:
    page.get_by_test_id("rommy-clear").click()
    select(page, list(cards))


def test_rommy_melds_jokers_and_the_selection(page, shot):
    render(page, rommy_view())
    melds = page.get_by_test_id("rommy-meld")
    expect(melds).to_have_count(2)
    # Grouped by who laid them; a joker says what it stands for, in words for readers.
    groups = page.get_by_test_id("rommy-meld-group")
    expect(groups.nth(0)).to_contain_text("Laid by Anna")
    expect(groups.nth(1)).to_contain_text("Laid by Ben")
    run = page.locator('[data-testid=rommy-meld][data-index="0"]')
    expect(run).to_contain_text("Run: red 2-4")
    expect(run.locator(".meld-card.joker .stands")).to_have_text("= 3")
    expect(run.locator(".meld-card.joker .card")).to_have_attribute(
        "aria-label", "Wild, stands for Red 3"
    )
    set_ = page.locator('[data-testid=rommy-meld][data-index="1"]')
    expect(set_.locator(".meld-card.joker .card")).to_have_attribute(
        "aria-label", re.compile("stands for a 7 of any colour")
    )
    # Nothing selected: the melds the legal list offers lay-offs on are highlighted.
    expect(page.locator(".rommy-meld.can-lay")).to_have_count(2)
    expect(page.get_by_test_id("rommy-step")).to_have_attribute("data-step", "play")
    expect(page.get_by_test_id("rommy-discard")).to_have_attribute("data-count", "2")
    expect(page.get_by_test_id("rommy-stock")).to_have_attribute("data-enabled", "false")

    # One card: lay off where listed, nowhere else.
    press(page, "R5")
    expect(page.get_by_test_id("card").and_(page.locator("[aria-pressed=true]"))).to_have_count(1)
    on_run = page.locator('[data-testid=rommy-layoff][data-target="0"]')
    on_set = page.locator('[data-testid=rommy-layoff][data-target="1"]')
    expect(on_run).to_have_attribute("data-enabled", "true")
    expect(on_set).to_have_attribute("data-enabled", "false")
    on_set.click(force=True)  # marked aria-disabled: nothing is sent
    assert sent(page) == []
    on_run.click()
    assert sent(page) == [{"type": "layOff", "cards": ["R5"], "target": 0}]
    # A joker swap only as listed.
    press(page, "R3")
    expect(page.locator('[data-testid=rommy-swap][data-target="1"]')).to_have_attribute(
        "data-enabled", "false"
    )
    page.locator('[data-testid=rommy-swap][data-target="0"]').click()
    assert sent(page) == [{"type": "swapJoker", "cards": ["R3"], "target": 0}]
    # A listed meld is sent as listed, whatever order the cards were pressed in.
    press(page, "W", "R6", "R5")
    page.get_by_test_id("rommy-meld-selected").click()
    assert sent(page) == [{"type": "meld", "cards": ["R5", "R6", "W"]}]
    # One the list does not hold goes as pressed: the server lays a run in order.
    press(page, "R5", "W", "R3")
    page.get_by_test_id("rommy-meld-selected").click()
    assert sent(page) == [{"type": "meld", "cards": ["R5", "W", "R3"]}]
    # So do several cards laid off on a meld.
    press(page, "R6", "R5")
    page.locator('[data-testid=rommy-layoff][data-target="0"]').click()
    assert sent(page) == [{"type": "layOff", "cards": ["R6", "R5"], "target": 0}]
    # The suggestion buttons send the legal melds directly.
    page.get_by_test_id("rommy-suggestion").first.click()
    assert sent(page) == [{"type": "meld", "cards": ["R5", "R6", "W"]}]
    # Discard: exactly one card.
    press(page, "B7", "G7")
    expect(page.get_by_test_id("rommy-discard-selected")).to_have_attribute("data-enabled", "false")
    page.get_by_test_id("rommy-discard-selected").click(force=True)
    assert sent(page) == []
    press(page, "B7")
    page.get_by_test_id("rommy-discard-selected").click()
    assert sent(page) == [{"type": "discardCard", "cards": ["B7"]}]
    # Keyboard: Space selects the focused card and focus stays on it across the redraw.
    page.get_by_test_id("rommy-clear").click()
    page.locator('[data-testid=card][data-card="R6"]').focus()
    page.keyboard.press("Space")
    assert page.evaluate("document.activeElement.dataset.card") == "R6"
    expect(page.locator('[data-testid=card][data-card="R6"]')).to_have_attribute(
        "aria-pressed", "true"
    )
    expect(page.get_by_test_id("rommy-hint")).to_have_text("Selected: Red 6.")
    # Scores and the drinks tally with its reasons.
    expect(page.get_by_test_id("rommy-score")).to_have_text(["40 pts", "-15 pts"])
    expect(page.get_by_test_id("rommy-drinks").locator("tbody tr").nth(1)).to_contain_text(
        "joker swapped 4"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "67-rommy-crafted-phone")


def test_rommy_draw_step_must_meld_and_summary(page, shot):
    render(
        page,
        rommy_view(
            step="draw",
            pendingDraw=0,
            legal=[{"type": "draw"}, {"type": "takeDiscard"}, {"type": "takePile"}],
        ),
    )
    expect(page.get_by_test_id("rommy-step")).to_have_text("Step 1: draw")
    for testid, action in (
        ("rommy-stock", "draw"),
        ("rommy-take-discard", "takeDiscard"),
        ("rommy-take-pile", "takePile"),
    ):
        page.get_by_test_id(testid).click()
        assert sent(page) == [{"type": action}]
    expect(page.get_by_test_id("rommy-meld-selected")).to_have_attribute("data-enabled", "false")

    # After taking the pile only a meld may follow: no lay-off, swap or discard controls.
    render(page, rommy_view(mustMeld=True, legal=[{"type": "meld", "cards": ["R5", "R6", "W"]}]))
    expect(page.get_by_test_id("rommy-must-meld")).to_have_text(
        "You took the pile: you must meld now."
    )
    expect(page.get_by_test_id("rommy-layoff")).to_have_count(0)
    press(page, "B7")
    page.get_by_test_id("rommy-discard-selected").click(force=True)
    assert sent(page) == []

    # Someone else's turn, in Danish.
    render(page, rommy_view(turn=1, step="draw", legal=[]), lang="da")
    expect(page.get_by_test_id("turn-indicator")).to_have_text("Bens tur")
    expect(page.get_by_test_id("rommy-step")).to_have_text("Trin 1: træk")

    # The end of the deal: melded points against the points left in hand, as the view
    # gives them (numbers no card rule makes of these cards: the table counts nothing).
    render(
        page,
        rommy_view(
            phase="dealOver",
            hand=["R5"],
            reveal=[["R5"], ["W+4", "Y0"]],
            pointsLaid=[36, 34],
            pointsInHand=[6, 34],
            dealScores=[30, 0],
            totals=[70, -15],
            winner=0,
            legal=[{"type": "nextDeal"}],
        ),
    )
    rows = page.get_by_test_id("scoreboard").locator("tbody tr")
    expect(rows.nth(0).get_by_test_id("rommy-melded")).to_have_text("+36")
    expect(rows.nth(0).get_by_test_id("rommy-in-hand")).to_contain_text("-6")
    expect(rows.nth(1).get_by_test_id("rommy-melded")).to_have_text("+34")
    expect(rows.nth(1).get_by_test_id("rommy-in-hand")).to_contain_text("-34")
    expect(rows.get_by_test_id("deal-score")).to_have_text(["30", "0"])
    expect(page.get_by_test_id("summary")).to_contain_text("Anna went out")
    page.get_by_test_id("next-deal").click()
    assert sent(page) == [{"type": "nextDeal"}]
    shot(page, "68-rommy-summary-phone")


def bottle_view(**changes):
    view = {
        "game": "bottle",
        "you": 0,
        "hand": [],
        "players": [
            {"seat": s, "name": n, "cards": 0, "score": 0, "out": False}
            for s, n in enumerate(["Anna", "Ben", "Cara"])
        ],
        "top": "G3",
        "color": "G",
        "turn": 0,
        "direction": 1,
        "drawPile": 90,
        "turned": 18,
        "pendingDraw": 0,
        "phase": "playing",
        "rules": {"preset": "bottle", "drinks": True},
        "legal": [
            {"type": "turnCard"},
            {"type": "turnCard", "target": 1},
            {"type": "turnCard", "target": 2},
        ],
        "deal": 1,
        "dealer": 2,
        "totals": [3, 5, 0],
        "drinks": [3, 5, 0],
        "sips": [
            {"seat": 0, "count": 3, "reason": "drink"},
            {"seat": 1, "count": 1, "reason": "toast"},
            {"seat": 1, "count": 4, "reason": "drawFour"},
        ],
        "peeCards": [0, 2, 0],
        "lastAction": {
            "seat": 2,
            "card": "G3",
            "action": "give",
            "count": 3,
            "target": 1,
            "sips": [{"seat": 1, "count": 3, "reason": "given"}],
        },
        "moves": 18,
        "seq": 30,
    }
    view.update(changes)
    return view


def test_bottle_turn_target_and_actions_in_words(page, shot):
    render(page, bottle_view())
    expect(page.get_by_test_id("bottle-last-action")).to_contain_text("Cara turned Green 3")
    expect(page.get_by_test_id("bottle-last-action")).to_contain_text("Cara gives 3 sips to Ben.")
    expect(page.get_by_test_id("bottle-pile")).to_contain_text("90 cards left")
    expect(page.get_by_test_id("bottle-pee")).to_have_text(["0", "2", "0"])
    expect(page.get_by_test_id("bottle-tally").locator("tbody tr").nth(1)).to_contain_text(
        "toast 1, Wild Draw Four 4"
    )
    page.get_by_test_id("bottle-turn").click()
    assert sent(page) == [{"type": "turnCard"}]
    page.get_by_test_id("bottle-target").select_option("2")
    page.get_by_test_id("bottle-turn").click()
    assert sent(page) == [{"type": "turnCard", "target": 2}]
    page.get_by_test_id("bottle-target").select_option("")
    shot(page, "69-bottle-crafted-phone", full_page=False)

    # Seat 2 (Cara) turns each card; what it did is the engine's lastAction as it says it.
    def sips(count, reason, *seats):
        return [{"seat": s, "count": count, "reason": reason} for s in seats]

    words = {
        ("R+2", "drawTwo"): (
            {"count": 2, "side": "right", "sips": sips(2, "drawTwo", 1)},
            "2 sips to the right neighbour, Ben.",
        ),
        ("Y+2", "drawTwo"): (
            {"count": 2, "side": "left", "sips": sips(2, "drawTwo", 0)},
            "2 sips to the left neighbour, Anna.",
        ),
        ("W+4", "drawFour"): (
            {"count": 4, "sips": sips(4, "drawFour", 1, 0)},
            "4 sips to each neighbour: Ben and Anna.",
        ),
        ("W", "toast"): (
            {"count": 1, "sips": sips(1, "toast", 0, 1, 2)},
            "A toast: everyone drinks 1 sip.",
        ),
        ("R0", "category"): ({"everyone": True}, "names a category"),
        ("B6", "waterfall"): ({"everyone": True}, "Waterfall!"),
        ("G7", "peeCard"): ({"everyone": False}, "Cara gets a pee card."),
        ("Y8", "rule"): ({"everyone": False}, "Cara makes a rule"),
        ("R9", "finger"): ({"everyone": False}, "Finger game"),
        ("GS", "skip"): ({"skipped": 0}, "Anna is skipped."),
        ("BR", "reverse"): ({"direction": -1}, "Play changes direction."),
        ("B4", "drink"): ({"count": 4, "sips": sips(4, "drink", 2)}, "Cara drinks 4 sips."),
    }
    for (card, action), (said, text) in words.items():
        last = {"seat": 2, "card": card, "action": action, "count": 0, "sips": [], **said}
        render(page, bottle_view(top=card, lastAction=last))
        expect(page.get_by_test_id("bottle-last-action")).to_have_attribute("data-action", action)
        expect(page.get_by_test_id("bottle-last-action")).to_contain_text(text)

    # Not this seat's turn: the button does nothing; a spectator has no button at all.
    render(page, bottle_view(turn=1, legal=[], direction=-1), lang="da")
    expect(page.get_by_test_id("bottle-turn")).to_have_attribute("data-enabled", "false")
    expect(page.get_by_test_id("bottle-turn")).to_have_text("Ben vender næste kort")
    expect(page.get_by_test_id("direction")).to_have_attribute("data-direction", "-1")
    page.get_by_test_id("bottle-turn").click(force=True)
    assert sent(page) == []
    render(page, bottle_view(you=None, legal=[]))
    expect(page.get_by_test_id("bottle-turn")).to_have_count(0)
    expect(page.get_by_test_id("spectating")).to_be_visible()
    # The end of a round.
    render(page, bottle_view(phase="dealOver", drawPile=0, legal=[{"type": "nextDeal"}]))
    page.get_by_test_id("next-deal").click()
    assert sent(page) == [{"type": "nextDeal"}]
