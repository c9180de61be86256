"""Helsinki rules (preset ``helsinki``) and Warszawa rules (``warszawa``), docs/variants.md.

Helsinki: draw until playable without a cap (reshuffling as needed), also after a draw
penalty (``penaltyDrawToMatch``); a 0 passes every hand one seat against the direction of
play; going out on a 0 still passes the hands, so the player does not win. Warszawa adds
a forced 7 swap with a chosen opponent, also as the last card.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from uno_helpers import (
    all_cards,
    cards,
    draw,
    events_of,
    outcomes,
    play,
    position,
    refused,
    run_setup,
)

from engine import legal_actions, rules_from_json

HELSINKI = {"preset": "helsinki"}
WARSZAWA = {"preset": "warszawa"}


def helsinki(hands: list[str], discard: str, **kw: Any) -> dict[str, Any]:
    return run_setup(hands, discard, rules={**HELSINKI, **kw.pop("rules", {})}, **kw)


# --- draw until playable -----------------------------------------------------------------


def test_helsinki_draws_until_a_playable_card_with_no_cap() -> None:
    pile = "G1 G2 G3 G4 G5 G6 G8 G9 B1 B2 B3 B4 B6 Y1 Y2 R9 R3"
    result = helsinki(["G0 B0", "B5", "Y5"], "R7", draw=pile, actions=[draw(0)])
    assert outcomes(result) == ["ok"]
    state = result["state"]
    assert state["hands"][0] == cards("G0 B0") + cards(pile)[:16]
    assert state["drawn"] == "R9"
    assert state["turn"] == 0


def test_helsinki_the_card_drawn_to_match_may_be_played_at_once() -> None:
    result = helsinki(
        ["G0 B0", "B5", "Y5"], "R7", draw="G1 G2 R9 R3", actions=[draw(0), play(0, "R9")]
    )
    assert outcomes(result) == ["ok", "ok"]
    assert result["state"]["top"] == "R9"
    assert result["state"]["turn"] == 1


def test_helsinki_draw_to_match_reshuffles_the_discards_as_needed() -> None:
    """Two cards in the draw pile, none playable: the discards under the top card are
    shuffled into a new pile and the draw goes on until the red 3 comes."""
    result = helsinki(
        ["G0 B0", "B5", "Y5"],
        "R7 G1 B2 Y3 R3 G4",
        draw="G2 B9",
        actions=[draw(0)],
    )
    assert outcomes(result) == ["ok"]
    state = result["state"]
    assert any(e["type"] == "reshuffle" for e in events_of(result, 0))
    assert state["drawn"] == "R3"
    assert state["hands"][0][-1] == "R3"
    assert state["discard"] == ["R7"]
    assert all_cards(state) == Counter(cards("G0 B0 B5 Y5 R7 G1 B2 Y3 R3 G4 G2 B9"))


def test_helsinki_draw_to_match_with_nothing_left_yields_fewer_cards() -> None:
    result = helsinki(["G0 B0", "B5", "Y5"], "R7", draw="G2", actions=[draw(0)])
    assert outcomes(result) == ["ok"]
    state = result["state"]
    assert state["hands"][0] == cards("G0 B0 G2")
    assert state["turn"] == 1


def test_helsinki_preset_sets_draw_to_match_without_a_cap() -> None:
    rules = rules_from_json(HELSINKI)
    assert rules.draw_to_match and rules.draw_to_match_cap == 0
    assert rules.penalty_draw_to_match and rules.swap_on_last_card
    assert rules.zero_pass and rules.zero_pass_direction == "againstPlay"
    assert not rules.seven_swaps
    assert rules.multi_play and rules.stacking  # Helsinki plays on top of DrukUNO


def test_helsinki_penalty_draw_then_draws_on_to_a_playable_card_and_may_play_it() -> None:
    """penaltyDrawToMatch: "if you choose to draw, or are forced to, keep drawing until you
    get a card you can lay" (seed). The engine draws the penalty, then to a match."""
    result = helsinki(
        ["G+2 R1", "R2", "Y5", "B5"],
        "G8",
        draw="Y1 Y2 B4 G5 B6",
        actions=[play(0, "G+2"), draw(1), play(1, "G5")],
    )
    assert outcomes(result) == ["ok", "ok", "ok"]
    state = result["state"]
    assert state["hands"][1] == cards("R2 Y1 Y2 B4")
    assert state["top"] == "G5"
    assert state["turn"] == 2


def test_helsinki_penalty_draw_stops_when_the_penalty_brought_a_playable_card() -> None:
    result = helsinki(
        ["G+2 R1", "R2", "Y5", "B5"],
        "G8",
        draw="G5 Y1 Y2 B3 G6 B6",
        actions=[play(0, "G+2"), draw(1)],
    )
    assert outcomes(result) == ["ok", "ok"]
    assert result["state"]["hands"][1] == cards("R2 G5 Y1")


def test_penalty_draw_to_match_without_stacking_the_victim_draws_to_a_playable_card() -> None:
    """Stacking off, the Draw Two's penalty is drawn at once: penaltyDrawToMatch acts all
    the same, the victim draws on to a playable card and keeps the turn to play it."""
    result = helsinki(
        ["G+2 R1", "R2", "Y5", "B5"],
        "G8",
        rules={"stacking": False},
        draw="Y1 Y2 B4 G5 B6",
        actions=[play(0, "G+2"), play(1, "G5")],
    )
    assert outcomes(result) == ["ok", "ok"]
    state = result["state"]
    assert state["hands"][1] == cards("R2 Y1 Y2 B4")
    assert state["top"] == "G5"
    assert state["turn"] == 2


def test_penalty_draw_to_match_off_the_penalty_victim_loses_the_turn() -> None:
    result = helsinki(
        ["G+2 R1", "R2", "Y5", "B5"],
        "G8",
        rules={"penaltyDrawToMatch": False},
        draw="Y1 Y2 B4 G5 B6",
        actions=[play(0, "G+2"), draw(1)],
    )
    state = result["state"]
    assert state["hands"][1] == cards("R2 Y1 Y2")
    assert state["turn"] == 2


# --- a 0 passes every hand against the direction of play ------------------------------------


def test_helsinki_zero_passes_every_hand_one_seat_against_the_direction_of_play() -> None:
    result = helsinki(["R0 R1", "G1 G2", "Y1 Y2", "B1 B2"], "R8", actions=[play(0, "R0")])
    assert outcomes(result) == ["ok"]
    hands = result["state"]["hands"]
    # Play runs 0 -> 1 -> 2 -> 3; hands travel the other way: seat s's hand goes to s - 1.
    assert hands == [cards("G1 G2"), cards("Y1 Y2"), cards("B1 B2"), cards("R1")]
    assert result["state"]["turn"] == 1


def test_helsinki_zero_pass_follows_a_reversed_direction() -> None:
    result = helsinki(
        ["R0 R1", "G1 G2", "Y1 Y2", "B1 B2"], "R8", direction=-1, actions=[play(0, "R0")]
    )
    hands = result["state"]["hands"]
    # Play runs 0 -> 3 -> 2 -> 1; hands travel 0 -> 1 -> 2 -> 3 -> 0.
    assert hands == [cards("B1 B2"), cards("R1"), cards("G1 G2"), cards("Y1 Y2")]


def test_zero_pass_direction_with_play_passes_hands_the_way_play_goes() -> None:
    result = helsinki(
        ["R0 R1", "G1 G2", "Y1 Y2", "B1 B2"],
        "R8",
        rules={"zeroPassDirection": "withPlay"},
        actions=[play(0, "R0")],
    )
    hands = result["state"]["hands"]
    assert hands == [cards("B1 B2"), cards("R1"), cards("G1 G2"), cards("Y1 Y2")]


def test_helsinki_going_out_on_a_zero_passes_the_hands_and_the_player_does_not_win() -> None:
    """Seed: going out on a 0 you receive another player's cards and do not win. The texts
    do not say who wins then; the engine (effects._end_if_someone_is_out) ends the deal
    with whoever now holds the empty hand: here seat 3, the seat it passed to."""
    result = helsinki(["R0", "G1 G2", "Y1 Y2", "B1 B2"], "R8", actions=[play(0, "R0")])
    assert outcomes(result) == ["ok"]
    state = result["state"]
    assert state["hands"][0] == cards("G1 G2")
    assert state["hands"][3] == []
    assert state["winner"] == 3
    assert state["phase"] == "dealOver"
    assert state["dealScores"] == [0, 0, 0, 3 + 3 + 3]


def test_swap_on_last_card_off_going_out_on_a_zero_wins() -> None:
    result = helsinki(
        ["R0", "G1 G2", "Y1 Y2", "B1 B2"],
        "R8",
        rules={"swapOnLastCard": False},
        actions=[play(0, "R0")],
    )
    state = result["state"]
    assert state["winner"] == 0
    assert state["hands"][1] == cards("G1 G2")


def test_helsinki_several_zeros_pass_the_hands_once() -> None:
    result = helsinki(
        ["R0 G0 R1", "G1 G2", "Y1 Y2", "B1 B2"],
        "R8",
        actions=[{"seat": 0, "type": "play", "cards": ["R0", "G0"]}],
    )
    assert outcomes(result) == ["ok"]
    assert result["state"]["hands"][3] == ["R1"]


def test_helsinki_a_seven_swaps_nothing() -> None:
    result = helsinki(["R7 R1", "G1 G2", "Y1"], "R8", actions=[play(0, "R7")])
    assert outcomes(result) == ["ok"]
    assert result["state"]["hands"][0] == ["R1"]


# --- Warszawa: a 7 forces a swap -------------------------------------------------------------


def test_warszawa_a_seven_swaps_hands_with_the_chosen_opponent() -> None:
    result = run_setup(
        ["R7 R1", "G1 G2", "Y1 Y2 Y3"],
        "R8",
        rules=WARSZAWA,
        actions=[play(0, "R7", target=2)],
    )
    assert outcomes(result) == ["ok"]
    hands = result["state"]["hands"]
    assert hands[0] == cards("Y1 Y2 Y3")
    assert hands[2] == ["R1"]
    assert hands[1] == cards("G1 G2")
    assert result["state"]["turn"] == 1
    assert events_of(result, 0)[-1] == {"type": "swapHands", "seat": 0, "target": 2}


def test_warszawa_a_seven_needs_a_target() -> None:
    state = position(["R7 R1", "G1 G2", "Y1"], "R8", rules=WARSZAWA)
    assert refused(state, 0, play(0, "R7")).code == "target_required"


@pytest.mark.parametrize("target", [0, 3, -1])
def test_warszawa_a_seven_target_must_be_an_opponent(target: int) -> None:
    state = position(["R7 R1", "G1 G2", "Y1"], "R8", rules=WARSZAWA)
    assert refused(state, 0, play(0, "R7", target=target)).code == "bad_target"


def test_warszawa_legal_actions_list_a_seven_once_per_opponent() -> None:
    state = position(["R7 R1", "G1 G2", "Y1"], "R8", rules=WARSZAWA)
    targets = sorted(a.target for a in legal_actions(state, 0) if a.cards == ("R7",) and not a.uno)
    assert targets == [1, 2]


def test_warszawa_a_seven_as_the_last_card_still_swaps_and_the_player_does_not_win() -> None:
    """The texts do not say who wins; the engine ends the deal with the opponent who now
    holds the empty hand."""
    result = run_setup(
        ["R7", "G1 G2", "Y1 Y2 Y3"],
        "R8",
        rules=WARSZAWA,
        actions=[play(0, "R7", target=1)],
    )
    assert outcomes(result) == ["ok"]
    state = result["state"]
    assert state["hands"][0] == cards("G1 G2")
    assert state["hands"][1] == []
    assert state["winner"] == 1
    assert state["phase"] == "dealOver"


def test_warszawa_a_last_seven_needs_a_target_too() -> None:
    state = position(["R7", "G1 G2", "Y1"], "R8", rules=WARSZAWA)
    assert refused(state, 0, play(0, "R7")).code == "target_required"


def test_warszawa_several_sevens_swap_once() -> None:
    result = run_setup(
        ["R7 G7 R1", "G1 G2", "Y1 Y2 Y3"],
        "R8",
        rules=WARSZAWA,
        actions=[{"seat": 0, "type": "play", "cards": ["R7", "G7"], "target": 1}],
    )
    assert outcomes(result) == ["ok"]
    hands = result["state"]["hands"]
    assert hands[0] == cards("G1 G2")
    assert hands[1] == ["R1"]


def test_warszawa_keeps_the_helsinki_zero_pass() -> None:
    result = run_setup(["R0 R1", "G1 G2", "Y1 Y2"], "R8", rules=WARSZAWA, actions=[play(0, "R0")])
    assert result["state"]["hands"] == [cards("G1 G2"), cards("Y1 Y2"), ["R1"]]


def test_warszawa_preset_is_helsinki_plus_the_seven_swap() -> None:
    helsinki_rules = rules_from_json(HELSINKI).to_json()
    warszawa_rules = rules_from_json(WARSZAWA).to_json()
    differences = {
        k for k in warszawa_rules if k != "preset" and warszawa_rules[k] != helsinki_rules[k]
    }
    assert differences == {"sevenSwap"}
