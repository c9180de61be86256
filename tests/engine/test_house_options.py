"""House-rule options as a whole (names, defaults, ranges, presets) and the scoring and
view rules: doubleScore and handReveal (docs/rules.md "House rules")."""

from __future__ import annotations

from typing import Any

import pytest
from uno_helpers import play, position, run_setup

from engine import PRESETS, InvalidRules, apply, describe_options, rules_from_json, view_for

# The names outside programs rely on (docs/rules.md), with today's behaviour as default.
HOUSE_DEFAULTS: dict[str, Any] = {
    "stackDrawFour": False,
    "crossStack": "none",
    "reverseDeflect": False,
    "skipDeflect": False,
    "forcedPlay": False,
    "forcedPlayDrawn": False,
    "blindDraw": False,
    "bomb": False,
    "strictUno": False,
    "misplayPenalty": False,
    "noWildFinish": False,
    "doubleScore": False,
    "handReveal": 0,
    "shuffleSeats": False,
    "placings": False,
    "blitzSeconds": 0,
}


def test_every_house_rule_option_exists_with_a_default_that_keeps_todays_rules() -> None:
    defaults = {o["name"]: o["default"] for o in describe_options()}
    assert {name: defaults.get(name) for name in HOUSE_DEFAULTS} == HOUSE_DEFAULTS
    assert rules_from_json({}) == rules_from_json(HOUSE_DEFAULTS)


def test_cross_stack_takes_its_four_choices() -> None:
    options = {o["name"]: o for o in describe_options()}
    assert options["crossStack"]["choices"] == [
        "none",
        "drawTwoOnDrawFour",
        "drawFourOnDrawTwo",
        "both",
    ]
    with pytest.raises(InvalidRules) as err:
        rules_from_json({"crossStack": "sideways"})
    assert err.value.code == "rules/bad_value" and "crossStack" in err.value.message


@pytest.mark.parametrize(
    ("value", "ok"), [(0, True), (1, False), (4, False), (5, True), (30, True), (31, False)]
)
def test_hand_reveal_is_off_at_zero_else_five_to_thirty(value: int, ok: bool) -> None:
    if ok:
        assert rules_from_json({"handReveal": value}).hand_reveal == value
    else:
        with pytest.raises(InvalidRules) as err:
            rules_from_json({"handReveal": value})
        assert "handReveal" in err.value.message
    option = {o["name"]: o for o in describe_options()}["handReveal"]
    assert (option["min"], option["lowestOn"], option["max"]) == (0, 5, 30)


@pytest.mark.parametrize("preset", ["party", "crazy"])
def test_party_and_crazy_presets_exist_and_make_valid_rules(preset: str) -> None:
    assert preset in PRESETS
    rules = rules_from_json({"preset": preset})
    assert rules.preset == preset


def test_party_preset_gathers_stacking_both_ways_jump_in_seven_zero_forced_play_draw_to_match() -> (
    None
):
    rules = rules_from_json({"preset": "party"})
    assert (rules.stacking, rules.cross_stack, rules.jump_in, rules.seven_zero) == (
        True,
        "both",
        True,
        True,
    )
    assert (rules.forced_play, rules.draw_to_match) == (True, True)


# --- doubleScore -----------------------------------------------------------------------------


@pytest.mark.parametrize(("double", "factor"), [(False, 1), (True, 2)])
def test_double_score_counts_each_deal_twice(double: bool, factor: int) -> None:
    result = run_setup(
        ["R5", "G1 G2", "Y4 W"],
        "R7",
        rules={"doubleScore": double},
        actions=[play(0, "R5")],
    )
    state = result["state"]
    assert state["dealScores"] == [factor * (1 + 2 + 4 + 50), 0, 0]
    assert state["totals"] == state["dealScores"]


# --- handReveal ------------------------------------------------------------------------------


def test_hand_reveal_shows_a_big_hand_to_everyone_and_no_other() -> None:
    state = position(
        ["R5 R6", "R1 G2 G3 G4 G5", "Y4 Y5 Y6 Y7"], "R7", draw="B1 B2", rules={"handReveal": 5}
    )
    for seat in (None, 0, 1, 2):
        view = view_for(state, seat)
        assert view["shownHands"] == [None, ["R1", "G2", "G3", "G4", "G5"], None]
    state, _ = apply(state, 0, play(0, "R5", uno=True))
    state, _ = apply(state, 1, play(1, "R1"))
    assert view_for(state, 2)["shownHands"] == [None, None, None]


def test_hand_reveal_off_views_carry_no_shown_hands() -> None:
    state = position(["R5", "G1 G2 G3 G4 G5 G6", "Y4"], "R7")
    assert view_for(state, 0)["shownHands"] is None


# --- shuffleSeats ----------------------------------------------------------------------------


def test_shuffle_seats_off_keeps_the_rooms_order() -> None:
    from engine.shuffle_seats import seat_order

    assert seat_order(rules_from_json({}), 6, "seed") == [0, 1, 2, 3, 4, 5]


def test_shuffle_seats_draws_a_permutation_from_the_seed_alone() -> None:
    from engine.shuffle_seats import seat_order

    rules = rules_from_json({"shuffleSeats": True})
    orders = {tuple(seat_order(rules, 6, f"seed{n}")) for n in range(20)}
    assert all(sorted(order) == list(range(6)) for order in orders)
    assert len(orders) > 1
    assert seat_order(rules, 6, "seed3") == seat_order(rules, 6, "seed3")
