"""The table Swiss as pure functions: table sizes, seating, placement points, standings.

Nothing here reads a clock, a store or global random state: every draw comes from
`random.Random` seeded with the tournament's seed and a label, so any tournament's seatings
and standings can be recomputed from its registrations and results alone. The rooms, the
store and the REST layer call these functions; they never repeat a rule stated here.

    table_sizes(n, size)                      how n players split into tables
    first_round(entrants, size, seed)         seeded random draw, or snake by seed
    later_round(order, points, met, size)     cut by points, repeat table-mates swapped away
    placement_points(places)   one table's finish (app.placings) -> points on 0-3
    standings(entrants, results, seed)        points, then the tie-break chain
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction
from random import Random

MIN_TABLE = 3
MAX_TABLE = 6
TOP_POINTS = Fraction(3)

Seating = tuple[tuple[str, ...], ...]


class Status(StrEnum):
    """A participant's standing in the field; stable strings, stored and sent as they are."""

    ACTIVE = "active"
    WITHDRAWN = "withdrawn"
    DISQUALIFIED = "disqualified"


@dataclass(frozen=True, slots=True)
class Entrant:
    """A registered player: `seed` is the host's seeding (1 = strongest), if any."""

    id: str
    seed: int | None = None
    status: Status = Status.ACTIVE


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One player's finish at one table: their place (ties share one) and what counts after."""

    player: str
    place: int
    left_in_hand: int = 0
    deals_won: int = 0


@dataclass(frozen=True, slots=True)
class TableResult:
    seats: tuple[SeatResult, ...]

    def players(self) -> tuple[str, ...]:
        return tuple(seat.player for seat in self.seats)


@dataclass(frozen=True, slots=True)
class Standing:
    """A row of the standings; `rank` is unique because the seeded draw breaks every tie."""

    rank: int
    player: str
    status: Status
    points: Fraction
    mates_average: Fraction
    left_in_hand: int
    deals_won: int
    draw: int
    tables: int


TIE_BREAKS = ("points", "matesAverage", "leftInHand", "dealsWon", "draw")
"""The order standings are sorted by, as shown beside them: more points, higher table-mates'
average points, fewer card points left in hand, more deals won, then the seeded draw."""


def check_table_size(size: int) -> None:
    if not MIN_TABLE <= size <= MAX_TABLE:
        raise ValueError(f"table size {size!r} is outside {MIN_TABLE}-{MAX_TABLE}")


def table_sizes(n: int, size: int) -> tuple[int, ...]:
    """Split `n` players into tables of at most `size` seats, sizes within one of each other.

    Larger tables come first. When cutting at `size` would leave a table below three, fewer
    tables are used (so a field of 3-seat tables may get some 4-seat ones): never a bye and
    never a table below three unless the whole field is smaller than three.
    """
    check_table_size(size)
    if n <= 0:
        return ()
    count = max(1, min(-(-n // size), n // MIN_TABLE))
    small, extra = divmod(n, count)
    return tuple([small + 1] * extra + [small] * (count - extra))


def _cut(order: Sequence[str], sizes: Sequence[int]) -> list[list[str]]:
    tables: list[list[str]] = []
    at = 0
    for seats in sizes:
        tables.append(list(order[at : at + seats]))
        at += seats
    return tables


def draw_order(players: Iterable[str], seed: str, label: str) -> list[str]:
    """The players in a seeded random order, the same for the same seed, label and players."""
    order = sorted(players)
    Random(f"{seed}:{label}").shuffle(order)
    return order


def first_round(entrants: Sequence[Entrant], size: int, seed: str) -> Seating:
    """Round 1: a seeded random draw cut into tables; if the host seeded players, seeds are
    dealt snake-wise (1, 2, .., t, t, .., 2, 1, 1, 2, ..) so each table gets a fair mix, and
    unseeded players follow in the draw's order."""
    present = [e for e in entrants if e.status is Status.ACTIVE]
    sizes = table_sizes(len(present), size)
    seeded = sorted((e for e in present if e.seed is not None), key=lambda e: (e.seed, e.id))
    drawn = draw_order((e.id for e in present if e.seed is None), seed, "round:1")
    if not seeded:
        return tuple(tuple(table) for table in _cut(drawn, sizes))
    tables: list[list[str]] = [[] for _ in sizes]
    lane = _snake(len(sizes))
    for player in [e.id for e in seeded] + drawn:
        index = next(lane)
        while len(tables[index]) >= sizes[index]:
            index = next(lane)
        tables[index].append(player)
    return tuple(tuple(table) for table in tables)


def _snake(count: int) -> Iterator[int]:
    forward = list(range(count))
    while True:
        yield from forward
        yield from reversed(forward)


def later_round(
    order: Sequence[str],
    points: Mapping[str, Fraction],
    met: Mapping[str, frozenset[str]],
    size: int,
) -> Seating:
    """Rounds 2+: `order` (the standings, present players only) cut into tables in order,
    then repeat table-mates avoided by swapping players of equal points between tables.

    Each swap made strictly lowers the number of repeated pairs, so the loop ends; only
    equal-points swaps are tried, so every table still holds a run of the points order.
    """
    tables = _cut(order, table_sizes(len(order), size))
    improved = True
    while improved:
        improved = False
        for a, b, i, j in _swap_candidates(tables, points):
            p, q = tables[a][i], tables[b][j]
            before = _met_at(p, tables[a], met) + _met_at(q, tables[b], met)
            after = _met_at(p, tables[b], met, q) + _met_at(q, tables[a], met, p)
            if after < before:
                tables[a][i], tables[b][j] = q, p
                improved = True
    return tuple(tuple(table) for table in tables)


def _swap_candidates(
    tables: list[list[str]], points: Mapping[str, Fraction]
) -> Iterable[tuple[int, int, int, int]]:
    zero = Fraction(0)
    for a in range(len(tables)):
        for b in range(a + 1, len(tables)):
            for i in range(len(tables[a])):
                for j in range(len(tables[b])):
                    if points.get(tables[a][i], zero) == points.get(tables[b][j], zero):
                        yield a, b, i, j


def _met_at(
    player: str, table: Sequence[str], met: Mapping[str, frozenset[str]], leaving: str = ""
) -> int:
    """How many players at `table` (but `player` and the one `leaving` it) `player` has met."""
    seen = met.get(player, frozenset())
    return sum(1 for other in table if other not in (player, leaving) and other in seen)


def repeat_pairs(seating: Seating, met: Mapping[str, frozenset[str]]) -> int:
    """Pairs sitting together again: what `later_round` keeps low."""
    return sum(
        1
        for table in seating
        for i, p in enumerate(table)
        for q in table[i + 1 :]
        if q in met.get(p, frozenset())
    )


def placement_points(seat_places: Mapping[str, int]) -> dict[str, Fraction]:
    """(n - place) / (n - 1) scaled to 0-3; players sharing a place share the average of the
    places they cover (a tie for 2nd at a 4-seat table: both get (2 + 1) / 2 = 1.5)."""
    n = len(seat_places)
    if n < 2:
        return {player: TOP_POINTS for player in seat_places}
    result: dict[str, Fraction] = {}
    for place in set(seat_places.values()):
        tied = [p for p, at in seat_places.items() if at == place]
        covered = range(place, place + len(tied))
        share = sum((TOP_POINTS * (n - at) / (n - 1) for at in covered), Fraction(0))
        for player in tied:
            result[player] = share / len(tied)
    return result


def table_points(result: TableResult) -> dict[str, Fraction]:
    return placement_points({seat.player: seat.place for seat in result.seats})


def totals(results: Iterable[TableResult]) -> dict[str, Fraction]:
    """Each player's points over the given table results."""
    total: dict[str, Fraction] = {}
    for result in results:
        for player, gained in table_points(result).items():
            total[player] = total.get(player, Fraction(0)) + gained
    return total


def met_pairs(seatings: Iterable[Seating]) -> dict[str, frozenset[str]]:
    """Who has sat at a table with whom, over the given seatings."""
    met: dict[str, set[str]] = {}
    for seating in seatings:
        for table in seating:
            for player in table:
                met.setdefault(player, set()).update(p for p in table if p != player)
    return {player: frozenset(others) for player, others in met.items()}


def standings(
    entrants: Sequence[Entrant], results: Sequence[TableResult], seed: str
) -> tuple[Standing, ...]:
    """Every entrant ranked by the tie-break chain (`TIE_BREAKS`); disqualified players are
    listed last, withdrawn players keep their place by points."""
    points = totals(results)
    mates: dict[str, list[str]] = {}
    left: dict[str, int] = {}
    won: dict[str, int] = {}
    sat: dict[str, int] = {}  # tables played
    for result in results:
        players = result.players()
        for seat in result.seats:
            mates.setdefault(seat.player, []).extend(p for p in players if p != seat.player)
            left[seat.player] = left.get(seat.player, 0) + seat.left_in_hand
            won[seat.player] = won.get(seat.player, 0) + seat.deals_won
            sat[seat.player] = sat.get(seat.player, 0) + 1
    drawn = {p: i for i, p in enumerate(draw_order((e.id for e in entrants), seed, "standings"))}
    zero = Fraction(0)
    rows = []
    for entrant in entrants:
        others = mates.get(entrant.id, [])
        average = sum((points.get(o, zero) for o in others), zero) / len(others) if others else zero
        rows.append(
            Standing(
                rank=0,
                player=entrant.id,
                status=entrant.status,
                points=points.get(entrant.id, zero),
                mates_average=average,
                left_in_hand=left.get(entrant.id, 0),
                deals_won=won.get(entrant.id, 0),
                draw=drawn[entrant.id],
                tables=sat.get(entrant.id, 0),
            )
        )
    rows.sort(
        key=lambda s: (
            s.status is Status.DISQUALIFIED,
            -s.points,
            -s.mates_average,
            s.left_in_hand,
            -s.deals_won,
            s.draw,
        )
    )
    return tuple(replace(row, rank=index + 1) for index, row in enumerate(rows))


def seat_round(
    number: int,
    entrants: Sequence[Entrant],
    history: Sequence[Seating],
    results: Sequence[TableResult],
    size: int,
    seed: str,
) -> Seating:
    """The seating of round `number` (1-based) for the active entrants, given the earlier
    rounds' seatings and results: the one entry point the tournament service calls."""
    if number == 1:
        return first_round(entrants, size, seed)
    active = {e.id for e in entrants if e.status is Status.ACTIVE}
    order = [s.player for s in standings(entrants, results, seed) if s.player in active]
    return later_round(order, totals(results), met_pairs(history), size)
