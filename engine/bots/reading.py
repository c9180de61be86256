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


def seven_swaps(view: View) -> bool:
    rules = view.get("rules") or {}
    return bool(rules.get("sevenZero") or rules.get("sevenSwap"))


def opponents(view: View) -> list[dict[str, Any]]:
    """The other seats still in the match, with their card counts."""
    me = view.get("you")
    return [p for p in view.get("players") or () if p["seat"] != me and not p.get("out")]


def needs_target(view: View, cards: tuple[str, ...], hand: list[str]) -> bool:
    """A seven that swaps hands names the seat it swaps with."""
    if faces(view)[cards[-1]].rank != "7" or not seven_swaps(view):
        return False
    rules = view.get("rules") or {}
    return len(hand) > len(cards) or bool(rules.get("swapOnLastCard"))


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
        uno=left == 1 or (left == 0 and len(cards) > 1),
    )


def fewest_cards_opponent(view: View) -> int | None:
    """The opponent holding the fewest cards (the first such seat), or None."""
    others = opponents(view)
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


def send(view: View, action: Action) -> dict[str, Any]:
    """The wire form of ``action``, stamped with the position it was chosen in (``at``), so
    that a move the table has already moved past is refused rather than misapplied."""
    out = action._replace(at=view.get("moves")).to_json()
    return out
