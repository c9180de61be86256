"""Hand limit (engine/hand_limit.py, docs/rules.md "House rules"): a hand at the limit
stops drawing, or is out of the deal."""

from __future__ import annotations

import pytest
from uno_helpers import cards, draw, play, position

from engine import InvalidRules, apply, legal_actions, rules_from_json, view_for

EIGHT = "G1 G2 G3 G4 G5 G6 G7"  # seven cards: one more reaches a limit of 8
STOP = {"handLimit": 8, "handLimitRule": "stopDrawing"}
OUT = {"handLimit": 8, "handLimitRule": "out"}


@pytest.mark.parametrize(
    ("value", "ok"), [(0, True), (7, False), (8, True), (30, True), (31, False)]
)
def test_hand_limit_is_off_at_zero_else_eight_to_thirty(value: int, ok: bool) -> None:
    if ok:
        assert rules_from_json({"handLimit": value}).hand_limit == value
    else:
        with pytest.raises(InvalidRules) as err:
            rules_from_json({"handLimit": value})
        assert "handLimit" in err.value.message


def test_stop_drawing_a_penalty_takes_only_what_fits() -> None:
    state = position(["R+2 R1", EIGHT, "Y4 Y5"], "R7", draw="B1 B2 B3", rules=STOP)
    state, _ = apply(state, 0, play(0, "R+2"))
    assert state.hands[1] == (*cards(EIGHT), "B1")
    assert state.turn == 2


def test_stop_drawing_a_full_hand_draws_nothing_and_the_turn_passes() -> None:
    state = position(["R1 R2", f"{EIGHT} Y9", "Y4 Y5"], "R7", draw="B1 B2", turn=1, rules=STOP)
    state, events = apply(state, 1, draw(1))
    assert len(state.hands[1]) == 8 and state.turn == 2
    assert state.draw_pile == ("B2", "B1")


def test_out_a_hand_reaching_the_limit_leaves_the_deal_and_is_skipped() -> None:
    state = position(["R+2 R1 R3", EIGHT, "Y4 Y5", "R6 B7"], "R7", draw="B1 B2 B3", rules=OUT)
    state, events = apply(state, 0, play(0, "R+2"))
    assert state.out == (False, True, False, False)
    assert {"type": "handLimit", "seats": [1]} in events
    assert state.turn == 2
    assert legal_actions(state, 1) == []
    assert view_for(state, 0)["players"][1]["out"] is True


def test_out_the_last_player_left_wins_the_deal_and_everyone_is_back_next_deal() -> None:
    state = position(["R+2 R1", EIGHT], "R7", draw="B1 B2 B3", rules=OUT)
    state, events = apply(state, 0, play(0, "R+2"))
    assert state.phase == "dealOver" and state.winner == 0
    # winnerCollects: the seat out of the deal pays for the hand it holds.
    assert state.deal_scores == (sum(range(1, 8)) + 1 + 2, 0)
    state, _ = apply(state, 1, {"type": "nextDeal"})
    assert state.out == (False, False)
    assert all(len(h) == 7 for h in state.hands)
