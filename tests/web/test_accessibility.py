"""axe-core (the npm package's build, kept in tests/web/vendor, loaded into the page) on
the lobby, the table and the scoreboard, in English, Danish and Icelandic, desktop and
phone, and on the account, profile and leaderboard pages in every language: no serious or
critical violations."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect
from web_helpers import create_room, join_from_list

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}

SUMMARY = """
async () => {
  const table = await import('/js/table.js');
  const players = [
    { seat: 0, name: 'Anna', cards: 0, score: 57, connected: true },
    { seat: 1, name: 'Ben', cards: 3, score: 0, connected: true },
  ];
  const view = {
    you: 0, hand: [], players, top: 'R3', color: 'R', turn: 0, direction: 1, drawPile: 40,
    pendingDraw: 0, phase: 'dealOver', rules: { preset: 'classic' }, legal: [{ type: 'nextDeal' }],
    deal: 2, winner: 0, dealScores: [57, 0], totals: [87, 0], reveal: [[], ['G7', 'B+2', 'W']],
    unoCalled: [],
    room: { hostSeat: 0, ready: [], deals: [
      { deal: 1, winner: 0, scores: [30, 0], totals: [30, 0] },
      { deal: 2, winner: 0, scores: [57, 0], totals: [87, 0] } ] },
    moves: 40, seq: 80,
  };
  const ctx = { name: (s) => players[s].name, send: () => {}, playCard: () => {},
                log: [], you: 0, isHost: true };
  document.getElementById('main').replaceChildren(table.renderTable(view, ctx));
}
"""


VENDOR = Path(__file__).parent / "vendor"


def test_the_vendored_axe_is_the_one_its_readme_names():
    named = re.search(r"sha256 `([0-9a-f]{64})`", (VENDOR / "README.md").read_text())
    assert named is not None
    assert hashlib.sha256((VENDOR / "axe.min.js").read_bytes()).hexdigest() == named[1]
    assert (VENDOR / "LICENSE").read_text().startswith("Mozilla Public License")


def _clean(violations):
    return "\n".join(f"{v['impact']} {v['id']}: {v['help']} {v['nodes']}" for v in violations)


@pytest.mark.parametrize(("lang", "device"), [("en", {}), ("da", PHONE), ("is", {})])
def test_lobby_table_and_scoreboard_have_no_serious_violations(
    new_page, server_url, axe, lang, device
):
    anna, ben = new_page(lang=lang, **device), new_page(lang=lang)
    anna.goto(f"{server_url}/#/")
    expect(anna.get_by_test_id("preset")).to_be_visible()
    found = axe(anna)
    assert not found, "lobby:\n" + _clean(found)

    room_id, _ = create_room(anna, server_url, "Anna", seats=2)
    join_from_list(ben, server_url, "Ben", room_id)
    expect(anna.locator(".seat:not(.empty)")).to_have_count(2)
    found = axe(anna)
    assert not found, "waiting room:\n" + _clean(found)

    anna.get_by_test_id("start").click()
    expect(anna.get_by_test_id("turn-indicator")).to_be_visible()
    found = axe(anna)
    assert not found, "table:\n" + _clean(found)

    anna.evaluate(SUMMARY)
    expect(anna.get_by_test_id("summary").get_by_test_id("match-scoreboard")).to_be_visible()
    found = axe(anna)
    assert not found, "scoreboard:\n" + _clean(found)


@pytest.mark.parametrize(
    "path", ["account.html", "player.html?name=nobody_here", "leaderboard.html"]
)
def test_the_account_pages_have_no_serious_violations_in_any_language(
    new_page, server_url, axe, path
):
    page = new_page(**PHONE)
    page.goto(f"{server_url}/{path}")
    expect(page.locator("main")).not_to_be_empty()
    for lang in page.get_by_test_id("language").evaluate("s => [...s.options].map((o) => o.value)"):
        page.get_by_test_id("language").select_option(lang)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        found = axe(page)
        assert not found, f"{path} in {lang}:\n" + _clean(found)
