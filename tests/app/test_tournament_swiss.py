"""The table Swiss (app/tournaments/swiss.py): table sizes, seating, points and standings,
with hypothesis guarding the seating invariants."""

from __future__ import annotations

import ast
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.tournaments import swiss
from app.tournaments.swiss import Entrant, SeatResult, Status, TableResult
from engine.scoring import ranked

SWISS = Path(swiss.__file__)


def entrants(n: int) -> list[Entrant]:
    return [Entrant(f"p{i:03}") for i in range(n)]


def seated(seating: swiss.Seating) -> list[str]:
    return [p for table in seating for p in table]


def finish(table: tuple[str, ...]) -> TableResult:
    """A table whose players finish in seating order, the first winning the deal."""
    return TableResult(
        tuple(
            SeatResult(p, place=i + 1, left_in_hand=10 * i, deals_won=int(i == 0))
            for i, p in enumerate(table)
        )
    )


def test_swiss_module_is_pure_standard_library() -> None:
    roots: set[str] = set()
    for node in ast.walk(ast.parse(SWISS.read_text())):
        if isinstance(node, ast.Import):
            roots |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    assert roots <= set(sys.stdlib_module_names)
    assert roots & {"asyncio", "time", "datetime", "os", "socket", "secrets", "app"} == set()


@pytest.mark.parametrize(
    ("n", "size", "sizes"),
    [
        (32, 4, (4,) * 8),
        (30, 4, (4, 4, 4, 4, 4, 4, 3, 3)),
        (5, 4, (5,)),
        (7, 4, (4, 3)),
        (4, 3, (4,)),
        (10, 3, (4, 3, 3)),
        (5, 3, (3, 2)),
        (2, 4, (2,)),
        (1, 4, ()),
        (0, 4, ()),
    ],
)
def test_table_sizes_split_the_field_within_one_and_never_below_three(
    n: int, size: int, sizes: tuple[int, ...]
) -> None:
    assert swiss.table_sizes(n, size) == sizes


@pytest.mark.parametrize("size", [2, 7, 0])
def test_table_size_outside_three_to_six_is_refused(size: int) -> None:
    with pytest.raises(ValueError, match="outside 3-6"):
        swiss.table_sizes(12, size)


@given(n=st.integers(0, 300), size=st.integers(3, 6))
def test_table_sizes_always_hold_the_field_within_one_of_each_other(n: int, size: int) -> None:
    sizes = swiss.table_sizes(n, size)
    assert sum(sizes) == (n if n >= 2 else 0)
    if sizes:
        assert max(sizes) - min(sizes) <= 1
        assert min(sizes) >= (min(n, 3) if (n, size) != (5, 3) else 2)
        assert max(sizes) <= size + 1


@pytest.mark.parametrize(
    ("n", "size", "fewest", "sizes"),
    [
        (6, 4, 4, (5,)),  # one table grown by one, one bye
        (9, 4, 4, (5, 4)),
        (3, 4, 4, ()),
        (8, 3, 3, (4, 4)),
    ],
)
def test_a_table_below_the_rules_fewest_is_never_made_its_players_get_byes(
    n: int, size: int, fewest: int, sizes: tuple[int, ...]
) -> None:
    assert swiss.table_sizes(n, size, fewest) == sizes


@given(n=st.integers(0, 300), size=st.integers(3, 6), fewest=st.integers(1, 6))
def test_no_table_is_below_the_fewest_nor_above_one_past_its_size(
    n: int, size: int, fewest: int
) -> None:
    sizes = swiss.table_sizes(n, size, min(fewest, size))
    assert all(max(2, min(fewest, size)) <= s <= size + 1 for s in sizes)
    assert sum(sizes) <= n
    if sizes:
        assert max(sizes) - min(sizes) <= 1


def test_byes_go_to_the_bottom_of_the_field_who_has_not_had_one() -> None:
    order = ["a", "b", "c", "d", "e", "f"]
    assert swiss.byes(order, 4, 4) == ("f",)
    assert swiss.byes(order, 4, 4, had=["f"]) == ("e",)
    assert swiss.byes(order, 4, 4, had=order) == ("f",)
    assert swiss.byes(order, 4) == ()
    assert swiss.byes(["a"], 4) == ("a",)


@given(
    n=st.integers(1, 120),
    size=st.integers(3, 6),
    seed=st.text(max_size=8),
    seeded=st.integers(0, 20),
    absent=st.sets(st.integers(0, 119), max_size=10),
)
def test_first_round_seats_every_present_player_exactly_once(
    n: int, size: int, seed: str, seeded: int, absent: set[int]
) -> None:
    field = [
        Entrant(
            f"p{i}",
            seed=i + 1 if i < seeded else None,
            status=Status.WITHDRAWN if i in absent else Status.ACTIVE,
        )
        for i in range(n)
    ]
    present = sorted(e.id for e in field if e.status is Status.ACTIVE)
    seating = swiss.first_round(field, size, seed)
    assert sorted(seated(seating)) == (present if len(present) >= 2 else [])
    assert tuple(len(t) for t in seating) == swiss.table_sizes(len(present), size)


def test_first_round_draw_is_the_same_for_the_same_seed_and_differs_for_another() -> None:
    field = entrants(24)
    assert swiss.first_round(field, 4, "s1") == swiss.first_round(field, 4, "s1")
    assert swiss.first_round(field, 4, "s1") != swiss.first_round(field, 4, "s2")


def test_first_round_deals_host_seeds_snake_wise() -> None:
    field = [Entrant(f"s{i}", seed=i) for i in range(1, 13)]
    seating = swiss.first_round(field, 4, "x")
    assert seating == (
        ("s1", "s6", "s7", "s12"),
        ("s2", "s5", "s8", "s11"),
        ("s3", "s4", "s9", "s10"),
    )


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(3, 64),
    size=st.integers(3, 6),
    seed=st.text(max_size=6),
    rounds=st.integers(1, 4),
)
def test_later_rounds_seat_every_present_player_once_in_tables_within_one(
    n: int, size: int, seed: str, rounds: int
) -> None:
    field = entrants(n)
    history: list[swiss.Seating] = []
    results: list[TableResult] = []
    for number in range(1, rounds + 2):
        seating, out = swiss.seat_round(number, field, history, results, size, seed)
        assert sorted(seated(seating)) == sorted(e.id for e in field)
        assert out == ()
        sizes = [len(t) for t in seating]
        assert max(sizes) - min(sizes) <= 1
        assert min(sizes) >= (min(n, 3) if (n, size) != (5, 3) else 2)
        history.append(seating)
        results.extend(finish(t) for t in seating)


def test_later_round_cuts_by_points_in_order() -> None:
    order = [f"p{i}" for i in range(8)]
    points = {p: Fraction(8 - i) for i, p in enumerate(order)}
    seating = swiss.later_round(order, points, {}, 4)
    assert seating == (("p0", "p1", "p2", "p3"), ("p4", "p5", "p6", "p7"))


def test_later_round_swaps_within_a_score_group_to_avoid_repeat_table_mates() -> None:
    order = [f"p{i}" for i in range(8)]
    points = dict.fromkeys(order, Fraction(3))
    met = swiss.met_pairs([(("p0", "p1", "p2", "p3"), ("p4", "p5", "p6", "p7"))])
    seating = swiss.later_round(order, points, met, 4)
    assert sorted(seated(seating)) == sorted(order)
    assert swiss.repeat_pairs(seating, met) < swiss.repeat_pairs(
        (("p0", "p1", "p2", "p3"), ("p4", "p5", "p6", "p7")), met
    )


def test_later_round_never_swaps_across_score_groups() -> None:
    order = [f"p{i}" for i in range(8)]
    points = {p: Fraction(10 - i) for i, p in enumerate(order)}
    met = swiss.met_pairs([(("p0", "p1", "p2", "p3"), ("p4", "p5", "p6", "p7"))])
    assert swiss.later_round(order, points, met, 4) == (
        ("p0", "p1", "p2", "p3"),
        ("p4", "p5", "p6", "p7"),
    )


@given(n=st.integers(4, 40), seed=st.text(max_size=4))
def test_swaps_never_add_repeat_pairs(n: int, seed: str) -> None:
    field = entrants(n)
    first = swiss.first_round(field, 4, seed)
    results = [finish(t) for t in first]
    order = [s.player for s in swiss.standings(field, results, seed)]
    met = swiss.met_pairs([first])
    plain = tuple(tuple(t) for t in swiss._cut(order, swiss.table_sizes(n, 4)))
    swapped = swiss.later_round(order, swiss.totals(results), met, 4)
    assert swiss.repeat_pairs(swapped, met) <= swiss.repeat_pairs(plain, met)


@pytest.mark.parametrize(
    ("seat_places", "points"),
    [
        ({"a": 1, "b": 2, "c": 3, "d": 4}, [3, 2, 1, 0]),
        ({"a": 1, "b": 2, "c": 2, "d": 4}, [3, Fraction(3, 2), Fraction(3, 2), 0]),
        ({"a": 1, "b": 2, "c": 3}, [3, Fraction(3, 2), 0]),
        (
            {"a": 1, "b": 2, "c": 3, "d": 4, "e": 5},
            [3, Fraction(9, 4), Fraction(3, 2), Fraction(3, 4), 0],
        ),
        ({"a": 1, "b": 1, "c": 1, "d": 1}, [Fraction(3, 2)] * 4),
    ],
)
def test_placement_points_scale_to_three_and_ties_share_the_average(
    seat_places: dict[str, int], points: list[Fraction]
) -> None:
    got = swiss.placement_points(seat_places)
    assert [got[p] for p in sorted(seat_places)] == points


@given(st.lists(st.integers(0, 3), min_size=2, max_size=6))
def test_a_tables_points_always_sum_to_the_places_points(keys: list[int]) -> None:
    by_player = {f"p{i}": [k] for i, k in enumerate(keys)}
    got = swiss.placement_points(_places(by_player))
    n = len(keys)
    assert sum(got.values()) == sum(Fraction(3 * (n - place), n - 1) for place in range(1, n + 1))
    assert all(0 <= v <= 3 for v in got.values())


def _places(keys: dict[str, list[int]]) -> dict[str, int]:
    return dict(zip(keys, ranked(list(keys.values())), strict=True))


def test_places_share_the_better_place_on_equal_keys() -> None:
    assert _places({"a": [0, 0], "b": [1, 5], "c": [1, 5], "d": [1, 9]}) == {
        "a": 1,
        "b": 2,
        "c": 2,
        "d": 4,
    }


def test_standings_apply_the_tie_break_chain_in_order() -> None:
    field = entrants(8)
    ids = [e.id for e in field]
    # Round 1: p000 and p004 win their tables; the rest finish in seating order.
    round1 = [finish(tuple(ids[0:4])), finish(tuple(ids[4:8]))]
    rows = swiss.standings(field, round1, "seed")
    assert [r.points for r in rows[:2]] == [3, 3]
    # Equal points and equal table-mates: fewer card points left decides (both 0), then
    # deals won (both 1), then the draw, so the order between them is the draw's.
    assert {rows[0].player, rows[1].player} == {"p000", "p004"}
    assert rows[0].draw < rows[1].draw
    # A player who left fewer card points beats one on equal points and table-mates.
    tweaked = [
        TableResult(
            (
                SeatResult("p000", 1, 0, 1),
                SeatResult("p001", 2, 30, 0),
                SeatResult("p002", 3, 40, 0),
                SeatResult("p003", 4, 50, 0),
            )
        ),
        TableResult(
            (
                SeatResult("p004", 1, 0, 1),
                SeatResult("p005", 2, 5, 0),
                SeatResult("p006", 3, 40, 0),
                SeatResult("p007", 4, 50, 0),
            )
        ),
    ]
    rows = swiss.standings(field, tweaked, "seed")
    second = [r.player for r in rows if r.points == 2]
    assert second == ["p005", "p001"]
    assert [r.rank for r in rows] == list(range(1, 9))


def test_standings_prefer_higher_table_mates_average_before_cards_left() -> None:
    a = TableResult((SeatResult("x", 1, 99), SeatResult("s1", 2), SeatResult("s2", 3)))
    b = TableResult((SeatResult("y", 1, 0), SeatResult("w1", 2), SeatResult("w2", 3)))
    # s1 and s2 win elsewhere, so x's table-mates are stronger than y's.
    c = TableResult((SeatResult("s1", 1), SeatResult("s2", 1), SeatResult("w1", 3)))
    field = [Entrant(p) for p in ("x", "y", "s1", "s2", "w1", "w2")]
    rows = swiss.standings(field, [a, b, c], "k")
    order = [r.player for r in rows if r.player in ("x", "y")]
    assert order == ["x", "y"]


def test_disqualified_players_are_listed_last_and_withdrawn_keep_their_points() -> None:
    field = [
        Entrant("a", status=Status.DISQUALIFIED),
        Entrant("b", status=Status.WITHDRAWN),
        Entrant("c"),
        Entrant("d"),
    ]
    result = finish(("a", "b", "c", "d"))
    rows = swiss.standings(field, [result], "z")
    assert [r.player for r in rows] == ["b", "c", "d", "a"]
    assert rows[0].status is Status.WITHDRAWN and rows[0].points == 2


def test_withdrawn_players_are_not_seated_and_a_late_entrant_starts_at_zero() -> None:
    field = entrants(8)
    first = swiss.first_round(field, 4, "s")
    results = [finish(t) for t in first]
    field[0] = Entrant(field[0].id, status=Status.WITHDRAWN)
    field.append(Entrant("late"))
    second, _ = swiss.seat_round(2, field, [first], results, 4, "s")
    assert "p000" not in seated(second)
    assert "late" in seated(second)
    late = next(r for r in swiss.standings(field, results, "s") if r.player == "late")
    assert late.points == 0 and late.tables == 0


def test_the_worked_example_in_docs_tournaments_md_holds() -> None:
    field = [Entrant(n) for n in ("Ada", "Bo", "Cai", "Dee", "Eli", "Fay", "Gus", "Hal")]
    first = swiss.first_round(field, 4, "club-night")
    assert first == (("Hal", "Cai", "Dee", "Gus"), ("Eli", "Bo", "Ada", "Fay"))
    left = {"Hal": 0, "Cai": 25, "Dee": 25, "Gus": 25, "Eli": 0, "Bo": 9, "Ada": 14, "Fay": 40}
    results = []
    for table in first:
        at = _places({p: [left[p]] for p in table})
        results.append(
            TableResult(tuple(SeatResult(p, at[p], left[p], int(left[p] == 0)) for p in table))
        )
    rows = swiss.standings(field, results, "club-night")
    assert [(r.player, r.points, r.mates_average) for r in rows] == [
        ("Hal", 3, 1),
        ("Eli", 3, 1),
        ("Bo", 2, Fraction(4, 3)),
        ("Ada", 1, Fraction(5, 3)),
        ("Dee", 1, Fraction(5, 3)),
        ("Gus", 1, Fraction(5, 3)),
        ("Cai", 1, Fraction(5, 3)),
        ("Fay", 0, 2),
    ]
    met = swiss.met_pairs([first])
    cut = (("Hal", "Eli", "Bo", "Ada"), ("Dee", "Gus", "Cai", "Fay"))
    second, _ = swiss.seat_round(2, field, [first], results, 4, "club-night")
    assert swiss.repeat_pairs(cut, met) == 6
    assert second == (("Hal", "Eli", "Bo", "Dee"), ("Ada", "Gus", "Cai", "Fay"))
    assert swiss.repeat_pairs(second, met) == 4


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(1, 40),
    size=st.integers(3, 6),
    fewest=st.integers(2, 6),
    seed=st.text(max_size=4),
    rounds=st.integers(1, 4),
)
def test_every_active_player_is_seated_or_has_a_bye_and_byes_are_spread(
    n: int, size: int, fewest: int, seed: str, rounds: int
) -> None:
    fewest = min(fewest, size)
    field = entrants(n)
    history: list[swiss.Seating] = []
    results: list[TableResult] = []
    had: list[str] = []
    for number in range(1, rounds + 1):
        seating, out = swiss.seat_round(number, field, history, results, size, seed, fewest, had)
        assert sorted(seated(seating) + list(out)) == sorted(e.id for e in field)
        assert all(fewest <= len(t) <= size + 1 for t in seating)
        if len(set(had)) + len(out) <= n:
            assert not set(out) & set(had)  # nobody gets a second bye before everyone a first
        history.append(seating)
        results.extend(finish(t) for t in seating)
        had.extend(out)


def test_a_bye_is_worth_a_tables_average_and_counts_no_table() -> None:
    field = entrants(5)
    result = finish(("p000", "p001", "p002", "p003"))
    rows = {r.player: r for r in swiss.standings(field, [result], "s", byes=["p004"])}
    assert rows["p004"].points == swiss.BYE_POINTS == Fraction(3, 2)
    assert rows["p004"].tables == 0 and rows["p004"].mates_average == 0
