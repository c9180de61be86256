"""The client's modules in a real Chromium, fed crafted views.

A real deal rarely deals a Wild Draw Four challenge, a jump-in or a missed UNO call on
demand, so the table's handling of each is checked here by rendering ``renderTable`` on a
view of that situation (the shapes are the server's: ``engine.view_for`` plus the app's
``name``/``connected``). The pages load the modules from the real server; no server
behaviour is imitated.
"""

from __future__ import annotations

import json
import random
import re

import pytest
from playwright.sync_api import expect
from web_helpers import open_settled_lobby

import engine
from app.rooms.diff import diff

pytestmark = pytest.mark.browser

# Renders a view into a fresh container and records what the table sends.
HARNESS = """
async ([view, lang]) => {
  const i18n = await import('/js/i18n.js');
  i18n.setLanguage(lang);
  const table = await import('/js/table.js');
  window.__sent = [];
  const ctx = {
    name: (seat) => (view.players.find((p) => p.seat === seat) || {}).name || `#${seat}`,
    send: (action) => window.__sent.push(action),
    playCard: (code) => window.__sent.push({ plan: table.planPlay(view, code) }),
    log: [{ type: 'play', seat: 1, cards: ['W+4'], color: 'R' }],
    you: view.you,
    isHost: true,
  };
  const main = document.getElementById('main');
  main.replaceChildren(table.renderTable(view, ctx));
}
"""


def base_view(**changes):
    view = {
        "you": 0,
        "hand": ["R5", "G7", "W", "B+2"],
        "players": [
            {"seat": 0, "name": "Anna", "cards": 4, "score": 0, "out": False, "connected": True},
            {"seat": 1, "name": "Ben", "cards": 1, "score": 30, "out": False, "connected": True},
            {"seat": 2, "name": "Cara", "cards": 6, "score": 0, "out": False, "connected": False},
        ],
        "top": "R3",
        "color": "R",
        "turn": 0,
        "direction": 1,
        "drawPile": 70,
        "pendingDraw": 0,
        "phase": "playing",
        "rules": {"preset": "classic", "sevenZero": False},
        "legal": [
            {"type": "play", "cards": ["R5"]},
            {"type": "play", "cards": ["W"], "needs": ["color"], "colors": list("RGBY")},
            {"type": "draw"},
        ],
        "deal": 1,
        "dealer": 2,
        "drawn": None,
        "unoExposed": None,
        "unoCalled": [1],
        "dealScores": None,
        "totals": [0, 30, 0],
        "winner": None,
        "matchOver": False,
        "reveal": None,
        "moves": 12,
        "seq": 40,
    }
    view.update(changes)
    return view


@pytest.fixture
def page(new_page, server_url):
    page = new_page()
    return open_settled_lobby(page, server_url)


def render(page, view, lang="en"):
    page.evaluate(HARNESS, [view, lang])


def card(page, code):
    return page.locator(f'[data-testid=card][data-card="{code}"]')


def sent(page):
    return page.evaluate("window.__sent")


def test_hand_highlights_exactly_the_legal_cards(page, shot):
    render(page, base_view())
    cards = page.get_by_test_id("hand").get_by_test_id("card")
    expect(cards).to_have_count(4)
    playable = page.locator('[data-testid=card][data-playable="true"]')
    assert playable.evaluate_all("els => els.map(e => e.dataset.card)") == ["R5", "W"]
    expect(page.get_by_test_id("turn-indicator")).to_have_text("Your turn")
    expect(page.get_by_test_id("top-card")).to_have_attribute("data-card", "R3")
    # Opponents: counts and connection state.
    cara = page.locator('[data-testid=player][data-seat="2"]')
    expect(cara).to_contain_text("6 cards")
    expect(cara.locator(".dot")).to_have_attribute("aria-label", "offline")
    shot(page, "10-component-table")


def test_wild_asks_for_a_colour_and_others_play_directly(page):
    render(page, base_view())
    card(page, "W").click()
    card(page, "R5").click()
    plans = [s["plan"] for s in sent(page)]
    assert plans[0] == {
        "action": {"type": "play", "cards": ["W"]},
        "needs": "color",
        "colors": list("RGBY"),
    }
    assert plans[1] == {"action": {"type": "play", "cards": ["R5"]}, "needs": None}


def test_colour_picker_offers_four_colours(page):
    page.evaluate(
        """async () => {
            const { pickColor } = await import('/js/pickers.js');
            window.__picked = null;
            pickColor('W+4', (c) => { window.__picked = c; });
        }"""
    )
    dialog = page.locator("dialog.picker")
    expect(dialog).to_be_visible()
    for color in "RGBY":
        expect(dialog.get_by_test_id(f"color-{color}")).to_be_visible()
    dialog.get_by_test_id("color-B").click()
    expect(dialog).to_have_count(0)
    assert page.evaluate("window.__picked") == "B"


def test_seven_under_seven_zero_asks_whom_to_swap_with(page):
    view = base_view(
        hand=["R7", "G2"],
        rules={"preset": "house", "sevenZero": True},
        legal=[
            {"type": "play", "cards": ["R7"], "needs": ["target"], "targets": [1, 2]},
            {"type": "draw"},
        ],
    )
    render(page, view)
    card(page, "R7").click()
    assert sent(page)[0]["plan"]["needs"] == "target"
    assert sent(page)[0]["plan"]["targets"] == [1, 2]
    page.evaluate(
        """async (players) => {
            const { pickTarget } = await import('/js/pickers.js');
            window.__target = null;
            pickTarget(players, (s) => players[s - 1].name, (s) => { window.__target = s; });
        }""",
        view["players"][1:],
    )
    dialog = page.locator("dialog.picker")
    expect(dialog.get_by_test_id("target-1")).to_contain_text("Ben")
    dialog.get_by_test_id("target-2").click()
    assert page.evaluate("window.__target") == 2


def test_a_warszawa_seven_as_the_last_card_asks_whom_to_swap_with(page):
    # The table asks what `legal` says the play needs, whatever the hand holds.
    view = base_view(
        hand=["R7"],
        rules={"preset": "warszawa", "sevenSwap": True, "swapOnLastCard": True},
        legal=[
            {"type": "play", "cards": ["R7"], "needs": ["target"], "targets": [2]},
            {"type": "draw"},
        ],
    )
    render(page, view)
    card(page, "R7").click()
    plan = sent(page)[0]["plan"]
    assert (plan["needs"], plan["targets"]) == ("target", [2])


def test_wild_draw_four_prompt_offers_challenge_or_taking_the_cards(page, shot):
    view = base_view(
        top="W+4",
        color="G",
        pendingDraw=4,
        legal=[{"type": "draw"}, {"type": "challenge"}],
    )
    render(page, view)
    prompt = page.get_by_test_id("challenge-prompt")
    expect(prompt).to_contain_text("challenge it, or take 4")
    expect(page.get_by_test_id("draw")).to_contain_text("Take 4")
    expect(page.get_by_test_id("pending-draw")).to_have_text("Penalty +4")
    shot(page, "11-component-challenge")
    page.get_by_test_id("challenge").click()
    assert sent(page) == [{"type": "challenge"}]


def test_jump_in_is_offered_out_of_turn_with_the_seen_move_count(page):
    view = base_view(
        turn=1,
        top="G7",
        color="G",
        legal=[{"type": "play", "cards": ["G7"]}],
    )
    render(page, view)
    expect(page.get_by_test_id("jump-in-hint")).to_be_visible()
    expect(card(page, "G7")).to_have_attribute("data-playable", "true")
    card(page, "G7").click()
    plan = sent(page)[0]["plan"]
    assert plan["action"] == {"type": "play", "cards": ["G7"], "at": 12}


def test_uno_and_catch_buttons_follow_legal(page):
    view = base_view(
        turn=2,
        unoExposed=1,
        unoCalled=[],
        legal=[{"type": "catchUno", "target": 1}],
    )
    render(page, view)
    catch = page.get_by_test_id("catch")
    expect(catch).to_have_text("Catch Ben")
    catch.click()
    assert sent(page) == [{"type": "catchUno", "target": 1, "at": 12}]
    expect(page.get_by_test_id("uno")).to_have_attribute("data-enabled", "false")
    render(page, base_view(hand=["R5", "G7"], legal=[{"type": "callUno"}, {"type": "draw"}]))
    expect(page.get_by_test_id("uno")).to_have_attribute("data-enabled", "true")
    page.get_by_test_id("uno").click()
    assert sent(page) == [{"type": "callUno"}]


def test_first_card_wild_asks_the_first_player_for_a_colour(page):
    legal = [{"type": "chooseColor", "color": c} for c in "RGBY"]
    render(page, base_view(phase="chooseColor", top="W", color=None, legal=legal))
    page.locator(".prompt").get_by_test_id("color-Y").click()
    assert sent(page) == [{"type": "chooseColor", "color": "Y"}]


def test_deal_summary_reveals_hands_and_points(page, shot):
    view = base_view(
        phase="dealOver",
        winner=1,
        dealScores=[0, 57, 0],
        totals=[0, 87, 0],
        reveal=[["R5", "W"], [], ["G7", "B+2", "Y9"]],
        legal=[{"type": "nextDeal"}],
    )
    render(page, view)
    board = page.get_by_test_id("scoreboard")
    expect(board.locator("tbody tr")).to_have_count(3)
    assert board.get_by_test_id("deal-score").all_inner_texts() == ["0", "57", "0"]
    assert board.get_by_test_id("total").all_inner_texts() == ["0", "87", "0"]
    expect(board.locator('tr[data-seat="2"] .card')).to_have_count(3)
    expect(page.get_by_test_id("summary")).to_contain_text("Ben went out")
    shot(page, "12-component-summary")
    page.get_by_test_id("next-deal").click()
    assert sent(page) == [{"type": "nextDeal"}]


def test_spectators_see_no_hand(page):
    render(page, base_view(you=None, hand=[], legal=[]))
    expect(page.get_by_test_id("hand")).to_have_count(0)
    expect(page.get_by_test_id("spectating")).to_be_visible()
    expect(page.locator("[data-testid=player]")).to_have_count(3)


def test_placings_and_blitz_show_each_seats_place_and_match_clock(page):
    players = [
        {**p, "blitz": ms}
        for p, ms in zip(base_view()["players"], [95_000, 61_000, 0], strict=True)
    ]
    players[1] = {**players[1], "out": True, "place": 1, "cards": 0}
    render(page, base_view(players=players))
    ben, cara = (page.locator(f"[data-testid=player][data-seat='{s}']") for s in (1, 2))
    expect(ben.get_by_test_id("place")).to_have_text("1. place")
    expect(cara.get_by_test_id("place")).to_have_count(0)
    expect(ben.get_by_test_id("blitz")).to_have_text("\u23f1 1:01")
    expect(cara.get_by_test_id("blitz")).to_have_text("\u23f1 0:00")
    render(page, base_view(players=players), lang="da")
    expect(ben.get_by_test_id("place")).to_have_text("1. plads")


def test_danish_table(page, shot):
    render(page, base_view(direction=-1), lang="da")
    expect(page.get_by_test_id("turn-indicator")).to_have_text("Din tur")
    expect(page.get_by_test_id("direction")).to_contain_text("mod uret")
    expect(card(page, "W")).to_have_attribute("aria-label", "Skift farve, kan lægges")
    expect(page.get_by_test_id("log")).to_contain_text(
        "Ben lagde Skift farve, træk fire og valgte rød"
    )
    shot(page, "14-component-da")


def test_every_card_code_draws_with_a_name(page):
    names = page.evaluate(
        """async () => {
            const { cardFace } = await import('/js/cards.js');
            const codes = [];
            const ranks = [...'0123456789', 'S', 'R', '+2'];
            for (const c of 'RGBY') for (const r of ranks) codes.push(c + r);
            codes.push('W', 'W+4', 'W+8', 'A+2', 'WSH', 'WC', 'R7|T+5');
            return codes.map((code) => [code, cardFace(code).getAttribute('aria-label')]);
        }"""
    )
    labels = dict(names)
    assert labels["R7"] == "Red 7"
    assert labels["GS"] == "Green Skip"
    assert labels["B+2"] == "Blue Draw Two"
    assert labels["YR"] == "Yellow Reverse"
    assert labels["W+4"] == "Wild Draw Four"
    assert labels["R7|T+5"] == "Red 7"
    assert all(label and "." not in label for label in labels.values()), labels


# RFC 6902 appendix A, plus pointer escaping (RFC 6901) and atomicity.
PATCH_CASES = [
    ({"foo": "bar"}, [{"op": "add", "path": "/baz", "value": "qux"}], {"foo": "bar", "baz": "qux"}),
    (
        {"foo": ["bar", "baz"]},
        [{"op": "add", "path": "/foo/1", "value": "qux"}],
        {"foo": ["bar", "qux", "baz"]},
    ),
    ({"baz": "qux", "foo": "bar"}, [{"op": "remove", "path": "/baz"}], {"foo": "bar"}),
    ({"foo": ["bar", "qux", "baz"]}, [{"op": "remove", "path": "/foo/1"}], {"foo": ["bar", "baz"]}),
    (
        {"baz": "qux", "foo": "bar"},
        [{"op": "replace", "path": "/baz", "value": "boo"}],
        {"baz": "boo", "foo": "bar"},
    ),
    (
        {"foo": {"bar": "baz", "waldo": "fred"}, "qux": {"corge": "grault"}},
        [{"op": "move", "from": "/foo/waldo", "path": "/qux/thud"}],
        {"foo": {"bar": "baz"}, "qux": {"corge": "grault", "thud": "fred"}},
    ),
    (
        {"foo": ["all", "grass", "cows", "eat"]},
        [{"op": "move", "from": "/foo/1", "path": "/foo/3"}],
        {"foo": ["all", "cows", "eat", "grass"]},
    ),
    (
        {"baz": "qux", "foo": ["a", 2, "c"]},
        [
            {"op": "test", "path": "/baz", "value": "qux"},
            {"op": "test", "path": "/foo/1", "value": 2},
        ],
        {"baz": "qux", "foo": ["a", 2, "c"]},
    ),
    (
        {"foo": "bar"},
        [{"op": "add", "path": "/child", "value": {"grandchild": {}}}],
        {"foo": "bar", "child": {"grandchild": {}}},
    ),
    (
        {"foo": ["bar"]},
        [{"op": "add", "path": "/foo/-", "value": ["abc", "def"]}],
        {"foo": ["bar", ["abc", "def"]]},
    ),
    ({"foo": None}, [{"op": "test", "path": "/foo", "value": None}], {"foo": None}),
    ({"/": 9, "~1": 10}, [{"op": "test", "path": "/~01", "value": 10}], {"/": 9, "~1": 10}),
    (
        {"a/b": 1, "m~n": 2},
        [{"op": "replace", "path": "/a~1b", "value": 3}, {"op": "remove", "path": "/m~0n"}],
        {"a/b": 3},
    ),
    ({"x": 1}, [{"op": "copy", "from": "/x", "path": "/y"}], {"x": 1, "y": 1}),
    ({"x": 1}, [{"op": "replace", "path": "", "value": [1, 2]}], [1, 2]),
    (
        {"hand": ["R1", "G2"], "n": 2},
        [
            {"op": "add", "path": "/hand/2", "value": "W"},
            {"op": "replace", "path": "/n", "value": 3},
        ],
        {"hand": ["R1", "G2", "W"], "n": 3},
    ),
]

# (fast-json-patch reads an array index with a leading zero, "/a/01", as 1: the server
# writes every index without one.)
PATCH_ERRORS = [
    ({"foo": "bar"}, [{"op": "add", "path": "/baz/bat", "value": "qux"}]),
    ({"baz": "qux"}, [{"op": "test", "path": "/baz", "value": "bar"}]),
    ({"foo": 1}, [{"op": "replace", "path": "/nope", "value": 2}]),
    ({"a": [1]}, [{"op": "remove", "path": "/a/1"}]),
    ({"a": {"b": 1}}, [{"op": "move", "from": "/a", "path": "/a/b/c"}]),
    ({"a": 1}, [{"op": "frobnicate", "path": "/a"}]),
    # Atomic: the first operation must not survive the second's failure.
    ({"a": 1}, [{"op": "replace", "path": "/a", "value": 2}, {"op": "remove", "path": "/zz"}]),
]


def test_json_patch_applier_follows_rfc_6902(page):
    results = page.evaluate(
        """async ([cases, errors]) => {
            const { applyPatch } = await import('uno-client');
            const ok = cases.map(([doc, ops]) => {
                const before = JSON.stringify(doc);
                const out = applyPatch(doc, ops);
                return [out, JSON.stringify(doc) === before];
            });
            const bad = errors.map(([doc, ops]) => {
                const before = JSON.stringify(doc);
                try { applyPatch(doc, ops); return 'applied'; }
                catch (e) { return JSON.stringify(doc) === before ? e.name : 'mutated'; }
            });
            return [ok, bad];
        }""",
        [[[d, o] for d, o, _ in PATCH_CASES], [list(c) for c in PATCH_ERRORS]],
    )
    ok, bad = results
    for (_doc, ops, expected), (out, untouched) in zip(PATCH_CASES, ok, strict=True):
        assert out == expected, json.dumps(ops)
        assert untouched, f"the input document was changed by {ops}"
    assert bad == ["PatchError"] * len(PATCH_ERRORS), bad


def test_json_patch_applier_follows_the_servers_patches_of_a_game(page):
    # The server's diff replaces single entries below the top (/players/2/cards): the
    # browser's applier must take each patch of a real game to the next view.
    rng = random.Random(5)
    state, _ = engine.new_match(engine.rules_from_json({}), 4, "browser")
    old = engine.view_for(state, 0)
    steps = []
    while state.phase == "playing" and len(steps) < 60:
        state, _ = engine.apply(
            state, state.turn, rng.choice(engine.legal_actions(state, state.turn))
        )
        new = engine.view_for(state, 0)
        steps.append([old, diff(old, new), new])
        old = new
    assert any(op["path"].count("/") == 3 for _, ops, _ in steps for op in ops)
    results = page.evaluate(
        """async (steps) => {
            const { applyPatch } = await import('uno-client');
            const same = (a, b) => {
                const leaf = (x) => x === null || typeof x !== 'object';
                if (leaf(a) || leaf(b)) return a === b;
                if (Array.isArray(a) !== Array.isArray(b)) return false;
                const ka = Object.keys(a), kb = Object.keys(b);
                return ka.length === kb.length && ka.every((k) => k in b && same(a[k], b[k]));
            };
            return steps.map(([before, ops, after]) => same(applyPatch(before, ops), after));
        }""",
        steps,
    )
    assert results == [True] * len(steps)


def test_multi_play_offers_the_cards_that_may_go_along(page):
    view = base_view(
        hand=["R5", "G5", "Y5", "B2"],
        rules={"preset": "druk", "multiPlay": True},
        legal=[
            {"type": "play", "cards": ["R5"]},
            {"type": "play", "cards": ["R5", "G5", "Y5"]},
            {"type": "draw"},
        ],
    )
    render(page, view)
    card(page, "R5").click()
    plan = sent(page)[0]["plan"]
    assert plan["needs"] == "companions" and plan["companions"] == ["G5", "Y5"]
    page.evaluate(
        """async () => {
            const { pickCompanions } = await import('/js/pickers.js');
            window.__extra = null;
            pickCompanions('R5', ['G5', 'Y5'], (extra) => { window.__extra = extra; });
        }"""
    )
    dialog = page.locator("dialog.picker")
    dialog.locator('[data-testid=companion][data-card="Y5"]').check()
    dialog.get_by_test_id("play-selected").click()
    assert page.evaluate("window.__extra") == ["Y5"]


def test_companions_are_the_group_plays_legal_lists_not_the_cards_of_a_rank(page):
    # legal lists a group the rank would not make (R5 with a G7) and none for G7 alone,
    # though the hand holds another 7: the table offers what legal says, nothing more.
    view = base_view(
        hand=["R5", "G7", "Y7", "B2"],
        rules={"preset": "druk", "multiPlay": True},
        legal=[
            {"type": "play", "cards": ["R5"]},
            {"type": "play", "cards": ["R5", "G7"]},
            {"type": "play", "cards": ["G7"]},
        ],
    )
    render(page, view)
    card(page, "R5").click()
    card(page, "G7").click()
    plans = [s["plan"] for s in sent(page)]
    assert plans[0]["needs"] == "companions" and plans[0]["companions"] == ["G7"]
    assert plans[1]["needs"] is None


def test_hand_highlights_exactly_the_cards_legal_lists(page):
    # B2 does not match the red 3 on top and R5 does; legal says the opposite.
    view = base_view(legal=[{"type": "play", "cards": ["B2"]}, {"type": "draw"}], hand=["R5", "B2"])
    render(page, view)
    assert card(page, "B2").get_attribute("data-playable") == "true"
    assert card(page, "R5").get_attribute("data-playable") == "false"


def test_challenge_prompt_names_the_penalty_the_view_holds(page):
    view = base_view(
        phase="playing",
        pendingDraw=6,
        legal=[{"type": "challenge"}, {"type": "draw"}],
    )
    render(page, view)
    prompt = page.get_by_test_id("challenge-prompt")
    expect(prompt).to_contain_text("6")
    expect(prompt).not_to_contain_text("4")


def test_draft_and_unknown_variant_actions_get_buttons(page):
    view = base_view(
        phase="draft",
        offer="G4",
        legal=[{"type": "keep"}, {"type": "discard"}, {"type": "turnCard"}],
    )
    render(page, view)
    expect(page.get_by_test_id("draft-prompt").locator(".card")).to_have_attribute(
        "aria-label", "Green 4"
    )
    page.get_by_test_id("discard").click()
    page.get_by_test_id("action-turnCard").click()
    assert sent(page) == [{"type": "discard"}, {"type": "turnCard"}]


def test_every_language_has_every_text(page):
    """Every UI text exists in every language of the catalogue (English, Danish,
    Icelandic; a plural form only where the language's words change with the count), and
    every option has a label in each and help in each but English (the
    server's help is the English one). Options the engine adds later fall back to the
    server's English help and a readable name, so each still gets a label."""
    missing = page.evaluate(
        """async () => {
            const i18n = await import('/js/i18n.js');
            const { STRINGS, OPTION_TEXT, CHOICE_TEXT } = i18n.CATALOGUES;
            const out = [];
            // A plural form ("player.ratedGames.one") is needed only where the language's
            // words differ by count; its base key is needed everywhere.
            const form = /[.](zero|one|two|few|many)$/;
            for (const a of i18n.LANGUAGES) {
                for (const b of i18n.LANGUAGES) {
                    for (const key of Object.keys(STRINGS[a])) {
                        const needed = key.replace(form, '');
                        if (!(needed in STRINGS[b])) out.push(`${b}: ${needed}`);
                    }
                    for (const key of Object.keys(CHOICE_TEXT[a])) {
                        if (!(key in CHOICE_TEXT[b])) out.push(`${b} choice: ${key}`);
                    }
                }
            }
            for (const [name, text] of Object.entries(OPTION_TEXT)) {
                for (const lang of i18n.LANGUAGES) {
                    if (!text[lang]?.[0]) out.push(`${lang} option: ${name}`);
                    const help = text[lang]?.[1];
                    if (lang === 'en' ? help : !help) out.push(`${lang} help: ${name}`);
                }
            }
            const { options } = await (await fetch('/api/rules')).json();
            for (const lang of i18n.LANGUAGES) {
                i18n.setLanguage(lang);
                for (const o of options) {
                    if (!i18n.optionLabel(o.name) || !i18n.optionHelp(o.name, o.help)) {
                        out.push(`${lang} unlabelled option: ${o.name}`);
                    }
                }
            }
            return out;
        }"""
    )
    assert missing == []


def test_counts_and_places_read_in_each_language(page):
    """Plurals by the language's own rules (Intl.PluralRules; Icelandic's 21 is singular),
    places written out, and the quick-play wait in words with and without the server's
    counts."""
    said = page.evaluate(
        """async () => {
            const i18n = await import('/js/i18n.js');
            const { placesText } = await import('/js/accounts/places.js');
            const { waitText } = await import('/js/accounts/play-now.js');
            const out = {};
            for (const lang of i18n.LANGUAGES) {
                i18n.setLanguage(lang);
                out[lang] = [
                    i18n.t('player.ratedGames', { n: 1 }),
                    i18n.t('player.ratedGames', { n: 21 }),
                    placesText({ 2: 1, 1: 3 }),
                    waitText({ waitedSeconds: 6, waiting: 2, fillSeconds: 14 }),
                    waitText({ waitedSeconds: 6 }),
                ];
            }
            i18n.setLanguage('en');
            return out;
        }"""
    )
    assert said["en"] == [
        "1 rated game",
        "21 rated games",
        "1st: 3 times, 2nd: once",
        "2 players waiting; bots fill the table in 14 s",
        "Looking for players… 6 s",
    ]
    assert said["da"][:3] == ["1 ratet spil", "21 ratede spil", "1.: 3 gange, 2.: én gang"]
    assert said["is"][:3] == ["1 metinn leikur", "21 metinn leikur", "1.: 3 sinnum, 2.: 1 sinni"]
    assert said["is"][3] == "2 leikmenn bíða; vélmenni fylla borðið eftir 14 s"


def test_flip_cards_show_the_side_in_play(page):
    view = base_view(
        side="dark",
        hand=["R7|T+5", "B2|WDC"],
        top="G3|P5",
        color="P",
        legal=[
            {"type": "play", "cards": ["B2|WDC"], "needs": ["color"], "colors": list("PTOV")},
            {"type": "draw"},
        ],
    )
    render(page, view)
    expect(page.get_by_test_id("top-card").locator(".card")).to_have_attribute(
        "aria-label", "Pink 5"
    )
    expect(card(page, "R7|T+5")).to_have_attribute("aria-label", "Teal Draw Five")
    card(page, "B2|WDC").click()
    assert sent(page)[0]["plan"]["needs"] == "color"
    page.evaluate(
        """async () => {
            const { pickColor } = await import('/js/pickers.js');
            pickColor('B2|WDC', () => {});
        }"""
    )
    for color in "PTOV":
        expect(page.locator("dialog.picker").get_by_test_id(f"color-{color}")).to_be_visible()


def test_drinking_tally_and_guide(page, shot):
    view = base_view(
        rules={"preset": "druk", "drinks": True, "sipsAsPoints": False},
        drinks=[{"total": 3, "byReason": {"draw": 3}}, {"total": 0, "byReason": {}}, {"total": 5}],
        followColor=True,
    )
    render(page, view)
    expect(page.locator('[data-testid=sips][data-seat="2"]')).to_have_text("5 sips")
    expect(page.locator('[data-testid=sips][data-seat="0"]')).to_have_text("3 sips")
    expect(page.get_by_test_id("follow-color")).to_contain_text("Play red")
    guide = page.get_by_test_id("drinks-guide")
    guide.locator("summary").click()
    # The beverage table is the server's (GET /api/drinks).
    expect(guide.locator('tr[data-beverage="beer"]')).to_contain_text("Beer334.6")
    expect(guide.get_by_test_id("abv-volume")).to_have_text("3.5 cl")  # The rules: 21 % -> 3.5 cl
    guide.get_by_test_id("abv").fill("37")
    expect(guide.get_by_test_id("abv-volume")).to_have_text("2 cl")
    shot(page, "13-component-drinks")


def test_duo_dump_plays_every_card_of_the_colour(page):
    view = base_view(
        hand=["Y3", "G7", "Y9"],
        rules={"preset": "duo", "reverseDumpsColor": True},
        dumpColor="Y",
        # As the server lists them: each card, and the dump of the colour it starts.
        legal=[
            {"type": "play", "cards": ["Y3"]},
            {"type": "play", "cards": ["Y3", "Y9"]},
            {"type": "play", "cards": ["Y9"]},
            {"type": "play", "cards": ["Y9", "Y3"]},
        ],
    )
    render(page, view)
    expect(page.get_by_test_id("dump-color")).to_contain_text("yellow")
    card(page, "Y9").click()
    assert sent(page)[0]["plan"]["action"] == {"type": "play", "cards": ["Y9", "Y3"]}
    # Dumping the whole hand goes out, which needs UNO called with the play.
    render(
        page,
        base_view(
            hand=["Y3", "Y9"],
            dumpColor="Y",
            legal=[
                {"type": "play", "cards": ["Y3"]},
                {"type": "play", "cards": ["Y3", "Y9"], "uno": True},
            ],
        ),
    )
    card(page, "Y3").click()
    assert sent(page)[0]["plan"]["action"] == {"type": "play", "cards": ["Y3", "Y9"], "uno": True}


def test_every_lobby_control_has_a_label(page):
    page.get_by_test_id("rules-editor").locator("summary").click()
    unlabelled = page.evaluate(
        """() => [...document.querySelectorAll('input, select, button')]
            .filter((el) => !(el.labels?.length || el.getAttribute('aria-label')
                || el.getAttribute('aria-labelledby') || el.textContent.trim()))
            .map((el) => el.outerHTML.slice(0, 80))"""
    )
    assert unlabelled == []


def test_picker_closes_on_escape_and_gives_focus_back(page):
    render(page, base_view())
    wild = card(page, "W")
    wild.focus()
    page.evaluate(
        """async () => {
            const { pickColor } = await import('/js/pickers.js');
            window.__picked = 'none';
            pickColor('W', (c) => { window.__picked = c; });
        }"""
    )
    expect(page.locator("dialog.picker")).to_be_visible()
    assert page.evaluate("document.activeElement.closest('dialog') !== null")
    page.keyboard.press("Escape")
    expect(page.locator("dialog.picker")).to_have_count(0)
    assert page.evaluate("window.__picked") == "none"
    assert page.evaluate("document.activeElement.dataset.card") == "W"


def _uncovered_on_screen(page, testid):
    """The element is inside the viewport and nothing is drawn over its middle."""
    return page.get_by_test_id(testid).evaluate(
        """(el) => {
          const r = el.getBoundingClientRect();
          const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
          return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth
            && (hit === el || el.contains(hit));
        }"""
    )


def test_a_deals_end_shows_its_next_step_and_rating_changes_on_the_first_screen(page, shot):
    players = [
        {"seat": s, "name": n, "cards": 5, "score": 40 * s, "out": False, "connected": True}
        for s, n in enumerate(["Anna", "Ben", "Cara", "Dan"])
    ]
    deals = [
        {"deal": d, "winner": d % 4, "scores": [10, 20, 0, 5], "totals": [10 * d, 20 * d, 0, 5 * d]}
        for d in (1, 2, 3)
    ]
    hand = ["R5", "G7", "W", "B+2", "Y1", "Y2", "G9", "R8", "B4"]
    common = {
        "players": players,
        "hand": hand,
        "winner": 1,
        "dealScores": [0, 57, 0, 0],
        "totals": [30, 87, 0, 15],
        "reveal": [hand, [], ["G7", "B+2", "Y9", "R1", "R2", "B7"], ["Y4", "G2"]],
        "room": {"deals": deals, "rated": True, "matchId": "no-such-match"},
    }
    dealt = base_view(phase="dealOver", legal=[{"type": "nextDeal"}], **common)
    ended = base_view(phase="matchOver", legal=[], **common)
    for width, height in ((390, 844), (1280, 800)):
        page.set_viewport_size({"width": width, "height": height})
        render(page, dealt)
        page.evaluate("window.scrollTo(0, 0)")
        assert _uncovered_on_screen(page, "next-deal"), width
        if width < 900:
            # The table folds away: the felt is gone and the dock is no longer pinned.
            expect(page.locator(".table > .center")).to_be_hidden()
            assert (
                page.get_by_test_id("dock").evaluate("el => getComputedStyle(el).position")
                == "static"
            )
        shot(page, f"84-deal-end-{width}", full_page=False)
        render(page, ended)
        page.evaluate("window.scrollTo(0, 0)")
        assert _uncovered_on_screen(page, "rating-changes"), width


def test_a_left_players_seat_is_logged_as_the_bot_that_plays_it(page):
    lines = page.evaluate(
        """async () => {
            const { stampEvents } = await import('/js/stamp.js');
            const { describeEvent, stampedContext } = await import('/js/events.js');
            const seated = { players: [{ seat: 0, name: 'Anna' }, { seat: 1, name: 'Pia' }] };
            const left = { players: [
                { seat: 0, name: 'Anna' }, { seat: 1, name: 'Pia', left: true }] };
            const ctx = { name: (seat) => ['Anna', 'Pia'][seat], you: 0 };
            const events = [
                ...stampEvents([{ type: 'leave', seat: 1 }], seated, left),
                ...stampEvents([{ type: 'play', seat: 1, cards: ['G1'] }], left, left),
            ];
            return events.map((e) => describeEvent(e, stampedContext(e, ctx)));
        }"""
    )
    assert lines == ["Pia left", "Bot for Pia played Green 1"]


def test_the_colour_caption_never_covers_the_top_card(page):
    page.set_viewport_size({"width": 390, "height": 844})
    render(page, base_view())
    render(page, base_view(top="G3", color="G", moves=13))  # a card lands: it moves in from below
    top = page.get_by_test_id("top-card")
    expect(top).to_have_class(re.compile(r"\blanded\b"))
    card, caption = top.locator(".card"), top.locator(".color-name")
    # Settled: the caption is below the card and its 5 px colour ring.
    top.evaluate("el => el.getAnimations({ subtree: true }).forEach((a) => a.finish())")
    assert (
        caption.bounding_box()["y"] >= card.bounding_box()["y"] + card.bounding_box()["height"] + 5
    )
    # Landing (its first frame, over the caption): the card is drawn on top.
    render(page, base_view(top="B3", color="B", moves=14))
    top.evaluate(
        """el => el.getAnimations({ subtree: true })
            .forEach((a) => { a.pause(); a.currentTime = 0; })"""
    )
    b = card.bounding_box()
    hit = page.evaluate(
        "([x, y]) => document.elementFromPoint(x, y).closest('.card') !== null",
        [b["x"] + b["width"] / 2, b["y"] + b["height"] - 4],
    )
    assert hit
