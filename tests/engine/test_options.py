"""Rule options (docs/rules.md), one behaviour per test, and how options are checked.

Scoring and match-end options are in ``test_match.py``; the first-card options are with
the first-card rules in ``test_classic_rules.py``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from uno_helpers import (
    call_uno,
    cards,
    catch_uno,
    challenge,
    draw,
    events_of,
    outcomes,
    pass_,
    play,
    position,
    refused,
    run_setup,
    state_cards,
)

from engine import (
    PRESETS,
    InvalidRules,
    apply,
    describe_options,
    legal_actions,
    new_match,
    rules_from_json,
    with_options,
)
from engine.cards import classic108

# --- Wild Draw Four restriction and challenge ----------------------------------------------


@pytest.mark.parametrize(
    ("restriction", "hand", "expected"),
    [
        ("noMatchingColor", "W+4 R3 G1", "wild_draw_four_restricted"),  # holds the colour
        ("noMatchingColor", "W+4 B7 G1", "ok"),  # a number match is not the colour
        ("noMatchingColor", "W+4 W G1", "ok"),
        ("noPlayableCard", "W+4 R3 G1", "wild_draw_four_restricted"),
        ("noPlayableCard", "W+4 B7 G1", "wild_draw_four_restricted"),  # a number match
        ("noPlayableCard", "W+4 G1 B2", "ok"),
        ("none", "W+4 R3 G1", "ok"),
        ("none", "W+4 B7 W", "ok"),
    ],
)
def test_wild_draw_four_restriction_with_challenge_off_refuses_illegal_play(
    restriction: str, hand: str, expected: str
) -> None:
    rules = {"wildDrawFourChallenge": False, "wildDrawFourRestriction": restriction}
    result = run_setup([hand, "G2 G3", "Y4"], "R7", rules=rules, actions=[play(0, "W+4", "B")])
    assert outcomes(result) == [expected]
    state = position([hand, "G2 G3", "Y4"], "R7", rules=rules)
    listed = any(a.cards == ("W+4",) for a in legal_actions(state, 0))
    assert listed == (expected == "ok")


def test_wild_draw_four_restriction_no_playable_card_counts_a_wild_as_playable() -> None:
    """The rule texts do not say whether a plain Wild is a "playable card" for the
    noPlayableCard restriction; the engine counts it (a Wild is always playable)."""
    rules = {"wildDrawFourChallenge": False, "wildDrawFourRestriction": "noPlayableCard"}
    result = run_setup(["W+4 W G1", "G2", "Y4"], "R7", rules=rules, actions=[play(0, "W+4", "B")])
    assert outcomes(result) == ["wild_draw_four_restricted"]


def test_wild_draw_four_bluff_is_allowed_when_the_challenge_is_on() -> None:
    result = run_setup(["W+4 R3 G1", "G2 G3", "Y4"], "R7", actions=[play(0, "W+4", "B")])
    assert outcomes(result) == ["ok"]
    assert result["state"]["pendingDraw"] == 4


@pytest.mark.parametrize(
    ("restriction", "guilty"),
    [("noMatchingColor", False), ("noPlayableCard", True), ("none", False)],
)
def test_challenge_is_judged_by_the_restriction_in_force(restriction: str, guilty: bool) -> None:
    """The offender holds B7 on a red 7: no red card, but a playable one."""
    result = run_setup(
        ["W+4 B7 G1", "G2 G3", "Y4"],
        "R7",
        draw="Y1 Y2 Y3 Y5 Y6 Y8",
        rules={"wildDrawFourRestriction": restriction},
        actions=[play(0, "W+4", "B"), challenge(1)],
    )
    assert outcomes(result) == ["ok", "ok"]
    assert events_of(result, 1)[0]["guilty"] is guilty
    hands = result["state"]["hands"]
    assert (len(hands[0]), len(hands[1])) == ((2 + 4, 2) if guilty else (2, 2 + 6))


def test_wild_draw_four_challenge_off_victim_draws_at_once_and_cannot_challenge() -> None:
    result = run_setup(
        ["W+4 G1 G5", "G2 G3", "Y4"],
        "R7",
        draw="Y1 Y2 Y3 Y5",
        rules={"wildDrawFourChallenge": False},
        actions=[play(0, "W+4", "B"), challenge(1)],
    )
    assert outcomes(result) == ["ok", "nothing_to_challenge"]
    assert result["state"]["hands"][1] == cards("G2 G3 Y1 Y2 Y3 Y5")
    assert result["state"]["turn"] == 2


# --- unoPenalty ----------------------------------------------------------------------------


def test_uno_penalty_sets_how_many_cards_a_caught_player_draws() -> None:
    result = run_setup(
        ["R1 R2", "G2 G3", "Y4"],
        "R7",
        draw="B1 B2 B3 B4 B5",
        rules={"unoPenalty": 4},
        actions=[play(0, "R1"), catch_uno(1, 0)],
    )
    assert outcomes(result) == ["ok", "ok"]
    assert result["state"]["hands"][0] == cards("R2 B1 B2 B3 B4")


def test_uno_penalty_zero_disables_catching() -> None:
    state = position(["R1 R2", "G2 G3", "Y4"], "R7", draw="B1 B2", rules={"unoPenalty": 0})
    state, _ = apply(state, 0, play(0, "R1"))
    assert state.exposed is None
    assert all(a.type != "catchUno" for s in range(3) for a in legal_actions(state, s))
    assert refused(state, 2, catch_uno(2, 0)).code == "uno_penalty_off"


def test_exposed_player_may_still_call_uno_before_being_caught() -> None:
    """The rules: a player may be caught only if they "did not call"; the engine lets a
    late call (after the play, before any catch) close the window."""
    result = run_setup(
        ["R1 R2", "G2 G3", "Y4"],
        "R7",
        draw="B1 B2",
        actions=[play(0, "R1"), call_uno(0), catch_uno(1, 0)],
    )
    assert outcomes(result) == ["ok", "ok", "too_late"]


# --- forbidActionFinish --------------------------------------------------------------------


@pytest.mark.parametrize("last", ["RS", "RR", "R+2", "W", "W+4"])
def test_forbid_action_finish_refuses_an_action_or_wild_last_card(last: str) -> None:
    rules = {"forbidActionFinish": True}
    result = run_setup([last, "G2", "Y4"], "R7", rules=rules, actions=[play(0, last, "R")])
    assert outcomes(result) == ["action_finish_forbidden"]
    state = position([last, "G2", "Y4"], "R7", rules=rules)
    assert [a.type for a in legal_actions(state, 0)] == ["draw"]


def test_forbid_action_finish_allows_a_number_last_card() -> None:
    result = run_setup(
        ["R1", "G2", "Y4"], "R7", rules={"forbidActionFinish": True}, actions=[play(0, "R1")]
    )
    assert outcomes(result) == ["ok"]
    assert result["state"]["phase"] == "dealOver"


def test_forbid_action_finish_off_lets_an_action_card_go_out() -> None:
    result = run_setup(["RS", "G2", "Y4"], "R7", actions=[play(0, "RS")])
    assert outcomes(result) == ["ok"]
    assert result["state"]["phase"] == "dealOver"


def test_forbid_action_finish_still_allows_action_cards_before_the_last() -> None:
    result = run_setup(
        ["RS R1", "G2", "Y4"], "R7", rules={"forbidActionFinish": True}, actions=[play(0, "RS")]
    )
    assert outcomes(result) == ["ok"]


# --- stacking ------------------------------------------------------------------------------


def test_stacking_passes_growing_penalty_on() -> None:
    result = run_setup(
        ["R+2 R1", "G+2 G1", "Y4 Y5"],
        "R7",
        draw="B1 B2 B3 B4 B5",
        rules={"stacking": True},
        actions=[play(0, "R+2"), play(1, "G+2")],
    )
    assert outcomes(result) == ["ok", "ok"]
    state = result["state"]
    assert (state["turn"], state["pendingDraw"]) == (2, 4)
    result = run_setup(
        ["R+2 R1", "G+2 G1", "Y4 Y5"],
        "R7",
        draw="B1 B2 B3 B4 B5",
        rules={"stacking": True},
        actions=[play(0, "R+2"), play(1, "G+2"), draw(2)],
    )
    state = result["state"]
    assert state["hands"][2] == cards("Y4 Y5 B1 B2 B3 B4")
    assert (state["turn"], state["pendingDraw"]) == (0, 0)


def test_stacking_wild_draw_four_on_wild_draw_four() -> None:
    result = run_setup(
        ["W+4 R1", "W+4 G1", "Y4 Y5"],
        "R7",
        draw="B1 B2 B3 B4 B5 B6 B7 B8 B9",
        rules={"stacking": True},
        actions=[play(0, "W+4", "G"), play(1, "W+4", "B"), draw(2)],
    )
    assert outcomes(result) == ["ok", "ok", "ok"]
    state = result["state"]
    assert state["hands"][2] == cards("Y4 Y5 B1 B2 B3 B4 B5 B6 B7 B8")
    assert (state["turn"], state["color"]) == (0, "B")


@pytest.mark.parametrize(("first", "second"), [("W+4", "G+2"), ("R+2", "W+4")])
def test_stacking_only_the_same_card_kind_no_draw_two_on_wild_draw_four(
    first: str, second: str
) -> None:
    result = run_setup(
        [f"{first} R1", f"{second} G1", "Y4"],
        "R7",
        draw="B1 B2 B3 B4",
        rules={"stacking": True},
        actions=[play(0, first, "G"), play(1, second, "G")],
    )
    assert outcomes(result) == ["ok", "penalty_pending"]


def test_stacking_off_draw_two_victim_draws_at_once_and_cannot_stack() -> None:
    result = run_setup(
        ["R+2 R1", "G+2 G1", "Y4"],
        "R7",
        draw="B1 B2 B3",
        actions=[play(0, "R+2"), play(1, "G+2")],
    )
    assert outcomes(result) == ["ok", "not_your_turn"]
    state = result["state"]
    assert state["hands"][1] == cards("G+2 G1 B1 B2")
    assert (state["turn"], state["pendingDraw"]) == (2, 0)


def test_stacking_victim_without_a_stack_card_must_draw_the_penalty() -> None:
    state = position(
        ["R+2 R1 R3", "G1 G2 G3", "Y4"], "R7", draw="B1 B2 B3", rules={"stacking": True}
    )
    state, _ = apply(state, 0, play(0, "R+2"))
    assert [a.type for a in legal_actions(state, 1)] == ["draw"]
    assert refused(state, 1, play(1, "G1")).code == "penalty_pending"


# --- jumpIn --------------------------------------------------------------------------------

JUMP = {"jumpIn": True}
HANDS_JUMP = ["R5 R1 R2", "G1 G2 G3", "R5 B2 B3", "R5 Y3 Y4"]


def test_jump_in_exact_copy_out_of_turn_play_continues_from_the_jumper() -> None:
    result = run_setup(HANDS_JUMP, "R9", rules=JUMP, actions=[play(0, "R5"), play(2, "R5")])
    assert outcomes(result) == ["ok", "ok"]
    assert {"type": "jumpIn", "seat": 2} in events_of(result, 1)
    state = result["state"]
    assert state["hands"][2] == cards("B2 B3")
    assert state["turn"] == 3


def test_jump_in_needs_an_exact_copy_not_just_colour_or_number() -> None:
    hands = ["R5 R1 R2", "G1 G2 G3", "G5 R8 W", "R5 Y3 Y4"]
    result = run_setup(
        hands, "R9", rules=JUMP, actions=[play(0, "R5"), play(2, "G5"), play(2, "W", "R")]
    )
    assert outcomes(result) == ["ok", "not_your_turn", "not_your_turn"]


def test_jump_in_continues_from_turn_holder_option() -> None:
    result = run_setup(
        HANDS_JUMP,
        "R9",
        rules={**JUMP, "jumpInContinuesFrom": "turnHolder"},
        actions=[play(0, "R5"), play(2, "R5")],
    )
    assert outcomes(result) == ["ok", "ok"]
    assert result["state"]["turn"] == 1
    assert result["state"]["top"] == "R5"


def test_jump_in_continues_from_turn_holder_takes_number_cards_only() -> None:
    """The rule texts are silent on action cards jumped in under turnHolder; the engine refuses
    them (a Skip or Reverse jumped in would have no turn to act on)."""
    hands = ["RS R1 R2", "G1 G2 G3", "G4 G5 G6", "RS B2 B3"]
    result = run_setup(
        hands,
        "R9",
        rules={**JUMP, "jumpInContinuesFrom": "turnHolder"},
        actions=[play(0, "RS"), play(3, "RS")],
    )
    assert outcomes(result) == ["ok", "not_your_turn"]
    result = run_setup(hands, "R9", rules=JUMP, actions=[play(0, "RS"), play(3, "RS")])
    assert outcomes(result) == ["ok", "ok"]
    assert result["state"]["turn"] == 1  # seat 3's Skip skipped seat 0


def test_jump_in_with_stale_at_is_too_late() -> None:
    """The table moved (seat 1 drew a playable card and still holds the turn) after the
    move the jumper reacted to; a jump-in naming the current move is accepted."""
    actions = [play(0, "R5"), draw(1), play(2, "R5", at=1), play(3, "R5", at=2)]
    result = run_setup(HANDS_JUMP, "R9", draw="R8", rules=JUMP, actions=actions)
    assert outcomes(result) == ["ok", "ok", "too_late", "ok"]


def test_two_identical_jump_ins_the_second_with_the_same_at_is_too_late() -> None:
    actions = [play(0, "R5"), play(3, "R5", at=1), play(2, "R5", at=1)]
    result = run_setup(HANDS_JUMP, "R9", rules=JUMP, actions=actions)
    assert outcomes(result) == ["ok", "ok", "too_late"]
    assert result["state"]["hands"][2] == cards("R5 B2 B3")
    assert result["state"]["turn"] == 0


def test_jump_in_arriving_on_your_own_turn_with_a_stale_at_is_too_late() -> None:
    """Once the turn has reached the second jumper, its stale jump-in is still too late:
    ``at`` is checked for every action, in turn or not."""
    actions = [play(0, "R5"), play(2, "R5", at=1), play(3, "R5", at=1)]
    result = run_setup(HANDS_JUMP, "R9", rules=JUMP, actions=actions)
    assert outcomes(result) == ["ok", "ok", "too_late"]
    assert result["state"]["turn"] == 3


def test_jump_in_with_stale_at_after_the_top_changed_is_too_late() -> None:
    actions = [play(0, "R5"), play(1, "R6"), play(3, "R5", at=1)]
    hands = ["R5 R1 R2", "R6 G2 G3", "Y2 Y3 Y4", "R5 B2 B3"]
    result = run_setup(hands, "R9", rules=JUMP, actions=actions)
    assert outcomes(result) == ["ok", "ok", "too_late"]


def test_uno_call_before_playing_survives_a_jump_in() -> None:
    result = run_setup(
        ["R5 R1", "G1 G2 G3", "R5 B2 B3"],
        "R5",
        draw="Y1 Y2",
        rules={**JUMP, "jumpInContinuesFrom": "turnHolder"},
        actions=[call_uno(0), play(2, "R5"), play(0, "R1"), catch_uno(1, 0)],
    )
    assert outcomes(result)[:3] == ["ok", "ok", "ok"]
    assert outcomes(result)[3] != "ok"
    assert result["state"]["hands"][0] == ["R5"]


def test_jump_in_does_not_give_the_turn_holder_a_second_draw() -> None:
    result = run_setup(
        ["R1 R2 R3", "G1 G2 G3", "R5 B2 B3"],
        "R5",
        draw="R8 Y1 Y2",
        rules={**JUMP, "jumpInContinuesFrom": "turnHolder"},
        actions=[draw(0), play(2, "R5"), draw(0)],
    )
    assert outcomes(result)[:2] == ["ok", "ok"]
    assert outcomes(result)[2] != "ok"
    assert result["state"]["hands"][0] == cards("R1 R2 R3 R8")


def test_jump_in_off_an_out_of_turn_copy_is_not_your_turn() -> None:
    result = run_setup(HANDS_JUMP, "R9", actions=[play(0, "R5"), play(2, "R5")])
    assert outcomes(result) == ["ok", "not_your_turn"]


def test_jump_in_is_listed_among_the_legal_actions_of_the_copy_holder() -> None:
    state = position(HANDS_JUMP, "R9", rules=JUMP)
    state, _ = apply(state, 0, play(0, "R5"))
    assert [a.cards for a in legal_actions(state, 2) if a.type == "play"] == [("R5",)]
    assert [a for a in legal_actions(state, 1) if a.type == "play"] == []


# --- sevenZero -----------------------------------------------------------------------------

SEVEN_ZERO = {"sevenZero": True}


def test_seven_swaps_hands_with_the_chosen_target() -> None:
    result = run_setup(
        ["R7 G1 G2", "B1 B2", "Y1 Y2 Y3"], "R9", rules=SEVEN_ZERO, actions=[play(0, "R7", target=2)]
    )
    assert outcomes(result) == ["ok"]
    state = result["state"]
    assert state["hands"] == [cards("Y1 Y2 Y3"), cards("B1 B2"), cards("G1 G2")]
    assert state["turn"] == 1


def test_seven_needs_a_target_other_than_yourself() -> None:
    result = run_setup(
        ["R7 G1 G2", "B1 B2", "Y1 Y2 Y3"],
        "R9",
        rules=SEVEN_ZERO,
        actions=[play(0, "R7"), play(0, "R7", target=0), play(0, "R7", target=5)],
    )
    assert outcomes(result) == ["target_required", "bad_target", "bad_target"]
    assert result["state"]["hands"][0] == cards("R7 G1 G2")


def test_seven_as_last_card_goes_out_without_a_target() -> None:
    result = run_setup(["R7", "B1 B2", "Y1"], "R9", rules=SEVEN_ZERO, actions=[play(0, "R7")])
    assert outcomes(result) == ["ok"]
    assert result["state"]["phase"] == "dealOver"


def test_seven_swap_lists_one_legal_play_per_target() -> None:
    state = position(["R7 G1 G2", "B1 B2", "Y1", "Y2"], "R9", rules=SEVEN_ZERO)
    sevens = [a for a in legal_actions(state, 0) if a.cards == ("R7",)]
    assert sorted(a.target for a in sevens) == [1, 2, 3]


def test_zero_passes_every_hand_to_the_next_player_in_the_direction_of_play() -> None:
    hands = ["R0 G1", "B1 B2", "Y1 Y2 Y3"]
    result = run_setup(hands, "R9", rules=SEVEN_ZERO, actions=[play(0, "R0")])
    assert result["state"]["hands"] == [cards("Y1 Y2 Y3"), cards("G1"), cards("B1 B2")]
    assert result["state"]["turn"] == 1
    result = run_setup(hands, "R9", direction=-1, rules=SEVEN_ZERO, actions=[play(0, "R0")])
    assert result["state"]["hands"] == [cards("B1 B2"), cards("Y1 Y2 Y3"), cards("G1")]
    assert result["state"]["turn"] == 2


def test_zero_pass_direction_against_play() -> None:
    hands = ["R0 G1", "B1 B2", "Y1 Y2 Y3"]
    rules = {**SEVEN_ZERO, "zeroPassDirection": "againstPlay"}
    result = run_setup(hands, "R9", rules=rules, actions=[play(0, "R0")])
    assert result["state"]["hands"] == [cards("B1 B2"), cards("Y1 Y2 Y3"), cards("G1")]
    assert result["state"]["turn"] == 1


def test_seven_zero_off_seven_and_zero_are_plain_numbers() -> None:
    hands = ["R7 R0 G1", "B1 B2", "Y1 Y2 Y3"]
    result = run_setup(hands, "R9", actions=[play(0, "R7"), play(1, "B1")])
    assert outcomes(result) == ["ok", "card_not_playable"]
    assert result["state"]["hands"][0] == cards("R0 G1")
    result = run_setup(hands, "R9", actions=[play(0, "R0")])
    assert result["state"]["hands"] == [cards("R7 G1"), cards("B1 B2"), cards("Y1 Y2 Y3")]


def test_uno_catch_follows_the_single_card_after_a_zero_pass() -> None:
    result = run_setup(
        ["R0 G1", "B1 B2 B3", "Y1 Y2 Y3"],
        "R9",
        draw="B7 B8",
        rules=SEVEN_ZERO,
        actions=[play(0, "R0"), catch_uno(2, 0)],
    )
    # After the pass seat 0 holds Y1 Y2 Y3 and seat 1 holds the single G1.
    assert outcomes(result)[1] != "ok"
    assert result["state"]["hands"][0] == cards("Y1 Y2 Y3")


# --- drawToMatch ---------------------------------------------------------------------------

PILE = "B1 B2 G3 R9 Y1 Y2"


def test_draw_to_match_draws_until_a_playable_card_comes() -> None:
    result = run_setup(
        ["G5 B6", "G2", "Y4"],
        "R7",
        draw=PILE,
        rules={"drawToMatch": True},
        actions=[draw(0), play(0, "G5"), play(0, "R9")],
    )
    assert outcomes(result) == ["ok", "only_drawn_card", "ok"]
    state = result["state"]
    assert state["hands"][0] == cards("G5 B6 B1 B2 G3")
    assert state["drawPileCards"] == ["Y1", "Y2"]
    assert state["turn"] == 1


def test_draw_to_match_cap_stops_drawing_and_ends_the_turn() -> None:
    result = run_setup(
        ["G5 B6", "G2", "Y4"],
        "R7",
        draw=PILE,
        rules={"drawToMatch": True, "drawToMatchCap": 2},
        actions=[draw(0)],
    )
    state = result["state"]
    assert state["hands"][0] == cards("G5 B6 B1 B2")
    assert (state["turn"], state["drawn"]) == (1, None)


def test_draw_to_match_cap_reached_on_a_playable_card_keeps_it_playable() -> None:
    result = run_setup(
        ["G5 B6", "G2", "Y4"],
        "R7",
        draw=PILE,
        rules={"drawToMatch": True, "drawToMatchCap": 4},
        actions=[draw(0)],
    )
    state = result["state"]
    assert state["hands"][0] == cards("G5 B6 B1 B2 G3 R9")
    assert (state["turn"], state["drawn"]) == (0, "R9")


def test_draw_to_match_off_draws_one_card() -> None:
    result = run_setup(["G5 B6", "G2", "Y4"], "R7", draw=PILE, actions=[draw(0)])
    assert result["state"]["hands"][0] == cards("G5 B6 B1")
    assert result["state"]["turn"] == 1


def test_draw_to_match_stops_when_the_piles_run_dry() -> None:
    result = run_setup(
        ["G5 B6", "G2", "Y4"], "R7", draw="B1 B2", rules={"drawToMatch": True}, actions=[draw(0)]
    )
    assert outcomes(result) == ["ok"]
    assert result["state"]["hands"][0] == cards("G5 B6 B1 B2")
    assert result["state"]["turn"] == 1


def test_draw_to_match_does_not_stop_at_a_restricted_wild_draw_four() -> None:
    result = run_setup(
        ["R1 B6", "G2", "Y4"],
        "R7",
        draw="W+4 G3 R9 Y2",
        rules={"drawToMatch": True, "wildDrawFourChallenge": False},
        actions=[draw(0)],
    )
    state = result["state"]
    assert state["hands"][0] == cards("R1 B6 W+4 G3 R9")
    assert state["drawn"] == "R9"


# --- decks ---------------------------------------------------------------------------------


def test_two_decks_make_216_cards() -> None:
    rules = rules_from_json({"decks": 2})
    state, _ = new_match(rules, 10, "two-decks", dealer=0)
    counted = state_cards(state)
    assert sum(counted.values()) == 216
    assert counted == Counter({card: 2 * n for card, n in Counter(classic108()).items()})


def test_one_deck_is_108_cards() -> None:
    state, _ = new_match(rules_from_json({}), 2, "one-deck", dealer=0)
    assert sum(state_cards(state).values()) == 108


# --- how options are given and checked -----------------------------------------------------

BAD_VALUES: list[tuple[str, Any]] = [
    ("targetScore", 50),
    ("targetScore", 1050),
    ("targetScore", 125),
    ("targetScore", "500"),
    ("targetScore", True),
    ("roundLimit", 31),
    ("roundLimit", -1),
    ("unoPenalty", 11),
    ("decks", 0),
    ("decks", 3),
    ("actionValue", 55),
    ("actionValue", 12),
    ("wildValue", 105),
    ("wildDrawFourValue", 3),
    ("scoringMode", "mostWins"),
    ("numberCards", "double"),
    ("stacking", "yes"),
    ("jumpIn", 1),
    ("jumpInContinuesFrom", "nobody"),
    ("zeroPassDirection", "up"),
    ("wildDrawFourRestriction", "never"),
    ("firstCardWild", "bury"),
    ("firstCardWildDrawFour", "firstPlayerChooses"),
    ("drawToMatchCap", -1),
    ("matchMode", "marathon"),
]


@pytest.mark.parametrize(("name", "value"), BAD_VALUES)
def test_out_of_range_option_is_refused_naming_the_option(name: str, value: Any) -> None:
    with pytest.raises(InvalidRules) as err:
        rules_from_json({"preset": "classic", name: value})
    assert err.value.code == "rules/bad_value"
    assert name in err.value.message
    with pytest.raises(InvalidRules) as err:
        with_options(rules_from_json({}), {name: value})
    assert name in err.value.message


def test_unknown_option_is_refused_naming_the_option() -> None:
    with pytest.raises(InvalidRules) as err:
        rules_from_json({"preset": "classic", "stackingg": True})
    assert err.value.code == "rules/unknown_option"
    assert "stackingg" in err.value.message
    with pytest.raises(InvalidRules) as err:
        with_options(rules_from_json({}), {"wildValu": 5})
    assert "wildValu" in err.value.message


def test_unknown_preset_is_refused_naming_it() -> None:
    with pytest.raises(InvalidRules) as err:
        rules_from_json({"preset": "speedUno"})
    assert err.value.code == "rules/unknown_preset"
    assert "speedUno" in err.value.message


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("targetScore", 100),
        ("targetScore", 1000),
        ("targetScore", 150),
        ("roundLimit", 0),
        ("roundLimit", 30),
        ("unoPenalty", 0),
        ("unoPenalty", 10),
        ("decks", 2),
        ("actionValue", 0),
        ("actionValue", 50),
        ("wildValue", 100),
        ("wildDrawFourValue", 0),
        ("drawToMatchCap", 10),
    ],
)
def test_option_values_at_the_ends_of_their_range_are_accepted(name: str, value: Any) -> None:
    rules = rules_from_json({name: value})
    assert rules.to_json()[name] == value


def test_every_classic_option_of_rules_md_exists_with_its_default() -> None:
    defaults = {o["name"]: o["default"] for o in describe_options()}
    assert defaults | CLASSIC_DEFAULTS == defaults


CLASSIC_DEFAULTS = {
    "stacking": False,
    "jumpIn": False,
    "jumpInContinuesFrom": "jumper",
    "sevenZero": False,
    "zeroPassDirection": "withPlay",
    "drawToMatch": False,
    "drawToMatchCap": 0,
    "unoPenalty": 2,
    "decks": 1,
    "wildDrawFourChallenge": True,
    "wildDrawFourRestriction": "noMatchingColor",
    "firstCardWild": "firstPlayerChooses",
    "firstCardWildDrawFour": "reshuffle",
    "forbidActionFinish": False,
    "matchMode": "points",
    "targetScore": 500,
    "roundLimit": 0,
    "scoringMode": "winnerCollects",
    "numberCards": "faceValue",
    "actionValue": 20,
    "wildValue": 50,
    "wildDrawFourValue": 50,
}


def test_rules_wire_form_round_trips() -> None:
    rules = rules_from_json({"preset": "house", "targetScore": 300, "unoPenalty": 4})
    assert rules_from_json(rules.to_json()) == rules


@pytest.mark.parametrize(
    ("preset", "expected"),
    [
        ("classic", {"matchMode": "points", "stacking": False}),
        ("oneAndDone", {"matchMode": "oneAndDone"}),
        ("knockout", {"matchMode": "knockout", "scoringMode": "ownHandCounts"}),
        ("house", {"stacking": True, "jumpIn": True, "sevenZero": True, "drawToMatch": True}),
    ],
)
def test_preset_sets_its_options(preset: str, expected: dict[str, Any]) -> None:
    assert preset in PRESETS
    wire = rules_from_json({"preset": preset}).to_json()
    assert wire["preset"] == preset
    assert {k: wire[k] for k in expected} == expected


def test_option_overrides_win_over_the_preset() -> None:
    wire = rules_from_json({"preset": "house", "stacking": False}).to_json()
    assert (wire["stacking"], wire["jumpIn"]) == (False, True)


def test_pass_after_draw_to_match_keeps_the_cards() -> None:
    result = run_setup(
        ["G5 B6", "G2", "Y4"],
        "R7",
        draw=PILE,
        rules={"drawToMatch": True},
        actions=[draw(0), pass_(0)],
    )
    assert outcomes(result) == ["ok", "ok"]
    assert result["state"]["hands"][0] == cards("G5 B6 B1 B2 G3 R9")
