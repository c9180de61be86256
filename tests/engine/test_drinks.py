"""The DrukUNO drink tally (``drinks``, docs/variants.md "Drinking tally").

One sip per card drawn (chosen or forced), one per skip, and at the end of a deal every
other player drinks for the cards in hand: 1 per number, Reverse, Skip, Wild; 2 per Draw
Two; 4 per Wild Draw Four. A finishing Draw Two / Four is drawn (and drunk) first. Every
sip is an event ``{"type": "sip", "seat", "count", "reason"}`` and the state keeps the
per-seat total (``drinks``) and the reasons (the view's ``byReason``).
"""

from __future__ import annotations

from typing import Any

from uno_helpers import (
    catch_uno,
    draw,
    events_of,
    outcomes,
    play,
    position,
    run_deck,
    run_setup,
    stacked_deck,
)

from engine import apply, rules_from_json, view_for
from engine.drinks import BEVERAGES, low_strength_shot_cl

DRINKS = {"preset": "druk", "drinks": True}


def sips(result: dict[str, Any], index: int) -> list[tuple[int, int, str]]:
    return [
        (e["seat"], e["count"], e["reason"]) for e in events_of(result, index) if e["type"] == "sip"
    ]


def test_drinks_one_sip_per_card_drawn_by_choice() -> None:
    result = run_setup(["R1 G2", "B1", "Y1"], "Y8", draw="B2 B3", rules=DRINKS, actions=[draw(0)])
    assert sips(result, 0) == [(0, 1, "draw")]
    assert result["state"]["drinks"] == [1, 0, 0]


def test_drinks_one_sip_per_card_of_a_draw_penalty() -> None:
    result = run_setup(
        ["G+2 R1", "B1", "Y1"],
        "G8",
        draw="B2 B3 B4",
        rules=DRINKS,
        actions=[play(0, "G+2"), draw(1)],
    )
    assert outcomes(result) == ["ok", "ok"]
    assert sips(result, 1) == [(1, 2, "draw")]
    assert result["state"]["drinks"] == [0, 2, 0]


def test_drinks_a_wild_draw_four_penalty_costs_four_sips() -> None:
    result = run_setup(
        ["W+4 R1", "B1", "Y1"],
        "G8",
        draw="B2 B3 B4 B5 B6",
        rules=DRINKS,
        actions=[play(0, "W+4", "B"), draw(1)],
    )
    assert sips(result, 1) == [(1, 4, "draw")]


def test_drinks_a_missed_uno_penalty_is_drunk_per_card() -> None:
    result = run_setup(
        ["R1 R2", "B1 B2", "Y1"],
        "R8",
        draw="G2 G3 G4",
        rules=DRINKS,
        actions=[play(0, "R1"), catch_uno(1, 0)],
    )
    assert outcomes(result) == ["ok", "ok"]
    assert sips(result, 1) == [(0, 2, "draw")]


def test_drinks_everybody_draws_two_costs_every_other_player_two_sips() -> None:
    result = run_setup(
        ["A+2 R1", "B1", "Y1"],
        "R8",
        draw="G1 G2 G3 G4",
        rules={**DRINKS, "everybodyDrawsTwo": 1},
        actions=[play(0, "A+2", "G")],
    )
    assert sips(result, 0) == [(1, 2, "draw"), (2, 2, "draw")]
    assert result["state"]["drinks"] == [0, 2, 2]


def test_drinks_one_sip_for_being_skipped() -> None:
    result = run_setup(["RS R1", "B1", "Y1"], "R8", rules=DRINKS, actions=[play(0, "RS")])
    assert sips(result, 0) == [(1, 1, "skipped")]
    assert result["state"]["drinks"] == [0, 1, 0]


def test_drinks_each_of_several_skips_costs_its_victim_a_sip() -> None:
    result = run_setup(
        ["RS GS BS R1", "B1", "Y1", "G1"],
        "R8",
        rules=DRINKS,
        actions=[{"seat": 0, "type": "play", "cards": ["RS", "GS", "BS"]}],
    )
    assert sips(result, 0) == [(1, 1, "skipped"), (2, 1, "skipped"), (3, 1, "skipped")]


def test_drinks_a_first_card_skip_costs_the_skipped_player_a_sip() -> None:
    hands = ["R1 R2 R3 R4 R5 R6 R7", "G1 G2 G3 G4 G5 G6 G7", "Y1 Y2 Y3 Y4 Y5 Y6 Y7"]
    result = run_deck(stacked_deck(hands, "BS", "B9"), 3, rules=DRINKS)
    assert result["state"]["drinks"] == [0, 1, 0]


def test_drinks_at_deal_end_others_drink_per_card_in_hand_by_weight() -> None:
    """1 per number, Reverse, Skip, Wild; 2 per Draw Two; 4 per Wild Draw Four."""
    result = run_setup(
        ["R1", "B1 GR YS W", "G+2 W+4", "Y0"],
        "R8",
        rules=DRINKS,
        actions=[play(0, "R1")],
    )
    assert result["state"]["phase"] == "dealOver"
    assert sips(result, 0) == [(1, 4, "hand"), (2, 6, "hand"), (3, 1, "hand")]
    assert result["state"]["drinks"] == [0, 4, 6, 1]


def test_drinks_extra_cards_left_in_hand_cost_what_they_make_others_draw() -> None:
    """The seed gives no weight for the extra cards; the engine charges a Wild Draw Eight
    8 sips and an Everybody Draws Two 2 (drinks._HAND_SIPS)."""
    result = run_setup(
        ["R1", "W+8 A+2"],
        "R8",
        rules={**DRINKS, "wildDrawEight": 1, "everybodyDrawsTwo": 1},
        actions=[play(0, "R1")],
    )
    assert sips(result, 0) == [(1, 10, "hand")]


def test_drinks_a_finishing_draw_two_is_drawn_and_drunk_before_the_hand_is_counted() -> None:
    """Seed: the next player first draws 2 (2 sips) and then drinks for every card in hand,
    the two drawn included."""
    result = run_setup(
        ["G+2", "B1", "Y1"],
        "G8",
        draw="W+4 R3",
        rules=DRINKS,
        actions=[play(0, "G+2")],
    )
    assert outcomes(result) == ["ok"]
    assert result["state"]["hands"][1] == ["B1", "W+4", "R3"]
    assert sips(result, 0) == [(1, 2, "draw"), (1, 1 + 4 + 1, "hand"), (2, 1, "hand")]


def test_drinks_a_finishing_wild_draw_four_is_drawn_and_drunk_first() -> None:
    result = run_setup(
        ["W+4", "B1", "Y1"],
        "G8",
        draw="R2 R3 R4 R5",
        rules=DRINKS,
        actions=[play(0, "W+4", "R")],
    )
    assert sips(result, 0) == [(1, 4, "draw"), (1, 5, "hand"), (2, 1, "hand")]


def test_drinks_the_winner_drinks_nothing_for_the_empty_hand() -> None:
    result = run_setup(["R1", "B1"], "R8", rules=DRINKS, actions=[play(0, "R1")])
    assert result["state"]["drinks"][0] == 0


def test_drinks_tally_keeps_the_reason_of_every_sip_in_the_view() -> None:
    state = position(["RS R1 R2", "B1 B2", "Y1"], "R8", draw="G1 G2 G3", rules=DRINKS)
    state, _ = apply(state, 0, play(0, "RS"))  # seat 1 skipped: 1
    state, _ = apply(state, 2, draw(2))  # seat 2 draws: 1
    assert state.sips == ((1, 1, "skipped"), (2, 1, "draw"))
    view = view_for(state, 0)
    assert view["drinks"] == [
        {"total": 0, "byReason": {}},
        {"total": 1, "byReason": {"skipped": 1}},
        {"total": 1, "byReason": {"draw": 1}},
    ]


def test_drinks_tally_adds_up_across_deals() -> None:
    state = position(["R1", "B1 B2", "Y1"], "R8", draw="G1 G2 G3", rules=DRINKS)
    state, _ = apply(state, 0, play(0, "R1"))
    assert state.drinks == (0, 2, 1)
    state, _ = apply(state, 0, {"type": "nextDeal"})
    assert state.drinks == (0, 2, 1)


def test_drinks_off_no_sip_events_and_no_tally() -> None:
    result = run_setup(
        ["RS G+2 R1", "B1", "Y1"],
        "R8",
        draw="B2 B3 B4",
        rules={"preset": "druk"},
        actions=[play(0, "RS"), draw(2), play(0, "R1")],
    )
    assert outcomes(result) == ["ok", "ok", "ok"]
    assert result["state"]["drinks"] is None
    for index in range(3):
        assert not [e for e in events_of(result, index) if e["type"] == "sip"]
    state = position(["R1 R2", "B1"], "R8", rules={"preset": "druk"})
    assert view_for(state, 0)["drinks"] is None


def test_drinks_are_opt_in_for_every_shedding_preset() -> None:
    for preset in ("classic", "druk", "helsinki", "warszawa", "duo", "flip"):
        assert rules_from_json({"preset": preset}).drinks is False


def test_sips_as_points_keeps_the_same_tally_for_the_client_to_show_as_points() -> None:
    """The rules: the room "offers a points instead of sips switch"; the engine counts the
    same tally either way and only carries the switch in the rules for the client."""
    actions = [play(0, "RS"), draw(2)]
    hands = ["RS R1 R2", "B1 B2", "Y1"]
    plain = run_setup(hands, "R8", draw="G1 G2", rules=DRINKS, actions=actions)
    points = run_setup(
        hands, "R8", draw="G1 G2", rules={**DRINKS, "sipsAsPoints": True}, actions=actions
    )
    assert points["state"]["drinks"] == plain["state"]["drinks"] == [0, 1, 1]
    assert rules_from_json({**DRINKS, "sipsAsPoints": True}).to_json()["sipsAsPoints"] is True


def test_drinks_beverage_table_and_low_strength_conversion() -> None:
    """The rules: beer 33 cl 4.6 %, draught 50 cl, cider, wine 12 cl 12 %, spirits 2 cl 37 %;
    2 cl x 37 / ABV, e.g. 21 % -> 3.5 cl."""
    by_id = {b["id"]: b for b in BEVERAGES}
    assert (by_id["beer"]["volumeCl"], by_id["beer"]["abv"]) == (33, 4.6)
    assert (by_id["draught"]["volumeCl"], by_id["draught"]["abv"]) == (50, 4.6)
    assert (by_id["wineGlass"]["volumeCl"], by_id["wineGlass"]["abv"]) == (12, 12.0)
    assert (by_id["shot"]["volumeCl"], by_id["shot"]["abv"]) == (2, 37.0)
    assert "cider" in by_id
    assert low_strength_shot_cl(21) == 3.5
    assert low_strength_shot_cl(37) == 2.0
