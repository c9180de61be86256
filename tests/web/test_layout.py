"""The table's layout at the viewports people play on, the invitation and the rules editor.

A laptop (1280 x 800) and a phone (390 x 844): what a player needs on their turn is on the
screen together without scrolling; someone opening an invitation sits down at the top; the
rules editor keeps the common house rules first and its save button in reach; the summary
of the rules says how the match really ends.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from web_helpers import create_room, my_turn, phase, show_rule, take_turn

pytestmark = pytest.mark.browser

LAPTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}

BOX = """(el) => { const r = el.getBoundingClientRect();
  return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height }; }"""


def boxes(page: Page, selector: str) -> list[dict[str, float]]:
    return page.locator(selector).evaluate_all(f"els => els.map({BOX})")


def box(page: Page, selector: str) -> dict[str, float]:
    found = boxes(page, selector)
    assert found, f"nothing matches {selector}"
    return found[0]


def on_screen(b: dict[str, float], width: int, height: int) -> bool:
    return b["top"] >= 0 and b["bottom"] <= height and b["left"] >= 0 and b["right"] <= width


def bot_table(page: Page, base: str, seats: int = 4, options: dict | None = None) -> None:
    """Anna's room with ``seats - 1`` bots, started; returns once it is Anna's turn."""
    create_room(page, base, "Anna", seats=seats, options=options)
    for n in range(2, seats + 1):
        page.get_by_test_id("add-bot").click()
        expect(page.locator(".seat:not(.empty)")).to_have_count(n)
    page.get_by_test_id("start").click()
    turn = page.get_by_test_id("turn-indicator")
    expect(turn).to_have_attribute("data-mine", "true", timeout=30_000)
    page.wait_for_timeout(400)  # the page settles (motion, the log's history)


def test_laptop_table_shows_opponents_pile_and_hand_in_one_screen(new_page, server_url, shot):
    page = new_page(**LAPTOP)
    bot_table(page, server_url, seats=4)
    assert page.evaluate("window.scrollY") == 0
    expect(page.get_by_test_id("player")).to_have_count(3)
    for b in boxes(page, "[data-testid=player]"):
        assert on_screen(b, 1280, 800), b
    for testid in ("top-card", "draw", "turn-indicator", "direction", "pass", "uno"):
        assert on_screen(box(page, f"[data-testid={testid}]"), 1280, 800), testid
    expect(page.get_by_test_id("turn-indicator")).to_have_text("Your turn")
    # The whole first row of the hand.
    cards = boxes(page, "[data-testid=hand] [data-testid=card]")
    first_row = [c for c in cards if abs(c["top"] - cards[0]["top"]) < 20]
    assert len(first_row) >= 7
    assert all(on_screen(c, 1280, 800) for c in first_row), first_row
    # No band between the pile and the hand: the chat and log column does not stretch
    # the rows.
    above = max(box(page, ".center")["bottom"], box(page, ".prompts")["bottom"])
    assert box(page, ".me")["top"] - above <= 40
    # The chat and log scroll in their own box, which stays within the screen.
    side = box(page, ".table > .side")
    assert side["bottom"] <= 800
    assert page.locator(".table > .side").evaluate("el => getComputedStyle(el).overflowY") == "auto"
    assert page.locator(".log-list").evaluate("el => getComputedStyle(el).overflowY") == "auto"
    shot(page, "70-laptop-table-4-players", full_page=False)


def test_phone_table_has_one_row_top_bar_and_the_hand_pinned(new_page, server_url, shot):
    page = new_page(**PHONE)
    bot_table(page, server_url, seats=4)
    # One row: brand, code, connection and the menu; the tools wait in the menu.
    assert box(page, ".topbar")["height"] <= 60
    for testid in ("room-code", "connection", "menu"):
        assert on_screen(box(page, f"[data-testid={testid}]"), 390, 844), testid
    for testid in ("sound", "language", "nav-tournaments"):
        expect(page.get_by_test_id(testid)).to_be_hidden()
    # The turn: top card, whose turn it is and the playable cards together, no scrolling.
    assert page.evaluate("window.scrollY") == 0
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    expect(page.get_by_test_id("turn-indicator")).to_have_text("Your turn")
    for testid in ("top-card", "turn-indicator", "draw", "pass", "uno"):
        assert on_screen(box(page, f"[data-testid={testid}]"), 390, 844), testid
    playable = boxes(page, '[data-testid=hand] [data-testid=card][data-playable="true"]')
    cards = boxes(page, "[data-testid=hand] [data-testid=card]")
    assert len(cards) >= 7
    for b in playable:
        assert on_screen(b, 390, 844), b
    # One row pinned to the bottom edge, which scrolls sideways when it is long.
    assert len({round(c["top"] + (6 if c in playable else 0)) for c in cards}) == 1
    assert box(page, "[data-testid=dock]")["bottom"] == pytest.approx(844, abs=1)
    overflow = page.get_by_test_id("hand").evaluate("el => getComputedStyle(el).overflowX")
    assert overflow == "auto"
    shot(page, "71-phone-table-4-players", full_page=False)
    # Reading the log further down keeps the felt and the hand on the screen.
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    assert page.evaluate("window.scrollY") > 100
    for selector in ("[data-testid=top-card]", "[data-testid=turn-indicator]", ".dock .hand"):
        assert on_screen(box(page, selector), 390, 844), selector
    page.evaluate("window.scrollTo(0, 0)")
    # The menu opens under its button, with the sound, notifications and language.
    page.get_by_test_id("menu").click()
    expect(page.get_by_test_id("menu")).to_have_attribute("aria-expanded", "true")
    for testid in ("sound", "language", "nav-tournaments"):
        expect(page.get_by_test_id(testid)).to_be_visible()
        assert on_screen(box(page, f"[data-testid={testid}]"), 390, 844), testid
    shot(page, "72-phone-menu", full_page=False)
    page.keyboard.press("Escape")
    expect(page.get_by_test_id("sound")).to_be_hidden()


def test_invitation_seats_the_guest_first_and_shares_for_the_host(new_page, server_url, shot):
    anna = new_page(**LAPTOP)
    create_room(anna, server_url, "Anna", seats=4, options={"stacking": True, "roundLimit": 3})
    link = anna.get_by_test_id("share-link").get_attribute("href")
    assert link
    expect(anna.get_by_test_id("qr")).to_be_visible()
    expect(anna.get_by_test_id("copy-link")).to_be_visible()
    shot(anna, "73-host-waiting-room", full_page=False)

    for device, (width, height) in ((PHONE, (390, 844)), (LAPTOP, (1280, 800))):
        guest = new_page(**device)
        guest.goto(link)
        heading = guest.locator("#waiting-h")
        expect(heading).to_have_text("Join Anna's table")
        expect(guest.get_by_test_id("join")).to_have_text("Take a seat")
        assert guest.evaluate("window.scrollY") == 0
        for selector in ("#waiting-h", "#seat-name", "[data-testid=join]"):
            assert on_screen(box(guest, selector), width, height), selector
        # No share text, link or QR code for the guest.
        for testid in ("share-link", "share-code", "qr", "copy-link"):
            expect(guest.get_by_test_id(testid)).to_have_count(0)
        # The rules: what differs from the preset, the whole list folded.
        summary = guest.get_by_test_id("rules-summary")
        expect(summary).to_contain_text("Rules: Classic")
        changed = guest.get_by_test_id("rules-changed")
        expect(changed).to_contain_text("Changed from the preset (2):")
        expect(changed.locator("dt")).to_have_text(["Stacking", "Deal limit"])
        expect(guest.get_by_test_id("rules-match-end")).to_have_text(
            "Play to 500 points or 3 deals, whichever comes first; the highest total wins."
        )
        everything = guest.get_by_test_id("rules-all")
        expect(everything).not_to_have_attribute("open", "")
        expect(everything.locator("dl")).to_be_hidden()
        if device is PHONE:
            shot(guest, "74-phone-invitation", full_page=False)
        everything.locator("summary").click()
        expect(everything.locator("dt").first).to_be_visible()
        assert everything.locator("dt").count() > 20
    # Taking the seat from the top of the invitation.
    guest.locator("#seat-name").fill("Ben")
    guest.get_by_test_id("join").click()
    expect(anna.locator(".seat:not(.empty)")).to_have_count(2)


def test_rules_editor_puts_house_rules_first_and_keeps_save_in_reach(new_page, server_url, shot):
    page = new_page(**LAPTOP)
    create_room(page, server_url, "Anna", seats=3)
    settings = page.get_by_test_id("settings")
    common = settings.get_by_test_id("common-rules")
    expect(common.locator("legend")).to_have_text("Common house rules")
    expect(common.locator(".rule label")).to_have_text(
        [
            "Stacking",
            "Jump-in",
            "Seven-zero",
            "Draw to match",
            "Forced play",
            "Deal limit",
            "Target score",
        ]
    )
    more = settings.get_by_test_id("rules-editor")
    expect(more.locator("summary")).to_contain_text("More rules")
    expect(more).not_to_have_attribute("open", "")
    # Save is on the screen wherever the host is in the options.
    save = page.get_by_test_id("save-rules")
    common.scroll_into_view_if_needed()
    assert on_screen(box(page, "[data-testid=save-rules]"), 1280, 800)
    for option in ("unoPenalty", "wildValue", "drinks"):
        show_rule(page, option).scroll_into_view_if_needed()
        assert on_screen(box(page, "[data-testid=save-rules]"), 1280, 800), option
    shot(page, "75-rules-editor", full_page=False)
    # One deal: the editor and the summary say so, not "500 points".
    page.locator("#rule-roundLimit").fill("1")
    page.locator("#rule-roundLimit").dispatch_event("change")
    expect(settings.get_by_test_id("rules-match-end")).to_have_text(
        "The match ends after one deal; the highest total wins."
    )
    save.click()
    expect(page.get_by_test_id("toast")).to_have_attribute("data-code", "saved")
    summary = page.get_by_test_id("rules-summary")
    expect(summary.get_by_test_id("rules-match-end")).to_have_text(
        "The match ends after one deal; the highest total wins."
    )
    # What it says on top (the full list still names the unused target's value).
    expect(summary.locator(".rules-head")).not_to_contain_text("500")
    expect(summary.locator(".hint")).to_have_count(0)


def test_the_summary_reads_the_options_that_end_the_match(new_page, server_url):
    page = new_page()
    page.goto(f"{server_url}/#/")
    said = page.evaluate(
        """async () => {
          const { matchEnd } = await import('/js/rules.js');
          return [
            matchEnd({ matchMode: 'points', targetScore: 500, roundLimit: 0 }),
            matchEnd({ matchMode: 'points', targetScore: 300, roundLimit: 0,
                       scoringMode: 'ownHandCounts' }),
            matchEnd({ matchMode: 'oneAndDone', targetScore: 500, roundLimit: 4 }),
            matchEnd({ matchMode: 'knockout', targetScore: 200, roundLimit: 1 }),
            matchEnd({ matchMode: 'points', targetScore: 500, roundLimit: 0, blitzSeconds: 300 }),
          ];
        }"""
    )
    assert said == [
        "Play to 500 points; the highest total wins.",
        "Play to 300 points; the lowest total wins.",
        "One deal: the first player out wins the match.",
        "Knockout: a total of 200 points or more is out; the last player left wins.",
        "Play to 500 points; the highest total wins. Each player has 5 min on the match"
        " clock; the match ends when one runs out.",
    ]


def test_next_deal_scrolls_back_to_the_new_top_card(new_page, server_url, shot):
    page = new_page(**PHONE)
    bot_table(page, server_url, seats=2, options={"roundLimit": 3})
    moves = 0
    while phase(page) != "dealOver":
        assert moves < 400, "the deal did not end"
        if my_turn(page) and phase(page) in ("playing", "chooseColor"):
            take_turn(page)
            moves += 1
        else:
            page.wait_for_timeout(100)
    # The deal's end: the summary heads the page, "Next deal" on the first screen with
    # nothing over it (the felt folded away, the dock no longer pinned over the page).
    next_deal = page.get_by_test_id("next-deal")
    expect(next_deal).to_be_visible()
    page.wait_for_function("() => window.scrollY === 0")
    assert on_screen(box(page, "[data-testid=next-deal]"), 390, 844)
    assert next_deal.evaluate(
        """(el) => { const r = el.getBoundingClientRect();
          const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
          return el.contains(hit); }"""
    )
    expect(page.locator(".table > .center")).to_be_hidden()
    shot(page, "76-phone-deal-end", full_page=False)
    # Reading the scoreboard leaves the page scrolled down.
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    assert page.evaluate("window.scrollY") > 0
    page.get_by_test_id("next-deal").click()
    expect(page.get_by_test_id("summary")).to_have_count(0)
    expect(page.get_by_test_id("top-card")).to_be_visible()
    page.wait_for_function(
        """() => {
          const r = document.querySelector('[data-testid=top-card]').getBoundingClientRect();
          return r.top >= 0 && r.bottom <= window.innerHeight;
        }"""
    )
    assert on_screen(box(page, "[data-testid=turn-indicator]"), 390, 844)
    shot(page, "76-phone-next-deal", full_page=False)
