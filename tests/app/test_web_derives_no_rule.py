"""The browser client restates no rule: what a card is comes from GET /api/cards, what a
seat may do from the view's ``legal``, penalties and points from the view, option
defaults and player ranges from GET /api/rules.

A static scan of web/js (vendored code aside) for the shapes such a restated rule takes:
a list of wild card codes, a side's colour letters or a group of them (Bottle UNO's Draw
Two side is the event's ``side``), a pattern that parses card codes, a penalty or a count
that falls back to a number of its own (draw, sip and penalty events always carry
``count``), a card-value table, the order of a Rommy run (a card's number as a number,
cards sorted by it, jokers dealt into gaps, a function that orders a meld: the engine
lays a meld's cards in table order from any order, docs/variants-party.md), a seat worked
out from the direction of play (Bottle UNO's ``skipped``), an option's default or a
player range of its own (the server's resolved values and ``presetFacts``), and an UNO
call worked out from the cards held (the view's ``unoCalled``).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

WEB_JS = Path(__file__).resolve().parents[2] / "web" / "js"
WILD = r'"(?:W|W\+4|W\+8|A\+2|WSH|WC|W\+2|WDC)"'
RESTATED = {
    "a list of wild card codes": re.compile(rf"{WILD}\s*,\s*{WILD}"),
    "a side's colour letters": re.compile(
        r'"R"\s*,\s*"G"\s*,\s*"B"\s*,\s*"Y"|"P"\s*,\s*"T"\s*,\s*"O"\s*,\s*"V"'
    ),
    "a pattern parsing card codes": re.compile(r"\[RGBY"),
    "a penalty falling back to a number": re.compile(
        r"(?:pendingDraw|penalty|pending)\s*(?:\|\||\?\?)\s*[1-9]"
    ),
    "a group of colour letters": re.compile(r'\[\s*"[RGBYPTOV]"\s*,\s*"[RGBYPTOV]"'),
    "a count falling back to a value of its own": re.compile(r"\bcount\s*(?:\|\||\?\?)"),
    "a seat worked out from the direction of play": re.compile(
        r"\bdirection\b[^;]*\)\s*%|%[^;]*\bdirection\b"
    ),
    "an option's default restated": re.compile(
        r"\b(?:values|rules|options)\??\.\w+\s*(?:\|\||\?\?)\s*(?:-?\d|\"|')"
        r"|\b(?:targetScore|roundLimit|matchMode|scoringMode|blitzSeconds)\s*(?:\|\||\?\?)"
    ),
    "a player range of its own": re.compile(
        r"\[\s*\d+\s*,\s*10\s*\]|\b(?:taken|seated|players(?:\.length)?)\s*<=?\s*[1-9]"
    ),
    "an UNO call worked out from the cards held": re.compile(
        r"\bunoExposed\s*!==?|\.cards\s*<=?\s*2\b"
    ),
    "a card-value function": re.compile(r"function\s+cardPoints\b"),
    "a card's rank read as a number": re.compile(
        r"(?:Number|parseInt|parseFloat)\([^;]*\brank\b"
        r"|\b(?:function\s+|const\s+)(?:numberOf|cardNumber|rankNumber)\b"
    ),
    "cards sorted by number": re.compile(r"\.sort\([^;]*\b(?:rank|numberOf|cardNumber)\b"),
    "jokers dealt into a run's gaps": re.compile(
        r"\b(?:jokers?|wilds?)\w*\.(?:shift|pop|splice|unshift)\(", re.IGNORECASE
    ),
    "a function ordering a meld": re.compile(
        r"function\s+(?:order|sort|arrange)\w*(?:Meld|Run|LayOff)\b"
    ),
}


def _modules() -> list[Path]:
    return sorted(p for p in WEB_JS.rglob("*.js") if "vendor" not in p.parts)


def test_the_scan_sees_the_client_modules() -> None:
    names = {p.name for p in _modules()}
    assert {"table.js", "cards.js", "rommy.js"} <= names


@pytest.mark.parametrize("what", sorted(RESTATED))
def test_no_web_module_restates_a_rule(what: str) -> None:
    pattern = RESTATED[what]
    found = [
        f"{path.relative_to(WEB_JS)}:{n}: {line.strip()}"
        for path in _modules()
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if pattern.search(line)
    ]
    assert not found, f"{what} in the web client:\n" + "\n".join(found)


@pytest.mark.parametrize(
    "line",
    [
        'const WILDS = new Set(["W", "W+4", "W+8"]);',
        'return shownSide ? ["P", "T", "O", "V"] : ["R", "G", "B", "Y"];',
        "const COLORED = /^([RGBYPTOV])(\\d|\\+\\d)$/;",
        "t('table.takePenalty', { n: view.pendingDraw || 4 })",
        "export function cardPoints(code) {",
        "  return /^\\d$/.test(rank) ? Number(rank) : null;",
        "const numberOf = (code) => parseCard(code).value;",
        "  naturals.sort((a, b) => numberOf(a) - numberOf(b));",
        "cards.sort((a, b) => parseCard(a).rank - parseCard(b).rank)",
        "    for (let k = lo + 1; k < hi && jokers.length; k += 1) out.push(jokers.shift());",
        "      out.unshift(wilds.shift());",
        "export function orderMeld(cards) {",
        "function orderLayOff(cards) {",
        # The Bottle UNO, event, option and room lines the client once had.
        '      const side = ["R", "B"].includes(parseCard(last.card).color) ? "right" : "left";',
        '      what = t("bottle.do.skip", { name: seatName(ctx, (last.seat + (view.direction'
        " ?? 1) + n) % n) });",
        '      what = t("bottle.do.drink", { name: who, n: first?.count ?? rank });',
        '      return t("event.party.penalty", { name, n: e.count ?? 2 });',
        '      return t("event.sips", { name, n: e.count ?? 1 });',
        '      return t("event.draw", { name, n: e.count ?? 1 });',
        "  const target = values.targetScore ?? 500;",
        '  const mode = values.matchMode ?? "points";',
        "  return Array.isArray(range) && range.length === 2 ? range : [2, 10];",
        '      isHost && taken < 2 ? h("p", { class: "hint" }, [t("room.needPlayers")]) : null,',
        "  if (p.cards === 1 && view.unoExposed !== seat) return true;",
        '    if (e.type === "callUno") return p.cards <= 2;',
    ],
)
def test_the_scan_catches_the_rules_it_looks_for(line: str) -> None:
    assert any(p.search(line) for p in RESTATED.values()), line
