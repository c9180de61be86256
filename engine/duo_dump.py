"""UNO Duo's Reverse dump (``reverseDumpsColor``): a play starting with a Reverse may go
on with every other card of its colour in hand, in any order (all or nothing:
``dump_all_or_nothing``), and acts as its last card alone (engine.effects). A first card
that is a Reverse opens the same dump to player 2 (``State.dump_color``, engine.first_card)
until their first turn action.
"""

from __future__ import annotations

from collections import Counter

from engine.cards import FACES
from engine.state import State

PROBLEM = "dump_all_or_nothing"
TEXT = "after a Reverse lay every card of its colour, or only the Reverse"


def dump_color_of(state: State, cards: tuple[str, ...]) -> str | None:
    """The colour a Reverse (or a first-card Reverse) lets this play dump, or None."""
    if not state.rules.reverse_dumps_color:
        return None
    first = FACES[state.side][cards[0]]
    if first.rank == "R":
        return first.color
    if state.dump_color is not None and not state.pending and state.drawn is None:
        return state.dump_color
    return None


def is_dump(state: State, cards: tuple[str, ...]) -> bool:
    """Is the play of ``cards`` a dump (it starts with a card of the colour it may dump)?"""
    dump = dump_color_of(state, cards)
    return dump is not None and FACES[state.side][cards[0]].color == dump


def dump_problem(state: State, hand: tuple[str, ...], cards: tuple[str, ...]) -> str | None:
    """Why the dump of ``cards`` from ``hand`` is refused (not the whole colour), or None."""
    faces = FACES[state.side]
    dump = faces[cards[0]].color
    whole_color = Counter(c for c in hand if faces[c].color == dump)
    return None if Counter(cards) == whole_color else PROBLEM


def dump_group(state: State, hand: tuple[str, ...], card: str) -> tuple[str, ...] | None:
    """The dump ``card`` may start (with every other card of its colour), or None."""
    if not is_dump(state, (card,)):
        return None
    faces = FACES[state.side]
    rest = list(hand)
    rest.remove(card)
    others = tuple(c for c in rest if faces[c].color == faces[card].color)
    return (card, *others) if others else None
