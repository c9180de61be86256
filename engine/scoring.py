"""Card values, deal scores and standings under the rules' scoring options.

Pure functions over card codes and totals, shared by the game and the scoresheet so that
a live match and a paper one are read the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.cards import FACES, NUMBERS
from engine.rules import Rules
from engine.teams import team_scores

# One classic108 deck is worth 1240 at default values; an entry above this is impossible.
DECK_POINTS_CAP = 1240


# UNO Flip scores the face showing when the deal ends, by its own fixed table.
FLIP_VALUES = {"+1": 10, "+5": 20, "R": 20, "S": 20, "F": 20, "SE": 30, "W": 40}
FLIP_VALUES.update({"W+2": 50, "WDC": 60})


def card_value(card: str, rules: Rules, side: str = "light") -> int:
    """The points one card in hand is worth under ``rules`` (showing ``side``)."""
    info = FACES[side][card]
    rank = info.rank
    if rank in NUMBERS:
        return 10 if rules.number_cards == "flatTen" else int(rank)
    if rules.deck == "flip112":
        return FLIP_VALUES[rank]
    if rank == "W+4":
        return rules.wild_draw_four_value
    if info.color is None:
        return rules.wild_value
    return rules.action_value


def hand_value(hand: Sequence[str], rules: Rules, side: str = "light") -> int:
    # map and sum add the values up without a Python-level step per card.
    return sum(map(card_values(rules, side).__getitem__, hand))


def card_values(rules: Rules, side: str = "light") -> dict[str, int]:
    """card code -> its value under ``rules`` (showing ``side``), each worked out once."""
    # Every option card_value reads, and the side: the key of a table of card values.
    key = (
        rules.number_cards,
        rules.deck,
        rules.wild_draw_four_value,
        rules.wild_value,
        rules.action_value,
        side,
    )
    values = _VALUES.get(key)
    if values is None:
        values = _VALUES[key] = _CardValues(rules, side)
    return values


class _CardValues(dict[str, int]):
    """card_value under one set of value options, each card worked out once: the end of
    every deal values every hand."""

    def __init__(self, rules: Rules, side: str) -> None:
        super().__init__()
        self.rules = rules
        self.side = side

    def __missing__(self, card: str) -> int:
        value = self[card] = card_value(card, self.rules, self.side)
        return value


_VALUES: dict[tuple[str, str, int, int, int, str], _CardValues] = {}


def deal_scores(
    hands: Sequence[Sequence[str]], winner: int, rules: Rules, side: str = "light"
) -> list[int]:
    """Each seat's entry for a deal ``winner`` went out of.

    ``winnerCollects``: the winner scores everyone else's hands, others 0.
    ``ownHandCounts``: each seat scores its own hand, the winner 0.
    """
    value = card_values(rules, side).__getitem__
    values = [sum(map(value, hand)) for hand in hands]
    if rules.teams:
        return team_scores(rules, values, winner)
    if rules.scoring_mode == "ownHandCounts":
        values[winner] = 0
        return values
    scores = [0] * len(hands)
    scores[winner] = sum(values) - values[winner]
    return scores


def ranked(keys: Sequence[Any]) -> list[int]:
    """Each key's place (1 best: the lowest key); equal keys share the better place
    (1, 2, 2, 4). Every finishing order of the project is ranked by this."""
    return [1 + sum(other < key for other in keys) for key in keys]


def places(
    totals: Sequence[int],
    lowest_wins: bool,
    winner: int | None = None,
    tiebreak: Sequence[int] | None = None,
) -> list[int]:
    """A match's finishing order, as each seat's place: its ``winner`` first (None: no
    single winner), then the others by total, best first, then by ``tiebreak``, lowest
    first; equal keys share a place (1, 1, 3).

    >>> places([120, 40, 40], False, winner=0)
    [1, 2, 2]
    >>> places([120, 40, 40], False, winner=0, tiebreak=[0, 9, 3])
    [1, 3, 2]
    """
    sign = 1 if lowest_wins else -1
    extra = tiebreak or [0] * len(totals)
    return ranked([(seat != winner, sign * t, extra[seat]) for seat, t in enumerate(totals)])


def best_seats(
    totals: Sequence[int], lowest_wins: bool, among: Sequence[int] | None = None
) -> list[int]:
    """The seats (from ``among``, default all) holding the best total."""
    seats = list(range(len(totals))) if among is None else list(among)
    pick = min if lowest_wins else max
    best = pick(totals[s] for s in seats)
    return [s for s in seats if totals[s] == best]
