"""The table Swiss as pure functions: table sizes, seating, placement points, standings.

Nothing here reads a clock, a store or global random state: every draw comes from
`random.Random` seeded with the tournament's seed and a label, so any tournament's seatings
and standings can be recomputed from its registrations and results alone. The rooms, the
store and the REST layer call these functions; they never repeat a rule stated here.

    table_sizes(n, size, fewest)              how n players split into tables (the rest: byes)
    byes(order, size, fewest, had)            who sits a round out, when a table cannot form
    first_round(entrants, size, seed)         seeded random draw, or snake by seed
    later_round(order, points, met, size)     cut by points, repeat table-mates swapped away
    placement_points(places)                  one table's finish (app.placings) -> points on 0-3
    standings(entrants, results, seed, byes)  points, then the tie-break chain
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction
from random import Random

MIN_TABLE = 3
MAX_TABLE = 6
TOP_POINTS = Fraction(3)
# A round sat out is worth a table's average: every table's points add up to half the top
# points per seat, so a bye neither lifts a player above the field nor drops them below it.
BYE_POINTS = TOP_POINTS / 2
# The fewest players any table may have (the rules may ask for more: ``fewest``).
FEWEST = 2

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


def table_sizes(n: int, size: int, fewest: int = FEWEST) -> tuple[int, ...]:
    """Split `n` players into tables of about `size` seats, sizes within one of each other.

    Larger tables come first. A table below three is avoided by using fewer tables as long
    as no table grows past `size` by more than one (so 4 at 3-seat tables sit at one table
    of 4, 5 at 3 and 2). A table below `fewest` (the rules' fewest players) is never made:
    the players it would hold sit the round out (byes: the sizes then add up to less than
    `n`), and with fewer than `fewest` players there is no table at all.
    """
    check_table_size(size)
    fewest = max(fewest, FEWEST)
    if n < fewest:
        return ()
    count = -(-n // size)
    while count > 1 and n // count < MIN_TABLE and -(-n // (count - 1)) <= size + 1:
        count -= 1
    seated = n
    while seated // count < fewest:
        count -= 1
        seated = min(n, count * (size + 1))
    small, extra = divmod(seated, count)
    return tuple([small + 1] * extra + [small] * (count - extra))


def byes(
    order: Sequence[str], size: int, fewest: int = FEWEST, had: Collection[str] = ()
) -> tuple[str, ...]:
    """Who sits the round out when the tables cannot hold everyone (`table_sizes`): the
    last of `order` (the standings, or round 1's draw) who has not had a bye yet, then, if
    everyone has, the last; as in Swiss chess, a bye goes to the bottom of the field."""
    out = len(order) - sum(table_sizes(len(order), size, fewest))
    if out <= 0:
        return ()
    taken = set(had)
    bottom_up = [p for p in reversed(order) if p not in taken]
    bottom_up += [p for p in reversed(order) if p in taken]
    return tuple(bottom_up[:out])


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


def first_round(entrants: Sequence[Entrant], size: int, seed: str, fewest: int = FEWEST) -> Seating:
    """Round 1: a seeded random draw cut into tables; if the host seeded players, seeds are
    dealt snake-wise (1, 2, .., t, t, .., 2, 1, 1, 2, ..) so each table gets a fair mix, and
    unseeded players follow in the draw's order. Those the tables cannot hold (`byes`) are
    the last of that order."""
    present = [e for e in entrants if e.status is Status.ACTIVE]
    seeded = sorted((e for e in present if e.seed is not None), key=lambda e: (e.seed, e.id))
    drawn = draw_order((e.id for e in present if e.seed is None), seed, "round:1")
    order = [e.id for e in seeded] + drawn
    out = set(byes(order, size, fewest))
    order = [p for p in order if p not in out]
    sizes = table_sizes(len(order), size, fewest)
    if not seeded:
        return tuple(tuple(table) for table in _cut(order, sizes))
    tables: list[list[str]] = [[] for _ in sizes]
    lane = _snake(len(sizes))
    for player in order:
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
    fewest: int = FEWEST,
) -> Seating:
    """Rounds 2+: `order` (the standings, present players only) cut into tables in order,
    then repeat table-mates avoided by swapping players of equal points between tables.

    Each swap made strictly lowers the number of repeated pairs, so the loop ends; only
    equal-points swaps are tried, so every table still holds a run of the points order.
    """
    tables = _cut(order, table_sizes(len(order), size, fewest))
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


def totals(results: Iterable[TableResult], byes: Iterable[str] = ()) -> dict[str, Fraction]:
    """Each player's points over the given table results and byes (one entry a bye)."""
    total: dict[str, Fraction] = {}
    for result in results:
        for player, gained in table_points(result).items():
            total[player] = total.get(player, Fraction(0)) + gained
    for player in byes:
        total[player] = total.get(player, Fraction(0)) + BYE_POINTS
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
    entrants: Sequence[Entrant],
    results: Sequence[TableResult],
    seed: str,
    byes: Sequence[str] = (),
) -> tuple[Standing, ...]:
    """Every entrant ranked by the tie-break chain (`TIE_BREAKS`); disqualified players are
    listed last, withdrawn players keep their place by points. `byes`: one entry for each
    round a player sat out (worth `BYE_POINTS`, no table-mates, no cards)."""
    points = totals(results, byes)
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
    fewest: int = FEWEST,
    had_byes: Sequence[str] = (),
) -> tuple[Seating, tuple[str, ...]]:
    """The seating of round `number` (1-based) for the active entrants, given the earlier
    rounds' seatings, results and byes, and who sits it out (a bye): the one entry point
    the tournament service calls. No table is below `fewest` (the rules' fewest players);
    with fewer active players than that, there is no table and everyone has a bye."""
    active = [e for e in entrants if e.status is Status.ACTIVE]
    if number == 1:
        seating = first_round(entrants, size, seed, fewest)
        seated = {p for table in seating for p in table}
        return seating, tuple(e.id for e in active if e.id not in seated)
    ids = {e.id for e in active}
    order = [s.player for s in standings(entrants, results, seed, had_byes) if s.player in ids]
    out = byes(order, size, fewest, had_byes)
    rest = [p for p in order if p not in out]
    return later_round(rest, totals(results, had_byes), met_pairs(history), size, fewest), out
