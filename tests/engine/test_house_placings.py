"""Placings and blitz (engine/placings.py, engine/blitz.py, docs/rules.md "House rules"):
play on until one player is left and score every going out; a match clock that runs out
ends the deal as it stands and the match."""

from __future__ import annotations

import pytest
from uno_helpers import play, position

from engine import IllegalAction, InvalidRules, apply, legal_actions, rules_from_json, view_for


def _places(state: object) -> list[int | None]:
    return [p["place"] for p in view_for(state, 0)["players"]]


def test_the_first_player_out_leaves_the_deal_with_a_place_and_play_goes_on() -> None:
    state = position(["R5", "G1 G2", "Y9 R8", "B3 B4"], "R7", rules={"placings": True})
    state, events = apply(state, 0, play(0, "R5"))
    assert state.phase == "playing" and state.out == (True, False, False, False)
    assert state.turn == 1 and legal_actions(state, 0) == []
    # The going out is scored at once: seat 0 collects every hand still in the deal.
    assert state.place_points == (1 + 2 + 9 + 8 + 3 + 4, 0, 0, 0)
    assert {"type": "placed", "seat": 0, "place": 1} in events
    assert _places(state) == [1, None, None, None]
    assert [p["out"] for p in view_for(state, 2)["players"]] == [True, False, False, False]


def test_every_going_out_scores_the_hands_still_in_the_deal() -> None:
    rules = {"placings": True}
    state = position(["R5", "G1 G2", "R9", "B3 B4"], "R7", rules=rules, turn=2, draw="Y1")
    state, _ = apply(state, 2, play(2, "R9"))  # 1st: 5 + 1 + 2 + 3 + 4
    assert state.place_points == (0, 0, 15, 0)
    state, _ = apply(state, 3, {"type": "draw"})  # Y1 matches nothing: the turn passes
    state, _ = apply(state, 0, play(0, "R5"))  # 2nd: 1 + 2 + 3 + 4 + 1
    assert state.phase == "playing" and state.out == (True, False, True, False)
    assert state.place_points == (11, 0, 15, 0) and _places(state) == [2, None, 1, None]
    assert state.turn == 1


def test_two_left_the_next_to_last_going_out_ends_the_deal() -> None:
    state = position(["R5", "G1 G2", "R9"], "R7", rules={"placings": True}, draw="Y1")
    state, _ = apply(state, 0, play(0, "R5"))  # 1st: collects 1 + 2 + 9
    state, _ = apply(state, 1, {"type": "draw"})  # Y1 matches nothing
    state, events = apply(state, 2, play(2, "R9"))  # 2nd: collects seat 1's G1 G2 Y1
    assert state.phase == "dealOver" and state.winner == 0
    assert state.deal_scores == (12, 0, 4)
    assert state.totals == state.deal_scores
    assert _places(state) == [1, 3, 2]
    assert state.out == (False, False, False)  # everyone is back for the next deal


def test_own_hand_counts_a_hand_counts_at_every_going_out_it_sits_through() -> None:
    rules = {"placings": True, "scoringMode": "ownHandCounts"}
    state = position(["R5", "G1 G2", "R9"], "R7", rules=rules)
    state, _ = apply(state, 0, play(0, "R5"))
    assert state.place_points == (0, 3, 9)


def test_a_last_card_skip_still_skips() -> None:
    state = position(["RS", "G1 G2", "Y9 Y8", "B3 B4"], "R7", rules={"placings": True})
    state, events = apply(state, 0, play(0, "RS"))
    assert state.turn == 2 and any(e["type"] == "skip" for e in events)


def test_a_last_card_draw_two_makes_the_next_player_draw() -> None:
    rules = {"placings": True}
    state = position(["R+2", "G1 G2", "Y9 Y8", "B3 B4"], "R7", rules=rules, draw="Y1 Y2")
    state, _ = apply(state, 0, play(0, "R+2"))
    assert len(state.hands[1]) == 4 and state.turn == 2


def test_two_players_score_as_without_placings() -> None:
    plain = position(["R5", "G1 G2"], "R7")
    placed = position(["R5", "G1 G2"], "R7", rules={"placings": True})
    a, _ = apply(plain, 0, play(0, "R5"))
    b, _ = apply(placed, 0, play(0, "R5"))
    assert a.deal_scores == b.deal_scores == (3, 0) and b.phase == "dealOver"


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"teams": 2}, "teams"),
        ({"matchMode": "knockout"}, "knockout"),
        ({"handLimit": 10, "handLimitRule": "out"}, "handLimit"),
    ],
)
def test_placings_clashes_are_refused_naming_both(options: dict, named: str) -> None:
    with pytest.raises(InvalidRules) as err:
        rules_from_json({"placings": True, **options})
    assert err.value.code == "rules/clash"
    assert "placings" in err.value.message and named in err.value.message


def test_placings_with_stop_drawing_and_one_and_done_are_allowed() -> None:
    rules_from_json({"placings": True, "handLimit": 10, "handLimitRule": "stopDrawing"})
    state = position(["R5", "G1 G2", "R9"], "R7", rules={"placings": True, "preset": "oneAndDone"})
    state, _ = apply(state, 0, play(0, "R5"))
    assert state.phase == "playing"


# --- blitz ------------------------------------------------------------------------------


def test_a_clock_out_ends_the_deal_as_it_stands_and_the_match() -> None:
    state = position(["R5 R6", "G1 G2", "Y9 Y8"], "R7", rules={"blitzSeconds": 60})
    state, events = apply(state, 0, {"type": "clockOut"})
    assert events[0] == {"type": "clockOut", "seat": 0}
    # Seat 1 holds the smallest hand: counted as going out, it collects every other hand.
    assert state.winner != 0 and state.phase == "matchOver"
    assert state.deal_scores == (0, 5 + 6 + 9 + 8, 0)
    assert state.winner == 1


def test_the_flagged_player_cannot_win_the_match() -> None:
    state = position(
        ["R5 R6", "G1 G2", "Y9 Y8"], "R7", rules={"blitzSeconds": 60}, totals=[400, 0, 10]
    )
    state, _ = apply(state, 1, {"type": "clockOut"})
    # Seat 0 counts as out (smallest hand but seat 1's, which is flagged) and wins on totals.
    assert state.phase == "matchOver" and state.winner == 0


def test_clock_out_is_refused_without_blitz_and_between_deals() -> None:
    state = position(["R5 R6", "G1 G2"], "R7")
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, {"type": "clockOut"})
    assert err.value.code == "no_blitz"
    state = position(["R5", "G1 G2"], "R7", rules={"blitzSeconds": 60})
    state, _ = apply(state, 0, play(0, "R5"))
    assert state.phase == "dealOver"
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, {"type": "clockOut"})
    assert err.value.code == "wrong_phase"
    assert all(a.type != "clockOut" for s in range(2) for a in legal_actions(state, s))


def test_clock_out_under_placings_keeps_the_places_already_won() -> None:
    rules = {"placings": True, "blitzSeconds": 60}
    state = position(["R5", "G1 G2", "Y9 Y8", "B3 B4"], "R7", rules=rules)
    state, _ = apply(state, 0, play(0, "R5"))
    first = state.place_points[0]
    state, _ = apply(state, 2, {"type": "clockOut"})
    assert state.phase == "matchOver" and state.winner != 2
    assert state.deal_scores[0] == first
    assert _places(state)[0] == 1 and _places(state)[2] == 4


def test_blitz_seconds_range() -> None:
    assert rules_from_json({"blitzSeconds": 0}).blitz_seconds == 0
    assert rules_from_json({"blitzSeconds": 3600}).blitz_seconds == 3600
    for bad in (1, 59, 3601):
        with pytest.raises(InvalidRules):
            rules_from_json({"blitzSeconds": bad})
