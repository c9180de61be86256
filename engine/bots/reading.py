"""Reading a seat's view: what the bots know, and turning a listed action into one to send.

A view lists legal actions in wire form: a wild or seven play without the ``color`` or
``target`` the player adds. Everything here reads only the view a seat is given.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from engine.actions import Action, parse_action
from engine.cards import FACES, SIDE_COLORS, CardInfo
from engine.rules import Rules, rules_from_json
from engine.seven_zero import swap_needs_target, swap_target_problem
from engine.uno_call import calls_with

View = Mapping[str, Any]
# Moves a seat makes on its turn (the rest are out-of-turn calls, catches and challenges).
OUT_OF_TURN = frozenset({"callUno", "catchUno", "challenge"})


def faces(view: View) -> dict[str, CardInfo]:
    """Card code -> the face it shows now (UNO Flip's dark side after a Flip)."""
    return FACES[view.get("side") or "light"]


def colors(view: View) -> tuple[str, ...]:
    return SIDE_COLORS[view.get("side") or "light"]


def legal(view: View) -> list[Action]:
    return [parse_action(a) for a in view.get("legal") or ()]


def on_turn(view: View) -> bool:
    """Whether the table waits for this seat (its turn, a colour to name, a draft pick)."""
    return view.get("you") is not None and view.get("turn") == view.get("you")


def remaining(hand: Iterable[str], cards: Iterable[str]) -> list[str]:
    """``hand`` without ``cards`` (one copy each)."""
    rest = list(hand)
    for card in cards:
        rest.remove(card)
    return rest


def color_counts(view: View, cards: Iterable[str]) -> Counter[str]:
    """How many of ``cards`` show each colour (wilds count for none)."""
    face = faces(view)
    return Counter(c for c in (face[card].color for card in cards) if c is not None)


def most_held_color(view: View, cards: Iterable[str], rng: random.Random) -> str:
    """The colour ``cards`` hold most; a tie (or no coloured card) is broken at random."""
    counts = color_counts(view, cards)
    options = colors(view)
    best = max((counts[c] for c in options), default=0)
    return rng.choice([c for c in options if counts[c] == best])


def rules_of(view: View) -> Rules:
    """The rules a view carries (in wire form), read by the engine once per rule set."""
    wire = view.get("rules") or {}
    key = tuple(wire.items())
    rules = _RULES.get(key)
    if rules is None:
        if len(_RULES) >= 256:
            _RULES.clear()
        rules = _RULES[key] = rules_from_json(wire)
    return rules


_RULES: dict[tuple[tuple[str, Any], ...], Rules] = {}


def seven_swaps(view: View) -> bool:
    return rules_of(view).seven_swaps


def needs_target(view: View, cards: tuple[str, ...], hand: list[str]) -> bool:
    """A seven that swaps hands names the seat it swaps with (the engine's rule)."""
    rank = faces(view)[cards[-1]].rank
    return swap_needs_target(rules_of(view), rank, len(hand), len(cards))


def complete_play(
    view: View, cards: tuple[str, ...], color: str | None, target: int | None
) -> Action:
    """The play of ``cards`` with what it needs: the colour for a wild, the seat for a
    seven swap, and the UNO call when it leaves one card (or lays the last ones together)."""
    hand = list(view.get("hand") or ())
    left = len(hand) - len(cards)
    last = faces(view)[cards[-1]]
    return Action(
        "play",
        cards,
        color=color if last.is_wild else None,
        target=target if needs_target(view, cards, hand) else None,
        uno=calls_with(left, len(cards)),
    )


def swap_targets(view: View) -> list[dict[str, Any]]:
    """The seats this seat's seven may swap with, with their card counts (the engine's
    rule, engine.seven_zero)."""
    me = view.get("you")
    players = list(view.get("players") or ())
    if me is None:
        return []
    out = [bool(p.get("out")) for p in players]
    return [p for p in players if swap_target_problem(len(players), out, me, p["seat"]) is None]


def fewest_cards_opponent(view: View) -> int | None:
    """The seat a seven may swap with holding the fewest cards (the first such seat), or
    None."""
    others = swap_targets(view)
    if not others:
        return None
    seat: int = min(others, key=lambda p: (p["cards"], p["seat"]))["seat"]
    return seat


def next_opponent(view: View) -> dict[str, Any] | None:
    """The seat that plays after this one (by the direction of play), if any."""
    me = view.get("you")
    players = view.get("players") or []
    n = len(players)
    if me is None or n < 2:
        return None
    step = view.get("direction") or 1
    seat = me
    for _ in range(n):
        seat = (seat + step) % n
        if seat != me and not players[seat].get("out"):
            return dict(players[seat])
    return None


def stamped(view: View, action: Action) -> Action:
    """``action`` stamped with the position it was chosen in (``at``), so that a move the
    table has already moved past is refused rather than misapplied."""
    at = view.get("moves")
    return action._replace(at=at if isinstance(at, int) else None)
