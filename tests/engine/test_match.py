"""Scoring and the end of the match (docs/rules.md), through deals the engine ends.

Every test sets up a position where seat 0 goes out with its one card, so the deal scores,
totals and match result are computed by the engine itself from the hands left.
"""

from __future__ import annotations

from typing import Any

from uno_helpers import events_of, next_deal, play, position, refused, run_setup

from engine import State, apply, legal_actions, rules_from_json
from engine.cards import CARD_INFO, classic108
from engine.scoring import hand_value, places


def go_out(
    others: list[str],
    rules: dict[str, Any] | None = None,
    totals: list[int] | None = None,
    last: str = "R1",
) -> dict[str, Any]:
    """Seat 0 plays its last card ``last`` on a red 7; ``others`` are the other hands."""
    return run_setup(
        [last, *others],
        "R7",
        rules=rules,
        totals=totals,
        actions=[play(0, last, "R" if last.startswith("W") else None)],
    )


# --- deal scores ---------------------------------------------------------------------------


def test_winner_collects_scores_everyone_elses_hands() -> None:
    result = go_out(["G2 GS W", "B+2 W+4 Y9"])
    state = result["state"]
    assert state["phase"] == "dealOver"
    assert state["dealScores"] == [(2 + 20 + 50) + (20 + 50 + 9), 0, 0]
    assert state["totals"] == [151, 0, 0]
    assert state["winner"] == 0


def test_own_hand_counts_each_player_scores_their_own_hand() -> None:
    result = go_out(["G2 GS W", "B+2 W+4 Y9"], rules={"scoringMode": "ownHandCounts"})
    assert result["state"]["dealScores"] == [0, 72, 79]
    assert result["state"]["totals"] == [0, 72, 79]


def test_number_cards_flat_ten_scores_every_number_card_ten() -> None:
    """Engine's reading of flatTen: every number card, the 0 included, is worth 10."""
    result = go_out(["G2 G0", "Y9"], rules={"numberCards": "flatTen"})
    assert result["state"]["dealScores"] == [30, 0, 0]
    result = go_out(["G2 G0", "Y9"])
    assert result["state"]["dealScores"] == [11, 0, 0]


def test_action_value_sets_skip_reverse_and_draw_two_points() -> None:
    result = go_out(["GS GR", "B+2 Y1"], rules={"actionValue": 35})
    assert result["state"]["dealScores"] == [3 * 35 + 1, 0, 0]


def test_wild_value_sets_wild_points() -> None:
    result = go_out(["W", "W G1 W+4"], rules={"wildValue": 15})
    assert result["state"]["dealScores"] == [15 + 15 + 1 + 50, 0, 0]


def test_wild_draw_four_value_sets_wild_draw_four_points() -> None:
    result = go_out(["W+4", "W Y3"], rules={"wildDrawFourValue": 100})
    assert result["state"]["dealScores"] == [100 + 50 + 3, 0, 0]


def test_a_full_deck_is_worth_1240_at_default_values() -> None:
    rules = rules_from_json({})
    deck = classic108()
    assert hand_value(deck, rules) == 1240
    assert hand_value([c for c in deck if CARD_INFO[c].is_number], rules) == 360
    assert hand_value([c for c in deck if c in ("W", "W+4")], rules) == 400
    assert hand_value(deck * 2, rules) == 2480


def test_deal_scores_are_null_while_a_deal_is_on() -> None:
    result = run_setup(["R1 R2", "G2", "Y4"], "R7", actions=[play(0, "R1")])
    assert result["state"]["dealScores"] is None
    assert result["state"]["winner"] is None


def test_totals_carry_over_into_the_next_deal() -> None:
    state = position(["R1", "G2 G3", "Y4"], "R7", totals=[40, 5, 0])
    state, _ = apply(state, 0, play(0, "R1"))
    assert state.totals == (49, 5, 0)
    state, _ = apply(state, 2, next_deal(2))
    assert (state.deal, state.totals) == (2, (49, 5, 0))
    assert (state.deal_scores, state.winner) == (None, None)


# --- when the match ends -------------------------------------------------------------------


def test_target_score_reached_ends_the_match() -> None:
    result = go_out(["G2 G3", "Y4"], rules={"targetScore": 100}, totals=[95, 0, 0])
    state = result["state"]
    assert (state["phase"], state["matchOver"], state["winner"]) == ("matchOver", True, 0)
    assert state["totals"] == [104, 0, 0]
    assert any(e["type"] == "matchOver" for e in events_of(result, 0))


def test_target_score_not_reached_the_match_goes_on() -> None:
    result = go_out(["G2 G3", "Y4"], rules={"targetScore": 150}, totals=[95, 0, 0])
    state = result["state"]
    assert (state["phase"], state["matchOver"], state["winner"]) == ("dealOver", False, 0)


def test_target_score_defaults_to_500() -> None:
    assert go_out(["G2 G3", "Y4"], totals=[490, 0, 0])["state"]["phase"] == "dealOver"
    assert go_out(["G2 G3", "Y5"], totals=[490, 0, 0])["state"]["phase"] == "matchOver"


def test_round_limit_ends_the_match_after_that_many_deals() -> None:
    result = go_out(["G2 G3", "Y4"], rules={"roundLimit": 1})
    assert result["state"]["phase"] == "matchOver"
    result = go_out(["G2 G3", "Y4"], rules={"roundLimit": 2})
    assert result["state"]["phase"] == "dealOver"


def test_round_limit_counts_deals_played() -> None:
    state = position(["R1", "G2", "Y4"], "R7", rules={"roundLimit": 3})
    data = state.to_json()
    data["deal"] = 3
    state, _ = apply(State.from_json(data), 0, play(0, "R1"))
    assert state.phase == "matchOver"
    data["deal"] = 2
    state, _ = apply(State.from_json(data), 0, play(0, "R1"))
    assert state.phase == "dealOver"


def test_winner_collects_highest_total_wins_not_the_deal_winner() -> None:
    result = run_setup(
        ["G2 G3", "R1", "Y4"],
        "R7",
        turn=1,
        rules={"roundLimit": 1},
        totals=[300, 0, 0],
        actions=[play(1, "R1")],
    )
    state = result["state"]
    assert state["totals"] == [300, 9, 0]
    assert (state["phase"], state["winner"]) == ("matchOver", 0)


def test_own_hand_counts_lowest_wins_even_though_someone_else_reached_the_target() -> None:
    result = go_out(
        ["G9 G8 G3", "Y4 Y1"], rules={"scoringMode": "ownHandCounts"}, totals=[300, 490, 100]
    )
    state = result["state"]
    assert state["totals"] == [300, 510, 105]
    assert (state["phase"], state["winner"]) == ("matchOver", 2)


def test_own_hand_counts_match_goes_on_below_the_target() -> None:
    result = go_out(["G9", "Y4"], rules={"scoringMode": "ownHandCounts"}, totals=[0, 400, 0])
    assert result["state"]["phase"] == "dealOver"


def test_tie_for_first_place_gives_no_match_winner() -> None:
    result = go_out(["R0", "Y9 Y1"], rules={"scoringMode": "ownHandCounts"}, totals=[100, 100, 490])
    state = result["state"]
    assert state["totals"] == [100, 100, 500]
    assert (state["phase"], state["winner"]) == ("matchOver", None)


def test_tie_for_first_place_under_winner_collects_gives_no_match_winner() -> None:
    result = go_out(["G5 G5", "Y0"], rules={"roundLimit": 1}, totals=[100, 110, 0])
    state = result["state"]
    assert state["totals"] == [110, 110, 0]
    assert (state["phase"], state["winner"]) == ("matchOver", None)


def test_equal_totals_share_a_place() -> None:
    assert places([100, 100, 500], lowest_wins=True) == [1, 1, 3]
    assert places([100, 100, 500], lowest_wins=False) == [2, 2, 1]
    assert places([7, 3, 7, 1], lowest_wins=False) == [1, 3, 1, 4]


def test_no_next_deal_after_the_match_is_over() -> None:
    state = position(["R1", "G2", "Y4"], "R7", rules={"roundLimit": 1})
    state, _ = apply(state, 0, play(0, "R1"))
    assert refused(state, 1, next_deal(1)).code == "wrong_phase"
    assert legal_actions(state, 1) == []


# --- one and done --------------------------------------------------------------------------


def test_one_and_done_first_player_out_wins_the_match() -> None:
    result = go_out(["G2 G3", "Y4"], rules={"preset": "oneAndDone"}, totals=[0, 0, 0])
    state = result["state"]
    assert (state["phase"], state["matchOver"], state["winner"]) == ("matchOver", True, 0)


def test_one_and_done_ends_even_when_another_seat_leads_on_points() -> None:
    result = go_out(["G2 G3", "Y4"], rules={"preset": "oneAndDone"}, totals=[0, 400, 0])
    assert (result["state"]["phase"], result["state"]["winner"]) == ("matchOver", 0)


# --- knockout ------------------------------------------------------------------------------

KNOCKOUT = {"preset": "knockout", "targetScore": 100}


def test_knockout_scores_own_hands() -> None:
    result = go_out(["G5 G1", "Y1"], rules=KNOCKOUT)
    assert result["state"]["dealScores"] == [0, 6, 1]


def test_knockout_seat_reaching_the_target_is_knocked_out() -> None:
    result = go_out(["G5", "Y1"], rules=KNOCKOUT, totals=[0, 95, 98])
    state = result["state"]
    assert state["totals"] == [0, 100, 99]
    assert state["out"] == [False, True, False]
    assert state["phase"] == "dealOver"
    assert {"type": "knockedOut", "seats": [1]} in events_of(result, 0)


def _after_knockout() -> State:
    state = position(["R1", "G5", "Y1"], "R7", rules=KNOCKOUT, totals=[0, 95, 0])
    state, _ = apply(state, 0, play(0, "R1"))
    assert state.out == (False, True, False)
    return state


def test_knocked_out_seat_is_skipped_in_dealing_and_the_dealer_rotation() -> None:
    state, events = apply(_after_knockout(), 0, next_deal(0))
    assert state.dealer == 2  # seat 1 is out: the deal passes from 0 to 2
    assert state.hands[1] == ()
    first = state.discard[-1]
    extra = 2 if first[1:] == "+2" else 0
    assert sorted([len(state.hands[0]), len(state.hands[2])]) == sorted([7, 7 + extra])
    assert state.turn != 1


def test_knocked_out_seat_is_skipped_in_turn_order_and_cannot_act() -> None:
    state, _ = apply(_after_knockout(), 0, next_deal(0))
    data = state.to_json()
    data.update(phase="playing", turn=0, color="R", direction=1, pending=0, drawn=None)
    data["hands"] = [["R1", "R2"], [], ["R3", "R4"]]
    data["discard"] = data["discard"] + ["R9"]
    state = State.from_json(data)
    state, _ = apply(state, 0, play(0, "R1"))
    assert state.turn == 2
    assert refused(state, 1, {"type": "draw"}).code == "knocked_out"
    assert legal_actions(state, 1) == []


def test_knockout_last_remaining_player_wins() -> None:
    result = go_out(["G5", "Y5"], rules=KNOCKOUT, totals=[0, 95, 95])
    state = result["state"]
    assert state["out"] == [False, True, True]
    assert (state["phase"], state["winner"]) == ("matchOver", 0)
