"""DrukUNO (preset ``druk``, docs/variants.md), one behaviour per test.

Multi-card plays, N Skips / Reverses / Draw Twos, stacking, Wild Draw Four follow-colour,
the multi-card UNO finish, the first card played by the dealer, jump-in continuing from
the turn holder, and the opt-in Wild Draw Eight and Everybody Draws Two cards. The drink
tally is in ``test_drinks.py``; Helsinki and Warszawa in ``test_helsinki_warszawa.py``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from uno_helpers import (
    cards,
    choose_color,
    draw,
    events_of,
    outcomes,
    pass_,
    play,
    position,
    refused,
    run_deck,
    run_setup,
    stacked_deck,
)

from engine import apply, legal_actions, new_match, rules_from_json
from engine.deal import deck_for

DRUK = {"preset": "druk"}


def plays(seat: int, spec: str, color: str | None = None, *, uno: bool = False) -> dict[str, Any]:
    """A play of several cards at once (``spec`` as in ``cards``)."""
    out: dict[str, Any] = {"seat": seat, "type": "play", "cards": cards(spec)}
    if color is not None:
        out["color"] = color
    if uno:
        out["uno"] = True
    return out


def druk(hands: list[str], discard: str, **kw: Any) -> dict[str, Any]:
    rules = {**DRUK, **kw.pop("rules", {})}
    return run_setup(hands, discard, rules=rules, **kw)


FOUR = ["", "G1 G2", "Y1 Y2", "B1 B2"]


def four(hand0: str) -> list[str]:
    return [hand0, *FOUR[1:]]


# --- multiPlay: numbers -------------------------------------------------------------------


def test_druk_plays_several_cards_of_one_number_across_colours_on_a_colour_match() -> None:
    """Seed: on a blue 7 a blue 2 and a red 2 may be played together."""
    result = druk(four("B2 R2 G9"), "B7", actions=[plays(0, "B2 R2")])
    assert outcomes(result) == ["ok"]
    state = result["state"]
    assert state["discard"][:3] == cards("R2 B2 B7")
    assert state["color"] == "R"
    assert state["hands"][0] == ["G9"]
    assert state["turn"] == 1


def test_druk_plays_several_cards_of_one_number_when_the_first_matches_the_number() -> None:
    """Seed: on a green 5 a yellow and a blue 5 may be played."""
    result = druk(four("Y5 B5 G9"), "G5", actions=[plays(0, "Y5 B5")])
    assert outcomes(result) == ["ok"]
    assert result["state"]["top"] == "B5"


def test_druk_multi_play_first_card_must_match_the_top_card() -> None:
    result = druk(four("R2 B2 G9"), "B7", actions=[plays(0, "R2 B2")])
    assert outcomes(result) == ["card_not_playable"]


def test_druk_multi_play_of_different_numbers_is_refused() -> None:
    result = druk(four("B2 B3 G9"), "B7", actions=[plays(0, "B2 B3")])
    assert outcomes(result) == ["bad_combination"]


def test_druk_multi_play_of_cards_not_in_hand_is_refused() -> None:
    result = druk(four("B2 G9"), "B7", actions=[plays(0, "B2 R2")])
    assert outcomes(result) == ["card_not_in_hand"]


def test_multi_play_off_refuses_several_cards() -> None:
    result = druk(four("B2 R2 G9"), "B7", rules={"multiPlay": False}, actions=[plays(0, "B2 R2")])
    assert outcomes(result) == ["one_card_only"]


def test_druk_legal_actions_list_the_play_of_every_card_of_a_number() -> None:
    state = position(four("B2 R2 Y2 G9"), "B7", rules=DRUK)
    listed = {a.cards for a in legal_actions(state, 0) if a.type == "play"}
    assert ("B2", "R2", "Y2") in listed
    assert ("B2",) in listed
    assert not any(c[0] == "R2" for c in listed)  # R2 cannot start a play on a blue 7


# --- multiPlay: action cards ----------------------------------------------------------------


def test_druk_plays_several_action_cards_of_one_type_first_matching_the_colour() -> None:
    result = druk(four("GS YS R1"), "G8", actions=[plays(0, "GS YS")])
    assert outcomes(result) == ["ok"]
    assert result["state"]["color"] == "Y"


def test_druk_several_action_cards_may_start_with_a_type_match() -> None:
    result = druk(four("G+2 B+2 R1"), "Y+2", actions=[plays(0, "G+2 B+2")])
    assert outcomes(result) == ["ok"]
    assert result["state"]["pendingDraw"] == 4


def test_druk_action_cards_whose_first_matches_nothing_are_refused() -> None:
    result = druk(four("YS GS R1"), "G8", actions=[plays(0, "YS GS")])
    assert outcomes(result) == ["card_not_playable"]


@pytest.mark.parametrize("spec", ["GS G+2", "GR GS", "G+2 GR", "G5 GS"])
def test_druk_mixed_card_types_in_one_play_are_refused(spec: str) -> None:
    result = druk(four(f"{spec} R1"), "G8", actions=[plays(0, spec)])
    assert outcomes(result) == ["bad_combination"]


@pytest.mark.parametrize("spec", ["W W", "W+4 W+4", "W W+4", "G5 W"])
def test_druk_wilds_are_never_combined(spec: str) -> None:
    result = druk(four(f"{spec} R1"), "G8", actions=[plays(0, spec, "B")])
    assert outcomes(result) == ["bad_combination"]


# --- Skips, Reverses, Draw Twos -------------------------------------------------------------


def test_druk_three_skips_with_four_players_give_the_player_another_turn() -> None:
    result = druk(four("RS GS BS R1"), "R8", actions=[plays(0, "RS GS BS")])
    assert outcomes(result) == ["ok"]
    assert result["state"]["turn"] == 0
    skipped = [e["seat"] for e in events_of(result, 0) if e["type"] == "skip"]
    assert skipped == [1, 2, 3]


@pytest.mark.parametrize(("count", "turn"), [(1, 2), (2, 3), (3, 0), (4, 1)])
def test_druk_n_skips_skip_n_players_turn_is_seat_plus_n_plus_one(count: int, turn: int) -> None:
    """Seed: four Skips with four players skip yourself too; the engine reads N Skips as
    skipping the next N seats (wrapping past the player), so the turn goes N + 1 on."""
    spec = " ".join(["RS", "GS", "BS", "YS"][:count])
    result = druk(four(f"{spec} R1"), "R8", actions=[plays(0, spec)])
    assert outcomes(result) == ["ok"]
    assert result["state"]["turn"] == turn
    skipped = [e["seat"] for e in events_of(result, 0) if e["type"] == "skip"]
    assert skipped == [(0 + k) % 4 for k in range(1, count + 1)]


@pytest.mark.parametrize(("count", "direction", "turn"), [(1, -1, 3), (2, 1, 1), (3, -1, 3)])
def test_druk_reverses_flip_direction_once_per_card_even_count_keeps_it(
    count: int, direction: int, turn: int
) -> None:
    spec = " ".join(["RR", "GR", "BR"][:count])
    result = druk(four(f"{spec} R1"), "R8", actions=[plays(0, spec)])
    assert outcomes(result) == ["ok"]
    assert result["state"]["direction"] == direction
    assert result["state"]["turn"] == turn


def test_druk_several_draw_twos_add_two_each_and_pass_on_as_seed_example() -> None:
    """Seed: seat 0 lays a green Draw Two on a green 8, seat 1 a yellow and a blue one,
    seat 2 has none and draws six."""
    result = druk(
        ["G+2 R1", "Y+2 B+2 R2", "Y5 Y6", "B1 B2"],
        "G8",
        draw="R3 R4 R5 R6 R7 R9 G1",
        actions=[play(0, "G+2"), plays(1, "Y+2 B+2"), draw(2)],
    )
    assert outcomes(result) == ["ok", "ok", "ok"]
    state = result["state"]
    assert state["hands"][2] == cards("Y5 Y6 R3 R4 R5 R6 R7 R9")
    assert state["pendingDraw"] == 0
    assert state["turn"] == 3


def test_druk_stacks_draw_two_on_draw_two() -> None:
    result = druk(["G+2 R1", "Y+2 R2", "Y5", "B1"], "G8", actions=[play(0, "G+2"), play(1, "Y+2")])
    assert outcomes(result) == ["ok", "ok"]
    assert result["state"]["pendingDraw"] == 4
    assert result["state"]["turn"] == 2


def test_druk_stacks_wild_draw_four_on_wild_draw_four() -> None:
    result = druk(
        ["W+4 R1", "W+4 R2", "Y5", "B1"],
        "G8",
        draw="R3 R4 R5 R6 R7 R9 G1 G2",
        actions=[play(0, "W+4", "B"), play(1, "W+4", "Y"), draw(2)],
    )
    assert outcomes(result) == ["ok", "ok", "ok"]
    state = result["state"]
    assert len(state["hands"][2]) == 1 + 8
    assert state["color"] == "Y"


def test_stack_wild_draw_four_off_refuses_wild_draw_four_on_wild_draw_four() -> None:
    result = druk(
        ["W+4 R1", "W+4 R2", "Y5", "B1"],
        "G8",
        rules={"stackWildDrawFour": False},
        actions=[play(0, "W+4", "B"), play(1, "W+4", "Y")],
    )
    assert outcomes(result) == ["ok", "penalty_pending"]


@pytest.mark.parametrize(("first", "answer"), [("G+2", "W+4"), ("W+4", "B+2")])
def test_druk_draw_two_and_wild_draw_four_never_stack_across_kinds(first: str, answer: str) -> None:
    result = druk(
        [f"{first} R1", f"{answer} R2", "Y5", "B1"],
        "G8",
        actions=[play(0, first, "B"), play(1, answer, "B")],
    )
    assert outcomes(result) == ["ok", "penalty_pending"]


@pytest.mark.parametrize(("first", "wild"), [("G+2", "W"), ("W+4", "W"), ("G+2", "W+8")])
def test_druk_a_wild_cannot_answer_an_active_draw_penalty(first: str, wild: str) -> None:
    result = druk(
        [f"{first} R1", f"{wild} R2", "Y5", "B1"],
        "G8",
        rules={"wildDrawEight": 1},
        actions=[play(0, first, "B"), play(1, wild, "R")],
    )
    assert outcomes(result) == ["ok", "penalty_pending"]


@pytest.mark.parametrize(("card", "expected"), [("Y+2", "ok"), ("G3", "ok"), ("R3", "x")])
def test_druk_after_a_penalty_is_taken_the_next_player_matches_colour_or_type(
    card: str, expected: str
) -> None:
    """Seed: after a green Draw Two was drawn, seat 2 may play a green card or a Draw Two
    of any colour."""
    result = druk(
        ["G+2 R1", "R2 R4", f"{card} B5", "B1"],
        "G8",
        draw="Y1 Y3",
        actions=[play(0, "G+2"), draw(1), play(2, card)],
    )
    want = "ok" if expected == "ok" else "card_not_playable"
    assert outcomes(result) == ["ok", "ok", want]


def test_druk_a_wild_may_be_played_on_an_inactive_draw_two() -> None:
    result = druk(
        ["G+2 R1", "R2 R4", "W B5", "B1"],
        "G8",
        draw="Y1 Y3",
        actions=[play(0, "G+2"), draw(1), play(2, "W", "Y")],
    )
    assert outcomes(result) == ["ok", "ok", "ok"]


# --- drawFourFollowColor ------------------------------------------------------------------


W4_DRAW = "Y1 Y2 Y3 Y4 G1 G2 G3 B9"


def _after_wild_draw_four(victim: str, **kw: Any) -> dict[str, Any]:
    actions = [play(0, "W+4", "B"), draw(1), *kw.pop("then", [])]
    return druk(["W+4 R1", victim, "Y5", "G5"], "R8", draw=W4_DRAW, actions=actions, **kw)


def test_druk_wild_draw_four_victim_draws_four_and_keeps_the_turn_owing_its_colour() -> None:
    result = _after_wild_draw_four("B7 R2")
    assert outcomes(result) == ["ok", "ok"]
    state = result["state"]
    assert state["hands"][1] == cards("B7 R2 Y1 Y2 Y3 Y4")
    assert state["turn"] == 1
    pos = position(["W+4 R1", "B7 R2", "Y5", "G5"], "R8", draw=W4_DRAW, rules=DRUK)
    pos, _ = apply(pos, 0, play(0, "W+4", "B"))
    pos, _ = apply(pos, 1, draw(1))
    assert refused(pos, 1, play(1, "R2")).code == "must_follow_color"


def test_druk_follow_colour_victim_must_play_the_named_colour() -> None:
    result = _after_wild_draw_four(
        "B7 R2 W", then=[play(1, "R2"), play(1, "W", "G"), play(1, "B7")]
    )
    assert outcomes(result) == ["ok", "ok", "must_follow_color", "must_follow_color", "ok"]
    assert result["state"]["turn"] == 2


def test_druk_follow_colour_victim_may_not_draw_or_pass_while_holding_the_colour() -> None:
    result = _after_wild_draw_four("B7 R2", then=[draw(1), pass_(1)])
    assert outcomes(result) == ["ok", "ok", "must_follow_color", "must_follow_color"]


def test_druk_follow_colour_lacking_it_draws_one_at_a_time_up_to_three_then_passes() -> None:
    result = _after_wild_draw_four(
        "R2 R3", then=[pass_(1), draw(1), draw(1), draw(1), draw(1), pass_(1)]
    )
    assert outcomes(result) == ["ok", "ok", "cannot_pass", "ok", "ok", "ok", "no_draws_left", "ok"]
    state = result["state"]
    assert state["hands"][1] == cards("R2 R3 Y1 Y2 Y3 Y4 G1 G2 G3")
    assert state["turn"] == 2


def test_druk_follow_colour_no_pass_before_three_draws_without_the_colour() -> None:
    result = _after_wild_draw_four("R2 R3", then=[draw(1), pass_(1), draw(1), pass_(1)])
    assert outcomes(result) == ["ok", "ok", "ok", "cannot_pass", "ok", "cannot_pass"]


def test_druk_follow_colour_a_drawn_card_of_the_colour_must_be_played() -> None:
    result = druk(
        ["W+4 R1", "R2 R3", "Y5", "G5"],
        "R8",
        draw="Y1 Y2 Y3 Y4 B6 G3",
        actions=[play(0, "W+4", "B"), draw(1), draw(1), pass_(1), draw(1), play(1, "B6")],
    )
    assert outcomes(result) == ["ok", "ok", "ok", "must_follow_color", "must_follow_color", "ok"]
    assert result["state"]["turn"] == 2


def test_druk_follow_colour_legal_actions_offer_draw_then_pass() -> None:
    state = position(["W+4 R1", "R2 R3", "Y5", "G5"], "R8", draw=W4_DRAW, rules=DRUK)
    state, _ = apply(state, 0, play(0, "W+4", "B"))
    state, _ = apply(state, 1, draw(1))
    assert [a.type for a in legal_actions(state, 1)] == ["draw"]
    for _ in range(3):
        state, _ = apply(state, 1, draw(1))
    assert [a.type for a in legal_actions(state, 1)] == ["pass"]


def test_druk_follow_colour_view_flags_the_owed_colour() -> None:
    from engine import view_for

    state = position(["W+4 R1", "B7 R2", "Y5", "G5"], "R8", draw=W4_DRAW, rules=DRUK)
    state, _ = apply(state, 0, play(0, "W+4", "B"))
    assert view_for(state, 1)["followColor"] is False
    state, _ = apply(state, 1, draw(1))
    assert view_for(state, 1)["followColor"] is True


def test_draw_four_follow_color_off_the_wild_draw_four_victim_loses_the_turn() -> None:
    result = _after_wild_draw_four("B7 R2", rules={"drawFourFollowColor": False})
    assert result["state"]["turn"] == 2


# --- UNO with a multi-card finish -------------------------------------------------------------


def test_druk_multi_card_finish_without_uno_is_refused() -> None:
    """Seed: with a blue 5 and a yellow 5 on a blue 7, lay the blue 5, say UNO, lay the
    yellow 5: a play of both needs "uno": true."""
    result = druk(four("B5 Y5"), "B7", actions=[plays(0, "B5 Y5")])
    assert outcomes(result) == ["uno_before_last_card"]


def test_druk_multi_card_finish_with_uno_ends_the_deal() -> None:
    result = druk(four("B5 Y5"), "B7", actions=[plays(0, "B5 Y5", uno=True)])
    assert outcomes(result) == ["ok"]
    state = result["state"]
    assert state["phase"] == "dealOver"
    assert state["winner"] == 0
    assert any(e["type"] == "callUno" for e in events_of(result, 0))


def test_druk_multi_play_leaving_one_card_without_uno_exposes_the_player() -> None:
    result = druk(four("B5 Y5 R1"), "B7", actions=[plays(0, "B5 Y5")])
    assert outcomes(result) == ["ok"]
    assert result["state"]["unoExposed"] == 0


# --- the first card counts as played by the dealer ----------------------------------------------

HANDS4 = [
    "R1 R2 R3 R4 R5 R6 R7",
    "G1 G2 G3 G4 G5 G6 G7",
    "Y1 Y2 Y3 Y4 Y5 Y6 Y7",
    "B1 B2 B3 B4 B5 B6 B7",
]


def _first(
    card: str, actions: list[dict[str, Any]] | None = None, hands: list[str] = HANDS4, **rules: Any
) -> dict[str, Any]:
    deck = stacked_deck(hands, card, "R9 G9 Y9 B9 R8", dealer=0)
    return run_deck(deck, 4, dealer=0, rules={**DRUK, **rules}, actions=actions or [])


def test_druk_first_reverse_counts_as_the_dealers_the_player_on_the_dealers_right_starts() -> None:
    result = _first("GR")
    state = result["state"]
    assert state["direction"] == -1
    assert state["turn"] == 3


def test_druk_first_skip_counts_as_the_dealers_the_player_left_of_the_dealer_is_skipped() -> None:
    state = _first("GS")["state"]
    assert state["turn"] == 2


def test_druk_first_draw_two_with_stacking_is_pending_on_the_first_player_who_may_stack() -> None:
    before = _first("Y+2")["state"]
    assert before["turn"] == 1
    assert before["pendingDraw"] == 2
    assert len(before["hands"][1]) == 7
    hands = [h.replace("G7", "G+2") if i == 1 else h for i, h in enumerate(HANDS4)]
    result = _first("Y+2", [play(1, "G1"), play(1, "G+2"), draw(2)], hands=hands)
    assert outcomes(result) == ["penalty_pending", "ok", "ok"]
    assert len(result["state"]["hands"][2]) == 7 + 4
    assert result["state"]["turn"] == 3


def test_druk_first_draw_two_without_stacking_the_first_player_draws_two_and_is_passed() -> None:
    state = _first("G+2", stacking=False)["state"]
    assert len(state["hands"][1]) == 9
    assert state["turn"] == 2


def test_druk_first_wild_the_dealer_names_the_colour_then_the_player_left_of_the_dealer() -> None:
    result = _first("W", [choose_color(1, "B"), choose_color(0, "B"), play(1, "G1")])
    assert outcomes(result) == ["not_your_turn", "ok", "card_not_playable"]
    state = result["state"]
    assert state["color"] == "B"
    assert state["turn"] == 1


def test_druk_a_first_wild_draw_four_is_still_sent_back_by_first_card_wild_draw_four() -> None:
    """The rule texts say an action turned up first counts as the dealer's; it does not say
    whether a Wild Draw Four does. The engine keeps the classic firstCardWildDrawFour
    rule for it (here ``bury``: it goes to the bottom and the next card is turned)."""
    result = _first("W+4", firstCardWildDrawFour="bury")
    state = result["state"]
    assert state["top"] == "R9"
    assert state["drawPileCards"][-1] == "W+4"
    assert state["turn"] == 1


def test_first_card_played_by_dealer_off_a_first_reverse_lets_the_dealer_start() -> None:
    state = _first("GR", firstCardPlayedByDealer=False)["state"]
    assert state["turn"] == 0
    assert state["direction"] == -1


# --- jump-in continues from the turn holder ---------------------------------------------------


def test_druk_jump_in_with_a_number_keeps_the_turn_with_the_turn_holder() -> None:
    result = druk(["R1 G2", "B1 B2", "R5 Y1", "G5"], "R5", turn=0, actions=[play(2, "R5")])
    assert outcomes(result) == ["ok"]
    state = result["state"]
    assert state["turn"] == 0
    assert state["hands"][2] == ["Y1"]
    assert events_of(result, 0)[0]["type"] == "jumpIn"


def test_druk_jump_in_with_an_action_card_is_refused() -> None:
    result = druk(["R1 G2", "B1 B2", "RS Y1", "G5"], "RS", turn=0, actions=[play(2, "RS")])
    assert outcomes(result) == ["not_your_turn"]


def test_druk_jump_in_needs_an_exact_copy_of_the_top_card() -> None:
    result = druk(["R1 G2", "B1 B2", "G5 Y1", "G1"], "R5", turn=0, actions=[play(2, "G5")])
    assert outcomes(result) == ["not_your_turn"]


def test_jump_in_continues_from_jumper_by_default_outside_druk() -> None:
    result = run_setup(
        ["R1 G2", "B1 B2", "R5 Y1", "G5"],
        "R5",
        rules={"jumpIn": True},
        actions=[play(2, "R5")],
    )
    assert result["state"]["turn"] == 3


# --- the extra cards ------------------------------------------------------------------------


def test_wild_draw_eight_option_adds_that_many_cards_to_the_deck() -> None:
    rules = rules_from_json({**DRUK, "wildDrawEight": 2, "everybodyDrawsTwo": 3})
    deck = Counter(deck_for(rules))
    assert deck["W+8"] == 2
    assert deck["A+2"] == 3
    assert sum(deck.values()) == 108 + 5
    state, _ = new_match(rules, 4, "extras", dealer=0)
    held = Counter(state.draw_pile) + Counter(state.discard)
    for hand in state.hands:
        held += Counter(hand)
    assert held == deck


def test_druk_extras_are_off_by_default() -> None:
    deck = Counter(deck_for(rules_from_json(DRUK)))
    assert deck["W+8"] == 0
    assert deck["A+2"] == 0


def test_druk_wild_draw_eight_makes_the_next_player_draw_eight() -> None:
    result = druk(
        ["W+8 R1", "R2", "Y5", "G5"],
        "G8",
        rules={"wildDrawEight": 1},
        draw="B1 B2 B3 B4 B5 B6 B7 B8 B9",
        actions=[play(0, "W+8", "Y"), draw(1)],
    )
    assert outcomes(result) == ["ok", "ok"]
    state = result["state"]
    assert state["hands"][1] == cards("R2 B1 B2 B3 B4 B5 B6 B7 B8")
    assert state["color"] == "Y"


def test_druk_wild_draw_eight_stacks_in_the_wild_draw_four_family() -> None:
    result = druk(
        ["W+8 R1", "W+4 R2", "W+8 Y5", "G5"],
        "G8",
        rules={"wildDrawEight": 2},
        actions=[play(0, "W+8", "Y"), play(1, "W+4", "B"), play(2, "W+8", "G")],
    )
    assert outcomes(result) == ["ok", "ok", "ok"]
    assert result["state"]["pendingDraw"] == 20
    assert result["state"]["turn"] == 3


def test_druk_everybody_draws_two_makes_every_other_player_draw_two() -> None:
    result = druk(
        ["A+2 R1", "R2", "Y5", "G5"],
        "G8",
        rules={"everybodyDrawsTwo": 1},
        draw="B1 B2 B3 B4 B5 B6 B7",
        actions=[play(0, "A+2", "Y")],
    )
    assert outcomes(result) == ["ok"]
    state = result["state"]
    assert state["hands"][0] == ["R1"]
    assert state["hands"][1] == cards("R2 B1 B2")
    assert state["hands"][2] == cards("Y5 B3 B4")
    assert state["hands"][3] == cards("G5 B5 B6")
    assert state["color"] == "Y"
    assert state["turn"] == 1


def test_druk_drawing_a_card_ends_the_turn_even_when_it_could_be_played() -> None:
    result = druk(four("B1 Y2"), "R8", draw="R3 G4", actions=[draw(0)])
    assert outcomes(result) == ["ok"]
    assert result["state"]["turn"] == 1
    assert result["state"]["drawn"] is None


def test_druk_preset_sets_the_seed_options() -> None:
    rules = rules_from_json(DRUK)
    assert rules.multi_play and rules.stacking and rules.stack_wild_draw_four
    assert rules.draw_four_follow_color and rules.first_card_played_by_dealer
    assert rules.jump_in and rules.jump_in_continues_from == "turnHolder"
    assert not rules.drinks
