"""A match's finishing order, the one used for ratings and tournament tables alike.

The engine orders a match by its result (:func:`engine.scoring.places`: the winner
first, then by total, then by a tiebreak); the app adds one rule of its own: a seat that
left, or that the autopilot (or a bot standing in) played for more than half of its
moves, is *gone* and placed after every seat still playing. A gone seat's winning (its
bot went out first) counts for nobody: the seats still playing are ordered by their
totals, and so are the gone seats among themselves (a table the autopilot played whole
still has a first place).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.scoring import places as match_places


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat at the end of a match."""

    seat: int
    total: int
    left: bool = False
    moves: int = 0
    auto: int = 0  # moves the autopilot (or a bot standing in) made for the seat
    tiebreak: int = 0  # lower is better (a tournament's card points left in hand)

    @property
    def gone(self) -> bool:
        """Left, or played by the autopilot for more than half of its moves: last."""
        return self.left or (self.moves > 0 and 2 * self.auto > self.moves)


def places(seats: Sequence[SeatResult], winner: int | None, lowest_wins: bool) -> list[int]:
    """Each seat's place (1 best; equal keys share a place), in the order of ``seats``.

    >>> places([SeatResult(0, 50), SeatResult(1, 0), SeatResult(2, 0, left=True)], 0, False)
    [1, 2, 3]
    >>> places([SeatResult(0, 0), SeatResult(1, 50, left=True), SeatResult(2, 9)], 1, False)
    [2, 3, 1]
    >>> gone = [SeatResult(0, 5, left=True), SeatResult(2, 9, left=True)]
    >>> places([gone[0], SeatResult(1, 0), gone[1]], 0, False)
    [3, 1, 2]
    """
    playing = [s for s in seats if not s.gone]
    order = match_places(
        [s.total for s in playing],
        lowest_wins,
        next((i for i, s in enumerate(playing) if s.seat == winner), None),
        [s.tiebreak for s in playing],
    )
    gone = [s for s in seats if s.gone]
    gone_order = match_places(
        [s.total for s in gone], lowest_wins, None, [s.tiebreak for s in gone]
    )
    place = dict(zip((s.seat for s in playing), order, strict=True))
    place |= {s.seat: len(playing) + p for s, p in zip(gone, gone_order, strict=True)}
    return [place[s.seat] for s in seats]
