"""Ready-made single-card plays, and which of them plain matching allows where.

Listing the turn holder's plays and deciding whether a drawn card may be played run once
per decision, so both look cards up in tables built once: the plays of each card code,
and for each position (side, colour in force, top card) the plays every card has there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import Action
from engine.cards import CARD_INFO, FACES, FLIP112, SIDE_COLORS, CardInfo

if TYPE_CHECKING:
    from engine.state import State


class _Plays(dict[str, tuple[Action, ...]]):
    """Single-card plays per card code, built once per code: legal_actions runs before
    every decision."""

    def __init__(self, side: str) -> None:
        super().__init__()
        self.side = side

    def __missing__(self, card: str) -> tuple[Action, ...]:
        if FACES[self.side][card].is_wild:
            plays = tuple(Action("play", (card,), color=c) for c in SIDE_COLORS[self.side])
        else:
            plays = (Action("play", (card,)),)
        self[card] = plays
        return plays


PLAYS = {side: _Plays(side) for side in SIDE_COLORS}


Table = dict[str, tuple[Action, ...]]
# (side, colour in force, top card) -> card -> the plays plain matching allows with it
# (empty when the card matches neither colour nor rank). Plain dicts, filled with every
# card code known at first use, so that the common listing costs one lookup per card.
MATCHING: dict[tuple[str, str | None, str], Table] = {}
_KNOWN_CODES = {"light": (*CARD_INFO, *FLIP112), "dark": FLIP112}


def matching_table(side: str, color: str | None, top: str) -> Table:
    """The table for one position (made and kept on first use)."""
    table: Table = {}
    learn(table, side, color, top, _KNOWN_CODES[side])
    MATCHING[side, color, top] = table
    return table


def learn(table: Table, side: str, color: str | None, top: str, cards: tuple[str, ...]) -> None:
    """Enter each of ``cards`` in the table of position (side, color, top)."""
    faces = FACES[side]
    top_rank = faces[top].rank
    for card in cards:
        table[card] = PLAYS[side][card] if plain_match(faces[card], color, top_rank) else ()


def plain_match(info: CardInfo, color: str | None, top_rank: str) -> bool:
    """Plain matching: a wild, or the colour in force, or the top card's number or symbol."""
    return info.color is None or info.color == color or info.rank == top_rank


def matches_top(state: State, info: CardInfo) -> bool:
    """Colour, number or symbol match with the top card, or a wild."""
    return plain_match(info, state.color, FACES[state.side][state.discard[-1]].rank)
