"""House rules that answer a pending draw penalty: stackDrawFour, crossStack, and the
Reverse and Skip deflects (engine/stacking.py, docs/rules.md "House rules")."""

from __future__ import annotations

import pytest
from uno_helpers import cards, draw, events_of, outcomes, play, position, refused, run_setup

from engine import InvalidRules, apply, legal_actions, rules_from_json

DRAW = "B1 B2 B3 B4 B5 B6 B7 B8 B9 B0"


def test_stack_draw_four_stacks_wild_draw_fours_without_draw_two_stacking() -> None:
    result = run_setup(
        ["W+4 R1", "W+4 G1 R+2", "Y4 Y5"],
        "R7",
        draw=DRAW,
        rules={"stackDrawFour": True},
        actions=[play(0, "W+4", "G"), play(1, "W+4", "B"), draw(2)],
    )
    assert outcomes(result) == ["ok", "ok", "ok"]
    assert result["state"]["hands"][2] == cards("Y4 Y5 B1 B2 B3 B4 B5 B6 B7 B8")


def test_stack_draw_four_alone_leaves_a_draw_two_drawn_at_once() -> None:
    result = run_setup(
        ["R+2 R1", "G+2 G1", "Y4"],
        "R7",
        draw=DRAW,
        rules={"stackDrawFour": True},
        actions=[play(0, "R+2"), play(1, "G+2")],
    )
    assert outcomes(result) == ["ok", "not_your_turn"]
    assert result["state"]["hands"][1] == cards("G+2 G1 B1 B2")


def test_stack_draw_four_clashes_with_stacking_that_forbids_it() -> None:
    with pytest.raises(InvalidRules) as err:
        rules_from_json({"stacking": True, "stackWildDrawFour": False, "stackDrawFour": True})
    assert err.value.code == "rules/clash"
    assert "stackDrawFour" in err.value.message and "stackWildDrawFour" in err.value.message


@pytest.mark.parametrize(
    ("cross", "first", "second", "expected"),
    [
        ("drawTwoOnDrawFour", "W+4", "G+2", "ok"),
        ("drawTwoOnDrawFour", "R+2", "W+4", "not_your_turn"),  # the Draw Two is drawn at once
        ("drawFourOnDrawTwo", "R+2", "W+4", "ok"),
        ("drawFourOnDrawTwo", "W+4", "G+2", "penalty_pending"),
        ("both", "W+4", "G+2", "ok"),
        ("both", "R+2", "W+4", "ok"),
        ("none", "W+4", "G+2", "penalty_pending"),  # pending only for the challenge
    ],
)
def test_cross_stack_lets_each_direction_as_chosen(
    cross: str, first: str, second: str, expected: str
) -> None:
    result = run_setup(
        [f"{first} R1", f"{second} G1", "Y4"],
        "R7",
        draw=DRAW,
        rules={"crossStack": cross},
        actions=[play(0, first, "G"), play(1, second, "G")],
    )
    assert outcomes(result) == ["ok", expected]


def test_cross_stacked_penalty_adds_up_and_the_next_victim_draws_it_all() -> None:
    result = run_setup(
        ["W+4 R1", "G+2 G1", "Y4"],
        "R7",
        draw=DRAW,
        rules={"crossStack": "drawTwoOnDrawFour"},
        actions=[play(0, "W+4", "G"), play(1, "G+2"), draw(2)],
    )
    assert outcomes(result) == ["ok", "ok", "ok"]
    state = result["state"]
    assert state["hands"][2] == cards("Y4 B1 B2 B3 B4 B5 B6")
    assert (state["turn"], state["pendingDraw"]) == (0, 0)


def test_a_draw_two_laid_on_a_wild_draw_four_ends_its_challenge() -> None:
    state = position(["W+4 R1", "G+2 G1", "Y4"], "R7", draw=DRAW, rules={"crossStack": "both"})
    state, _ = apply(state, 0, play(0, "W+4", "G"))
    assert "challenge" in [a.type for a in legal_actions(state, 1)]
    state, _ = apply(state, 1, play(1, "G+2"))
    assert "challenge" not in [a.type for a in legal_actions(state, 2)]
    assert refused(state, 2, {"type": "challenge"}).code == "nothing_to_challenge"


def test_reverse_deflect_sends_the_penalty_back_to_the_player_who_laid_it() -> None:
    result = run_setup(
        ["R+2 R1", "RR G1", "Y4"],
        "R7",
        draw=DRAW,
        rules={"reverseDeflect": True},
        actions=[play(0, "R+2"), play(1, "RR"), draw(0)],
    )
    assert outcomes(result) == ["ok", "ok", "ok"]
    deflect = [e for e in events_of(result, 1) if e["type"] == "deflect"]
    assert deflect == [{"type": "deflect", "seat": 1, "card": "R", "target": 0, "pending": 2}]
    state = result["state"]
    assert state["hands"][0] == cards("R1 B1 B2")
    assert state["direction"] == -1
    assert state["turn"] == 2  # after the penalty, play goes on the reversed way


def test_skip_deflect_passes_the_penalty_on_to_the_next_player() -> None:
    result = run_setup(
        ["R+2 R1", "RS G1", "Y4 Y5"],
        "R7",
        draw=DRAW,
        rules={"skipDeflect": True},
        actions=[play(0, "R+2"), play(1, "RS"), draw(2)],
    )
    assert outcomes(result) == ["ok", "ok", "ok"]
    state = result["state"]
    assert state["hands"][2] == cards("Y4 Y5 B1 B2")
    assert (state["turn"], state["direction"]) == (0, 1)


def test_a_deflect_must_match_the_colour_in_force_or_the_top_symbol() -> None:
    state = position(
        ["R+2 R1 R3", "GS BR G1", "Y4"],
        "R7",
        draw=DRAW,
        rules={"skipDeflect": True, "reverseDeflect": True},
    )
    state, _ = apply(state, 0, play(0, "R+2"))
    assert refused(state, 1, play(1, "GS")).code == "penalty_pending"
    assert refused(state, 1, play(1, "BR")).code == "penalty_pending"
    assert [a.type for a in legal_actions(state, 1)] == ["draw"]


def test_a_deflected_penalty_can_be_deflected_again_by_a_matching_symbol() -> None:
    result = run_setup(
        ["R+2 R1", "RS G1", "BS Y5"],
        "R7",
        draw=DRAW,
        rules={"skipDeflect": True},
        actions=[play(0, "R+2"), play(1, "RS"), play(2, "BS"), draw(0)],
    )
    assert outcomes(result) == ["ok", "ok", "ok", "ok"]
    assert result["state"]["hands"][0] == cards("R1 B1 B2")


def test_a_wild_draw_four_deflected_cannot_be_challenged_any_more() -> None:
    state = position(
        ["W+4 R1 R2", "GR G1 G2", "Y4"], "R7", draw=DRAW, rules={"reverseDeflect": True}
    )
    state, _ = apply(state, 0, play(0, "W+4", "G"))
    state, events = apply(state, 1, play(1, "GR"))
    assert state.turn == 0 and state.pending == 4
    assert "challenge" not in [a.type for a in legal_actions(state, 0)]


def test_deflecting_with_the_last_card_still_makes_the_new_victim_draw() -> None:
    result = run_setup(
        ["R+2 R1", "RS", "Y4"],
        "R7",
        draw=DRAW,
        rules={"skipDeflect": True},
        actions=[play(0, "R+2"), play(1, "RS")],
    )
    assert outcomes(result) == ["ok", "ok"]
    state = result["state"]
    assert state["hands"][2] == cards("Y4 B1 B2")
    assert state["phase"] in ("dealOver", "matchOver")
    assert state["dealScores"][1] == 1 + 4 + 1 + 2  # R1, and Y4 B1 B2


def test_with_no_house_stacking_rule_skip_and_reverse_cannot_answer_a_penalty() -> None:
    state = position(["R+2 R1", "RS RR G1", "Y4"], "R7", draw=DRAW, rules={"stacking": True})
    state, _ = apply(state, 0, play(0, "R+2"))
    assert refused(state, 1, play(1, "RS")).code == "penalty_pending"
