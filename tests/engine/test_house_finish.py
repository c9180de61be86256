"""House rules of calling, finishing and misplaying: strictUno, noWildFinish, bomb and
misplayPenalty (docs/rules.md "House rules")."""

from __future__ import annotations

import pytest
from uno_helpers import (
    call_uno,
    cards,
    catch_uno,
    draw,
    outcomes,
    play,
    position,
    refused,
    run_setup,
)

from engine import InvalidRules, apply, legal_actions, parse_action, rules_from_json
from engine.misplay import penalty_for

# --- strictUno -------------------------------------------------------------------------------


def test_strict_uno_refuses_a_call_after_the_next_to_last_card_left() -> None:
    result = run_setup(
        ["R5 R6", "G1 G2", "Y4"],
        "R7",
        draw="B1 B2 B3",
        rules={"strictUno": True},
        actions=[play(0, "R5"), call_uno(0), catch_uno(1, 0)],
    )
    assert outcomes(result) == ["ok", "too_late", "ok"]
    assert result["state"]["hands"][0] == cards("R6 B1 B2")


def test_strict_uno_a_call_with_the_play_is_safe() -> None:
    result = run_setup(
        ["R5 R6", "G1 G2", "Y4"],
        "R7",
        draw="B1 B2 B3",
        rules={"strictUno": True},
        actions=[play(0, "R5", uno=True), catch_uno(1, 0)],
    )
    assert outcomes(result) == ["ok", "too_late"]  # called: nothing to catch


def test_strict_uno_a_call_before_the_play_is_safe() -> None:
    result = run_setup(
        ["R5 R6", "G1 G2", "Y4"],
        "R7",
        draw="B1 B2 B3",
        rules={"strictUno": True},
        actions=[call_uno(0), play(0, "R5"), catch_uno(1, 0)],
    )
    assert outcomes(result) == ["ok", "ok", "too_late"]  # called: nothing to catch


def test_strict_uno_lists_no_late_call_for_the_exposed_player() -> None:
    state = position(["R5 R6", "G1 G2", "Y4"], "R7", rules={"strictUno": True})
    state, _ = apply(state, 0, play(0, "R5"))
    assert "callUno" not in [a.type for a in legal_actions(state, 0)]
    assert "catchUno" in [a.type for a in legal_actions(state, 1)]


def test_strict_uno_without_a_penalty_is_refused_naming_both() -> None:
    with pytest.raises(InvalidRules) as err:
        rules_from_json({"strictUno": True, "unoPenalty": 0})
    assert err.value.code == "rules/clash"
    assert "strictUno" in err.value.message and "unoPenalty" in err.value.message


# --- noWildFinish ----------------------------------------------------------------------------


@pytest.mark.parametrize("last", ["W", "W+4"])
def test_no_wild_finish_refuses_a_wild_as_the_last_card(last: str) -> None:
    state = position([last, "G1 G2", "Y4"], "R7", draw="B1", rules={"noWildFinish": True})
    assert refused(state, 0, play(0, last, "R")).code == "wild_finish_forbidden"
    assert [a.type for a in legal_actions(state, 0)] == ["draw"]


def test_no_wild_finish_allows_an_action_card_and_a_wild_before_the_last() -> None:
    rules = {"noWildFinish": True}
    assert outcomes(run_setup(["RS", "G1", "Y4"], "R7", rules=rules, actions=[play(0, "RS")])) == [
        "ok"
    ]
    result = run_setup(["W R1", "G1", "Y4"], "R7", rules=rules, actions=[play(0, "W", "R")])
    assert outcomes(result) == ["ok"]


# --- bomb ------------------------------------------------------------------------------------

BOMB = {"multiPlay": True, "bomb": True}


def test_bomb_three_of_one_number_make_every_other_player_draw_one() -> None:
    result = run_setup(
        ["R5 G5 B5 Y1", "G1 G2", "Y4"],
        "R7",
        draw="B1 B2 B3",
        rules=BOMB,
        actions=[{"seat": 0, "type": "play", "cards": ["R5", "G5", "B5"]}],
    )
    assert outcomes(result) == ["ok"]
    state = result["state"]
    assert state["hands"][1] == cards("G1 G2 B1") and state["hands"][2] == cards("Y4 B2")
    assert state["turn"] == 1


def test_bomb_two_cards_are_no_bomb() -> None:
    result = run_setup(
        ["R5 G5 Y1", "G1 G2", "Y4"],
        "R7",
        draw="B1 B2 B3",
        rules=BOMB,
        actions=[{"seat": 0, "type": "play", "cards": ["R5", "G5"]}],
    )
    assert result["state"]["hands"][1] == cards("G1 G2")


def test_bomb_going_out_the_others_draw_before_scoring() -> None:
    result = run_setup(
        ["R5 G5 B5", "G1", "Y4"],
        "R7",
        draw="B1 B2 B3",
        rules=BOMB,
        actions=[{"seat": 0, "type": "play", "cards": ["R5", "G5", "B5"], "uno": True}],
    )
    state = result["state"]
    assert state["dealScores"][0] == 1 + 1 + 4 + 2


def test_bomb_needs_multi_play() -> None:
    with pytest.raises(InvalidRules) as err:
        rules_from_json({"bomb": True})
    assert "bomb" in err.value.message and "multiPlay" in err.value.message


# --- misplayPenalty --------------------------------------------------------------------------

MISPLAY = {"misplayPenalty": True}


def test_misplay_penalty_a_refused_play_is_refused_then_costs_a_card() -> None:
    result = run_setup(
        ["G5 R1", "G1 G2", "Y4"],
        "R7",
        draw="B1 B2",
        rules=MISPLAY,
        actions=[play(0, "G5"), play(0, "R1")],
    )
    assert outcomes(result) == ["card_not_playable", "ok"]
    penalty = result["results"][0]["penalty"]["events"]
    assert [e["type"] for e in penalty] == ["misplay", "draw"]
    assert penalty[1]["reason"] == "misplay" and penalty[1]["cards"] == ["B1"]
    assert result["state"]["hands"][0] == cards("G5 B1")


def test_misplay_penalty_changes_nothing_but_the_card() -> None:
    state = position(["G5 R1", "G1 G2", "Y4"], "R7", draw="B1 B2", rules=MISPLAY)
    err = refused(state, 0, play(0, "G5"))
    action = penalty_for(state, parse_action(play(0, "G5")), err.code)
    assert action is not None and action.to_json() == {"type": "misplay", "cards": ["G5"]}
    after, _ = apply(state, 0, action)
    assert after.hands[0] == ("G5", "R1", "B1")
    assert (after.turn, after.moves, after.top, after.color) == (0, state.moves, "R7", "R")


def test_misplay_penalty_out_of_turn_play_costs_the_player_a_card() -> None:
    result = run_setup(
        ["G5 R1", "G1 G2", "Y4"], "R7", draw="B1 B2", rules=MISPLAY, actions=[play(1, "G1")]
    )
    assert outcomes(result) == ["not_your_turn"]
    assert result["state"]["hands"][1] == cards("G1 G2 B1")


@pytest.mark.parametrize(
    ("action", "rules"),
    [
        (play(0, "B9"), MISPLAY),  # not held
        ({"seat": 0, "type": "play", "cards": ["W"]}, MISPLAY),  # malformed: no colour
        (play(0, "G5"), {}),  # the rule is off
        (draw(1), MISPLAY),  # not a play
    ],
)
def test_misplay_penalty_costs_nothing_for_other_refusals(action: dict, rules: dict) -> None:
    result = run_setup(
        ["G5 R1 W", "G1 G2", "Y4"], "R7", draw="B1 B2", rules=rules, actions=[action]
    )
    assert "penalty" not in result["results"][0]
    assert result["state"]["hands"][0] == cards("G5 R1 W")


def test_misplay_action_is_refused_for_a_legal_play() -> None:
    state = position(["G5 R1", "G1 G2", "Y4"], "R7", draw="B1", rules=MISPLAY)
    err = refused(state, 0, {"type": "misplay", "cards": ["R1"]})
    assert err.code == "no_misplay"
