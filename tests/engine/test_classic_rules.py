"""Classic UNO, rule by rule (docs/rules.md), mostly as scenarios.

Each test is named for the behaviour it checks. Positions are set up through the scenario
runner (``setup``: hands, discard pile top first, draw pile top first) or dealt from a
stacked ``deck``; a few tests drive ``engine.apply`` directly.
"""

from __future__ import annotations

from collections import Counter

import pytest
from uno_helpers import (
    all_cards,
    call_uno,
    cards,
    catch_uno,
    challenge,
    choose_color,
    draw,
    events_of,
    next_deal,
    outcomes,
    pass_,
    play,
    position,
    refused,
    run_deck,
    run_setup,
    stacked_deck,
    state_cards,
)

from engine import (
    EngineError,
    InvalidAction,
    State,
    apply,
    event_for,
    legal_actions,
    new_match,
    rules_from_json,
)
from engine.cards import CARD_INFO, NUMBERS, classic108
from engine.deal import choose_dealer
from engine.scenario import run

CLASSIC = rules_from_json({"preset": "classic"})

# Three seven-card hands that never match the first cards used below (Y / wild).
HANDS3 = ["R1 R2 R3 R4 R5 R6 R7", "G1 G2 G3 G4 G5 G6 G7", "B1 B2 B3 B4 B5 B6 B7"]


def _dealer_value(card: str) -> int:
    rank = CARD_INFO[card].rank
    return int(rank) if rank in NUMBERS else 0


# --- the dealer and the deal ---------------------------------------------------------------


def test_dealer_is_the_highest_draw_and_ties_redraw_among_the_tied() -> None:
    """Everyone draws; the highest deals (action cards and wilds count 0); ties draw again.

    The rule texts say "redraw ties"; the engine redraws among the tied seats only."""
    saw_tie = saw_zero_valued_card = False
    for i in range(300):
        dealer, events = choose_dealer(4, f"dealer-seed-{i}")
        contenders = [0, 1, 2, 3]
        for event in events:
            assert event["type"] == "dealerDraw"
            draws = event["draws"]
            assert [seat for seat, _ in draws] == contenders
            values = {seat: _dealer_value(card) for seat, card in draws}
            saw_zero_valued_card |= any(
                not CARD_INFO[c].is_number and values[s] < max(values.values()) for s, c in draws
            )
            best = max(values.values())
            contenders = [seat for seat in contenders if values[seat] == best]
            saw_tie |= len(contenders) > 1
        assert contenders == [dealer]
    assert saw_tie and saw_zero_valued_card


def test_new_match_without_a_dealer_chooses_one_by_the_draw() -> None:
    state, events = new_match(CLASSIC, 5, "abc")
    dealer, draw_events = choose_dealer(5, "abc")
    assert state.dealer == dealer
    assert events[: len(draw_events)] == draw_events


def test_next_deal_moves_the_dealer_left_and_deals_seven_each() -> None:
    state = position(["R1", "G1 G2", "B1 B2 B3"], "R9", turn=0, dealer=2, direction=-1)
    state, _ = apply(state, 0, play(0, "R1"))
    assert state.phase == "dealOver"
    state, events = apply(state, 1, next_deal(1))
    assert state.deal == 2
    assert state.dealer == 0  # 2 -> 0: the dealer moves left, round the table
    assert {"type": "deal", "deal": 2, "dealer": 0} in events
    assert sum(state_cards(state).values()) == 108
    first = state.discard[-1]
    extra = 2 if CARD_INFO[first].rank == "+2" else 0
    assert sorted(len(h) for h in state.hands) == sorted([7, 7, 7 + extra])
    # The new deal goes clockwise again (unless its own first card is a Reverse).
    assert state.direction == (-1 if CARD_INFO[first].rank == "R" else 1)


def _finish_deal_at_once(state: State) -> State:
    """The same deal, but the turn holder holds one Wild and everyone else a zero."""
    data = state.to_json()
    data["phase"] = "playing"
    data["hands"] = [["W"] if s == data["turn"] else ["R0"] for s in range(state.players)]
    state = State.from_json(data)
    state, _ = apply(state, state.turn, play(state.turn, "W", "R"))
    assert state.phase == "dealOver"
    return state


def test_dealer_rotates_left_each_deal() -> None:
    state = position(["R1", "G1 G2", "B1"], "R9", turn=0, dealer=0)
    state, _ = apply(state, 0, play(0, "R1"))
    dealers = [state.dealer]
    for _ in range(3):
        state, _ = apply(state, 0, next_deal(0))
        dealers.append(state.dealer)
        state = _finish_deal_at_once(state)
    assert dealers == [0, 1, 2, 0]


def test_deal_from_stacked_deck_goes_one_card_at_a_time_from_left_of_dealer() -> None:
    deck = cards("R1 G1 R2 G2 R3 G3 R4 G4 R5 G5 R6 G6 R7 G7 B5 Y1 Y2")
    result = run_deck(deck, 2, dealer=1)
    state = result["state"]
    assert state["hands"] == [cards("R1 R2 R3 R4 R5 R6 R7"), cards("G1 G2 G3 G4 G5 G6 G7")]
    assert state["top"] == "B5"
    assert state["discard"] == ["B5"]
    assert state["drawPileCards"] == ["Y1", "Y2"]
    assert state["turn"] == 0  # left of dealer 1


def test_deal_gives_seven_rounds_round_the_table_from_dealer_plus_one() -> None:
    deck = [f"{c}{n}" for n in "1234567" for c in "RGBY"] + cards("R9 G9")
    result = run_deck(deck, 4, dealer=2)
    hands = result["state"]["hands"]
    # Seat 3 (dealer + 1) gets the first card of each round, then 0, 1, 2 (the dealer).
    assert hands[3] == cards("R1 R2 R3 R4 R5 R6 R7")
    assert hands[0] == cards("G1 G2 G3 G4 G5 G6 G7")
    assert hands[1] == cards("B1 B2 B3 B4 B5 B6 B7")
    assert hands[2] == cards("Y1 Y2 Y3 Y4 Y5 Y6 Y7")
    assert result["state"]["top"] == "R9"
    assert result["state"]["turn"] == 3


def test_play_starts_left_of_the_dealer_and_goes_clockwise() -> None:
    deck = stacked_deck(HANDS3, "Y8", "B9 B9 B9")
    actions = [draw(0), draw(2), draw(1), draw(2)]
    result = run_deck(deck, 3, dealer=0, actions=actions)
    assert outcomes(result) == ["not_your_turn", "not_your_turn", "ok", "ok"]
    assert result["state"]["turn"] == 0
    assert result["state"]["direction"] == 1


# --- the first card ------------------------------------------------------------------------


def test_first_card_number_first_player_plays_in_its_colour() -> None:
    result = run_deck(stacked_deck(HANDS3, "Y5", "G9"), 3)
    state = result["state"]
    assert (state["phase"], state["turn"], state["color"], state["top"]) == (
        "playing",
        1,
        "Y",
        "Y5",
    )
    assert state["hands"] == [cards(h) for h in HANDS3]


def test_first_card_draw_two_first_player_draws_two_and_loses_turn() -> None:
    result = run_deck(stacked_deck(HANDS3, "Y+2", "Y8 Y9 G9"), 3)
    state = result["state"]
    assert state["hands"][1] == cards(HANDS3[1]) + ["Y8", "Y9"]
    assert state["drawPileCards"] == ["G9"]
    assert state["turn"] == 2
    assert state["pendingDraw"] == 0


def test_first_card_reverse_dealer_starts_counter_clockwise() -> None:
    result = run_deck(stacked_deck(HANDS3, "YR", "G9 G8"), 3, actions=[draw(0)])
    state = result["state"]
    assert state["direction"] == -1
    # The dealer (seat 0) started: its draw was accepted, and play went on to seat 2.
    assert outcomes(result) == ["ok"]
    assert state["turn"] == 2


def test_first_card_skip_first_player_is_skipped() -> None:
    result = run_deck(stacked_deck(HANDS3, "YS", "G9"), 3)
    assert result["state"]["turn"] == 2
    assert result["state"]["direction"] == 1


def test_first_card_wild_first_player_chooses_colour_then_plays() -> None:
    actions = [choose_color(0, "G"), play(1, "G3"), choose_color(1, "G"), play(1, "G3")]
    result = run_deck(stacked_deck(HANDS3, "W", "Y9"), 3, actions=actions)
    assert outcomes(result) == ["not_your_turn", "wrong_phase", "ok", "ok"]
    state = result["state"]
    assert state["top"] == "G3"
    assert state["turn"] == 2


def test_first_card_wild_puts_the_deal_in_choose_colour_phase() -> None:
    result = run_deck(stacked_deck(HANDS3, "W", "Y9"), 3)
    state = result["state"]
    assert (state["phase"], state["turn"], state["top"], state["color"]) == (
        "chooseColor",
        1,
        "W",
        None,
    )


def test_first_card_wild_reshuffle_option_turns_a_new_card() -> None:
    result = run_deck(stacked_deck(HANDS3, "W", "Y5"), 3, rules={"firstCardWild": "reshuffle"})
    state = result["state"]
    assert (state["phase"], state["top"], state["turn"]) == ("playing", "Y5", 1)
    assert state["drawPileCards"] == ["W"]


def test_first_card_wild_draw_four_is_reshuffled_by_default() -> None:
    result = run_deck(stacked_deck(HANDS3, "W+4", "Y5"), 3)
    state = result["state"]
    assert (state["phase"], state["top"], state["turn"]) == ("playing", "Y5", 1)
    assert state["drawPileCards"] == ["W+4"]
    assert state["hands"] == [cards(h) for h in HANDS3]


def test_first_card_wild_draw_four_reshuffle_shuffles_it_back_into_the_pile() -> None:
    """Reshuffled, the Wild Draw Four lands anywhere in the pile (here: not always last)."""
    positions = set()
    for seed in range(12):
        result = run(
            {
                "rules": {"firstCardWildDrawFour": "reshuffle"},
                "players": 3,
                "dealer": 0,
                "seed": f"s{seed}",
                "deck": stacked_deck(HANDS3, "W+4", "Y5 Y6 Y7 Y8 Y9"),
            }
        )
        state = result["state"]
        positions.add(state["drawPileCards"].index("W+4"))
        assert state["top"] != "W+4"
        assert state["hands"] == [cards(h) for h in HANDS3]
    assert len(positions) > 1


def test_first_card_wild_draw_four_bury_puts_it_at_the_bottom() -> None:
    result = run_deck(
        stacked_deck(HANDS3, "W+4", "Y5 G6 B7"), 3, rules={"firstCardWildDrawFour": "bury"}
    )
    state = result["state"]
    assert state["top"] == "Y5"
    assert state["drawPileCards"] == ["G6", "B7", "W+4"]
    assert state["turn"] == 1


# --- matching ------------------------------------------------------------------------------

HANDS_MATCH = ["R1 B7 GS G+2 B9 W", "G2 G3", "Y4 Y5"]


@pytest.mark.parametrize(
    ("top", "card", "expected"),
    [
        ("R7", "R1", "ok"),  # colour
        ("R7", "B7", "ok"),  # number
        ("RS", "GS", "ok"),  # symbol
        ("R+2", "G+2", "ok"),  # symbol (no penalty pending)
        ("R7", "B9", "card_not_playable"),
        ("R7", "GS", "card_not_playable"),
    ],
)
def test_play_must_match_colour_number_or_symbol(top: str, card: str, expected: str) -> None:
    result = run_setup(HANDS_MATCH, top, actions=[play(0, card)])
    assert outcomes(result) == [expected]
    if expected == "ok":
        assert result["state"]["top"] == card
    else:
        assert result["state"]["hands"][0] == cards(HANDS_MATCH[0])


def test_wild_may_be_played_any_time_even_holding_a_match_and_sets_the_colour() -> None:
    result = run_setup(
        ["R1 W R2", "G2 B3", "Y4"], "R7", actions=[play(0, "W", "B"), play(1, "G2"), play(1, "B3")]
    )
    assert outcomes(result) == ["ok", "card_not_playable", "ok"]
    assert result["state"]["color"] == "B"


def test_wild_without_a_colour_is_refused() -> None:
    result = run_setup(["R1 W", "G2", "Y4"], "R7", actions=[play(0, "W")])
    assert outcomes(result) == ["color_required"]


def test_played_card_must_be_in_the_hand() -> None:
    result = run_setup(["R1 R2", "G2", "Y4"], "R7", actions=[play(0, "R3")])
    assert outcomes(result) == ["card_not_in_hand"]


def test_only_the_turn_holder_may_play() -> None:
    result = run_setup(["R1 R2", "R3 G2", "Y4"], "R7", actions=[play(1, "R3"), draw(2)])
    assert outcomes(result) == ["not_your_turn", "not_your_turn"]


# --- drawing -------------------------------------------------------------------------------


def test_may_draw_instead_of_playing_even_holding_a_playable_card() -> None:
    result = run_setup(["R1 R2", "G2 G3", "Y4"], "R7", draw="B9", actions=[draw(0)])
    assert outcomes(result) == ["ok"]
    assert result["state"]["hands"][0] == cards("R1 R2 B9")
    assert result["state"]["turn"] == 1


def test_drawn_unplayable_card_ends_the_turn() -> None:
    result = run_setup(["G1 G2", "B2 B3", "Y4"], "R7", draw="B9 R3", actions=[draw(0)])
    state = result["state"]
    assert state["hands"][0] == cards("G1 G2 B9")
    assert state["turn"] == 1
    assert state["drawn"] is None
    assert state["drawPileCards"] == ["R3"]


def test_after_drawing_only_the_drawn_card_may_be_played() -> None:
    result = run_setup(
        ["R1 R2", "G2 G3", "Y4"],
        "R7",
        draw="R9 B1",
        actions=[draw(0), play(0, "R1"), draw(0), play(0, "R9")],
    )
    assert outcomes(result) == ["ok", "only_drawn_card", "already_drew", "ok"]
    state = result["state"]
    assert state["top"] == "R9"
    assert state["hands"][0] == cards("R1 R2")
    assert state["turn"] == 1


def test_drawn_playable_card_may_be_kept_by_passing() -> None:
    result = run_setup(["R1 R2", "G2 G3", "Y4"], "R7", draw="R9", actions=[draw(0), pass_(0)])
    assert outcomes(result) == ["ok", "ok"]
    assert result["state"]["hands"][0] == cards("R1 R2 R9")
    assert result["state"]["turn"] == 1
    assert result["state"]["top"] == "R7"


def test_drawn_card_legal_actions_are_that_card_and_pass() -> None:
    state = position(["R1 R2", "G2", "Y4"], "R7", draw="W")
    state, _ = apply(state, 0, draw(0))
    assert state.drawn == "W"
    legal = legal_actions(state, 0)
    assert {a.type for a in legal} == {"play", "pass"}
    assert {a.cards for a in legal if a.type == "play"} == {("W",)}


def test_pass_without_drawing_first_is_refused() -> None:
    result = run_setup(["R1 R2", "G2", "Y4"], "R7", actions=[pass_(0)])
    assert outcomes(result) == ["cannot_pass"]


# --- action cards --------------------------------------------------------------------------


def test_skip_skips_the_next_player() -> None:
    result = run_setup(["RS R1", "G2", "Y4"], "R7", actions=[play(0, "RS")])
    assert result["state"]["turn"] == 2
    assert {"type": "skip", "seat": 1} in events_of(result, 0)


def test_reverse_reverses_the_direction_of_play() -> None:
    result = run_setup(
        ["RR R1", "R2 R3", "R4 R5", "R6 R8"], "R7", actions=[play(0, "RR"), play(3, "R6")]
    )
    assert outcomes(result) == ["ok", "ok"]
    assert result["state"]["direction"] == -1
    assert result["state"]["turn"] == 2


def test_reverse_with_two_players_acts_as_skip() -> None:
    result = run_setup(["RR R1 R2", "G2 G3"], "R7", actions=[play(0, "RR"), play(0, "R1")])
    assert outcomes(result) == ["ok", "ok"]
    assert result["state"]["turn"] == 1


def test_skip_with_two_players_gives_the_same_player_another_turn() -> None:
    result = run_setup(["RS R1 R2", "G2 G3"], "R7", actions=[play(0, "RS"), play(0, "R1")])
    assert outcomes(result) == ["ok", "ok"]


def test_draw_two_makes_next_player_draw_two_and_lose_turn() -> None:
    result = run_setup(
        ["R+2 R1", "G2 G3", "Y4"], "R7", draw="B8 B9 Y1", actions=[play(0, "R+2"), play(1, "G2")]
    )
    assert outcomes(result) == ["ok", "not_your_turn"]
    state = result["state"]
    assert state["hands"][1] == cards("G2 G3 B8 B9")
    assert state["turn"] == 2
    assert state["pendingDraw"] == 0


def test_wild_draw_four_without_challenge_makes_next_draw_four_and_lose_turn() -> None:
    result = run_setup(
        ["W+4 G1", "G2 G3", "Y4"],
        "R7",
        draw="B1 B2 B3 B4 B5",
        rules={"wildDrawFourChallenge": False},
        actions=[play(0, "W+4", "B")],
    )
    state = result["state"]
    assert state["hands"][1] == cards("G2 G3 B1 B2 B3 B4")
    assert (state["turn"], state["color"], state["pendingDraw"]) == (2, "B", 0)


def test_wild_draw_four_victim_may_draw_four_and_lose_turn_or_challenge() -> None:
    state = position(["W+4 G1 G5", "G2 B3 G4", "Y4"], "R7", draw="B1 B2 B3 B4")
    state, _ = apply(state, 0, play(0, "W+4", "B"))
    assert (state.turn, state.pending) == (1, 4)
    assert {a.type for a in legal_actions(state, 1)} == {"draw", "challenge"}
    assert refused(state, 1, play(1, "B3")).code == "penalty_pending"
    state, _ = apply(state, 1, draw(1))
    assert state.hands[1] == tuple(cards("G2 B3 G4 B1 B2 B3 B4"))
    assert (state.turn, state.pending) == (2, 0)


# --- the Wild Draw Four challenge ----------------------------------------------------------


def test_challenge_guilty_offender_draws_four_and_challenger_takes_a_normal_turn() -> None:
    result = run_setup(
        ["W+4 R3 G1", "G2 B5", "Y4"],
        "R7",
        draw="Y1 Y2 Y3 Y5 Y6",
        actions=[play(0, "W+4", "B"), challenge(1), play(1, "B5")],
    )
    assert outcomes(result) == ["ok", "ok", "ok"]
    state = result["state"]
    assert state["hands"][0] == cards("R3 G1 Y1 Y2 Y3 Y5")
    assert state["hands"][1] == cards("G2")
    assert state["turn"] == 2
    challenge_event = events_of(result, 1)[0]
    assert challenge_event["guilty"] is True


def test_challenge_innocent_challenger_draws_six_and_loses_turn() -> None:
    result = run_setup(
        ["W+4 G1", "G2 B5", "Y4"],
        "R7",
        draw="Y1 Y2 Y3 Y5 Y6 Y7 Y8",
        actions=[play(0, "W+4", "B"), challenge(1)],
    )
    assert outcomes(result) == ["ok", "ok"]
    state = result["state"]
    assert state["hands"][0] == cards("G1")
    assert state["hands"][1] == cards("G2 B5 Y1 Y2 Y3 Y5 Y6 Y7")
    assert (state["turn"], state["pendingDraw"]) == (2, 0)
    assert events_of(result, 1)[0]["guilty"] is False


def test_challenge_shows_the_offenders_hand_to_the_challenger_only() -> None:
    state = position(["W+4 R3 G1", "G2 B5", "Y4"], "R7", draw="Y1 Y2 Y3 Y5")
    state, _ = apply(state, 0, play(0, "W+4", "B"))
    _, events = apply(state, 1, challenge(1))
    shown = [e for e in events if e["type"] == "challenge"][0]
    assert event_for(shown, 1)["hand"] == ["R3", "G1"]
    for viewer in (0, 2, None):
        assert "hand" not in event_for(shown, viewer)
        assert "R3" not in str(event_for(shown, viewer))


def test_challenge_without_a_wild_draw_four_is_refused() -> None:
    result = run_setup(["R+2 R1", "G2", "Y4"], "R7", actions=[challenge(0), play(0, "R+2")])
    assert outcomes(result) == ["nothing_to_challenge", "ok"]
    result = run_setup(["W+4 R1", "G2", "Y4"], "R7", actions=[play(0, "W+4", "G"), challenge(2)])
    assert outcomes(result) == ["ok", "nothing_to_challenge"]


# --- UNO -----------------------------------------------------------------------------------


def test_uno_called_with_the_play_cannot_be_caught() -> None:
    result = run_setup(
        ["R1 R2", "G2 G3", "Y4 Y5"],
        "R7",
        draw="B1 B2",
        actions=[play(0, "R1", uno=True), catch_uno(2, 0)],
    )
    assert outcomes(result)[0] == "ok"
    assert {"type": "callUno", "seat": 0} in events_of(result, 0)
    assert outcomes(result)[1] != "ok"
    assert result["state"]["hands"][0] == ["R2"]
    assert result["state"]["unoExposed"] is None


def test_uno_called_before_playing_the_next_to_last_card() -> None:
    result = run_setup(
        ["R1 R2", "G2 G3", "Y4 Y5"],
        "R7",
        draw="B1 B2",
        actions=[call_uno(0), play(0, "R1"), catch_uno(2, 0)],
    )
    assert outcomes(result)[:2] == ["ok", "ok"]
    assert outcomes(result)[2] != "ok"
    assert result["state"]["hands"][0] == ["R2"]


def test_call_uno_is_refused_without_two_cards_on_your_turn() -> None:
    result = run_setup(["R1 R2 R3", "G2 G3", "Y4 Y5"], "R7", actions=[call_uno(0), call_uno(1)])
    assert outcomes(result) == ["nothing_to_call", "nothing_to_call"]


def test_missed_uno_call_caught_draws_uno_penalty() -> None:
    result = run_setup(
        ["R1 R2", "G2 G3", "Y4 Y5"],
        "R7",
        draw="B1 B2 B3",
        actions=[play(0, "R1"), catch_uno(2, 0)],
    )
    assert outcomes(result) == ["ok", "ok"]
    state = result["state"]
    assert state["hands"][0] == cards("R2 B1 B2")
    assert state["turn"] == 1
    assert state["unoExposed"] is None


def test_missed_uno_call_exposes_the_player() -> None:
    result = run_setup(["R1 R2", "G2 G3", "Y4 Y5"], "R7", actions=[play(0, "R1")])
    assert result["state"]["unoExposed"] == 0


def test_catch_window_closes_when_the_next_player_plays() -> None:
    result = run_setup(
        ["R1 R2", "R3 G3", "Y4 Y5"],
        "R7",
        draw="B1 B2",
        actions=[play(0, "R1"), play(1, "R3"), catch_uno(2, 0)],
    )
    assert outcomes(result) == ["ok", "ok", "too_late"]
    assert result["state"]["hands"][0] == ["R2"]


def test_catch_window_closes_when_the_next_player_draws() -> None:
    result = run_setup(
        ["R1 R2", "G2 G3", "Y4 Y5"],
        "R7",
        draw="B1 B2 B3",
        actions=[play(0, "R1"), draw(1), catch_uno(2, 0)],
    )
    assert outcomes(result) == ["ok", "ok", "too_late"]
    assert result["state"]["hands"][0] == ["R2"]


def test_uno_call_before_catch_wins_the_race_and_catch_is_too_late() -> None:
    result = run_setup(
        ["R1 R2", "G2 G3", "Y4 Y5"],
        "R7",
        draw="B1 B2",
        actions=[play(0, "R1"), call_uno(0), catch_uno(2, 0)],
    )
    assert outcomes(result) == ["ok", "ok", "too_late"]
    assert result["state"]["hands"][0] == ["R2"]


def test_uno_catch_before_call_wins_the_race_and_call_is_too_late() -> None:
    result = run_setup(
        ["R1 R2", "G2 G3", "Y4 Y5"],
        "R7",
        draw="B1 B2",
        actions=[play(0, "R1"), catch_uno(2, 0), call_uno(0)],
    )
    assert outcomes(result) == ["ok", "ok", "too_late"]
    assert result["state"]["hands"][0] == cards("R2 B1 B2")


def test_catch_of_a_player_with_more_than_one_card_is_refused() -> None:
    result = run_setup(["R1 R2 R3", "G2 G3", "Y4 Y5"], "R7", actions=[catch_uno(2, 1)])
    assert outcomes(result) == ["nothing_to_catch"]


def test_catch_needs_a_target_and_may_not_target_yourself() -> None:
    state = position(["R1 R2", "G2 G3", "Y4 Y5"], "R7")
    state, _ = apply(state, 0, play(0, "R1"))
    assert refused(state, 2, {"type": "catchUno"}).code == "target_required"
    assert refused(state, 0, catch_uno(0, 0)).code == "bad_target"


# --- going out -----------------------------------------------------------------------------


def test_going_out_ends_the_deal() -> None:
    result = run_setup(
        ["R1", "G2 G3", "Y4 Y5"], "R7", actions=[play(0, "R1"), draw(1), play(1, "G2")]
    )
    assert outcomes(result) == ["ok", "wrong_phase", "wrong_phase"]
    state = result["state"]
    assert state["phase"] == "dealOver"
    assert state["winner"] == 0
    assert state["dealScores"] == [2 + 3 + 4 + 5, 0, 0]
    assert state["totals"] == [14, 0, 0]
    events = events_of(result, 0)
    assert any(e["type"] == "dealOver" and e["winner"] == 0 for e in events)


def test_draw_two_as_last_card_still_makes_next_player_draw_and_counts() -> None:
    result = run_setup(["R+2", "G1", "B2"], "R7", draw="Y3 Y4 Y9", actions=[play(0, "R+2")])
    state = result["state"]
    assert state["phase"] == "dealOver"
    assert state["hands"][1] == cards("G1 Y3 Y4")
    assert state["dealScores"] == [1 + 3 + 4 + 2, 0, 0]


def test_wild_draw_four_as_last_card_still_makes_next_player_draw_and_counts() -> None:
    result = run_setup(
        ["W+4", "G1", "B2"], "R7", draw="Y3 Y4 Y5 Y6 Y9", actions=[play(0, "W+4", "G")]
    )
    state = result["state"]
    assert state["phase"] == "dealOver"
    assert state["hands"][1] == cards("G1 Y3 Y4 Y5 Y6")
    assert state["dealScores"] == [1 + 3 + 4 + 5 + 6 + 2, 0, 0]


def test_last_card_wild_needs_its_colour_and_ends_the_deal() -> None:
    result = run_setup(["W", "G1", "B2"], "R7", actions=[play(0, "W"), play(0, "W", "Y")])
    assert outcomes(result) == ["color_required", "ok"]
    assert result["state"]["phase"] == "dealOver"


# --- the draw pile running out -------------------------------------------------------------


def test_empty_draw_pile_reshuffles_the_discards_keeping_the_top_card() -> None:
    start = run_setup(["G1 G2", "B1", "Y1"], "R7 Y2 Y3 Y4")
    result = run_setup(["G1 G2", "B1", "Y1"], "R7 Y2 Y3 Y4", actions=[draw(0)])
    state = result["state"]
    assert state["discard"] == ["R7"]
    assert state["drawPile"] == 2
    assert len(state["hands"][0]) == 3
    assert state["hands"][0][2] in {"Y2", "Y3", "Y4"}
    assert all_cards(state) == all_cards(start["state"])
    assert any(e["type"] == "reshuffle" for e in events_of(result, 0))


def test_nothing_to_reshuffle_draw_yields_no_card_and_no_error() -> None:
    result = run_setup(["G1 G2", "B1", "Y1"], "R7", actions=[draw(0)])
    assert outcomes(result) == ["ok"]
    state = result["state"]
    assert state["hands"][0] == cards("G1 G2")
    assert state["turn"] == 1
    assert [e["count"] for e in events_of(result, 0) if e["type"] == "draw"] == [0]


def test_nothing_to_reshuffle_penalty_draw_yields_fewer_cards() -> None:
    result = run_setup(["R+2 G2", "B1", "Y1"], "R7", draw="R9", actions=[play(0, "R+2")])
    assert outcomes(result) == ["ok"]
    state = result["state"]
    # R9 from the pile, then the discards under the top (R7) reshuffled: two cards.
    assert sorted(state["hands"][1]) == sorted(cards("B1 R9 R7"))
    result = run_setup(["R+2 G2", "B1", "Y1"], "R7", actions=[play(0, "R+2")])
    state = result["state"]
    assert state["hands"][1] == cards("B1 R7")  # only one card could be found
    assert state["discard"] == ["R+2"]
    assert state["turn"] == 2


# --- table size ----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 10])
def test_new_match_deals_seven_each_to_two_to_ten_players(players: int) -> None:
    state, _ = new_match(CLASSIC, players, "table-size", dealer=0)
    first = state.discard[-1]
    sizes = sorted(len(h) for h in state.hands)
    extra = 2 if CARD_INFO[first].rank == "+2" else 0
    assert sizes == sorted([7] * (players - 1) + [7 + extra])
    assert sum(state_cards(state).values()) == 108


@pytest.mark.parametrize("players", [0, 1, 11])
def test_new_match_refuses_fewer_than_two_or_more_than_ten_players(players: int) -> None:
    with pytest.raises(InvalidAction) as err:
        new_match(CLASSIC, players, "x")
    assert err.value.code == "bad_players"


def test_ten_players_turn_order_wraps_round_the_table() -> None:
    hands = ["R1 R2"] * 10
    result = run_setup(hands, "R7", turn=9, actions=[play(9, "R1"), play(0, "R1")])
    assert outcomes(result) == ["ok", "ok"]
    assert result["state"]["turn"] == 1


# --- refused actions change nothing --------------------------------------------------------


def _drawn_position():
    state = position(["R1 R2", "G2 G3", "Y4"], "R7", draw="R9")
    return apply(state, 0, draw(0))[0]


def _wd4_position():
    state = position(["W+4 G1", "G2 R3", "Y4"], "R7", draw="B1 B2 B3 B4")
    return apply(state, 0, play(0, "W+4", "B"))[0]


def _over_position():
    state = position(["R1", "G2 G3", "Y4"], "R7")
    return apply(state, 0, play(0, "R1"))[0]


def _plain_position():
    return position(["R1 R2 B4", "G2 G3", "Y4"], "R7", draw="B1 B2")


REFUSALS = [
    (_plain_position, 1, play(1, "G2"), "not_your_turn"),
    (_plain_position, 0, play(0, "G2"), "card_not_in_hand"),
    (_plain_position, 0, play(0, "B4"), "card_not_playable"),
    (_plain_position, 0, {"type": "play", "cards": ["R1", "R2"]}, "one_card_only"),
    (_plain_position, 0, pass_(0), "cannot_pass"),
    (_plain_position, 0, challenge(0), "nothing_to_challenge"),
    (_plain_position, 0, call_uno(0), "nothing_to_call"),
    (_plain_position, 1, catch_uno(1, 0), "nothing_to_catch"),
    (_plain_position, 0, next_deal(0), "wrong_phase"),
    (_plain_position, 0, choose_color(0, "G"), "wrong_phase"),
    (_plain_position, 0, {"type": "shout"}, "unknown_action"),
    (_plain_position, 0, {"type": "play"}, "cards_required"),
    (_plain_position, 0, {"type": "play", "cards": ["X9"]}, "unknown_card"),
    (_plain_position, 7, draw(7), "bad_seat"),
    (_drawn_position, 0, play(0, "R1"), "only_drawn_card"),
    (_drawn_position, 0, draw(0), "already_drew"),
    (_wd4_position, 1, play(1, "R3"), "penalty_pending"),
    (_wd4_position, 2, challenge(2), "nothing_to_challenge"),
    (_over_position, 1, play(1, "G2"), "wrong_phase"),
    (_over_position, 1, draw(1), "wrong_phase"),
]


@pytest.mark.parametrize(
    ("make", "seat", "action", "code"),
    REFUSALS,
    ids=[f"{code}-{i}" for i, (_, _, _, code) in enumerate(REFUSALS)],
)
def test_refused_action_changes_nothing_and_carries_a_stable_code(
    make, seat: int, action: dict, code: str
) -> None:
    state = make()
    err = refused(state, seat, action)
    assert isinstance(err, EngineError)
    assert err.code == code
    assert err.to_json() == {"code": code, "message": err.message}
    assert err.message


def test_every_legal_action_is_accepted_from_a_fresh_deal() -> None:
    state, _ = new_match(CLASSIC, 4, "legal-check", dealer=0)
    for seat in range(4):
        for action in legal_actions(state, seat):
            apply(state, seat, action)  # raises if the list and apply disagree


def test_deal_keeps_every_card_of_the_deck() -> None:
    state, _ = new_match(CLASSIC, 4, "conservation", dealer=1)
    assert state_cards(state) == Counter(classic108())
