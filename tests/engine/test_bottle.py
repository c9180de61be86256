"""Bottle UNO (docs/variants-party.md): turn a card, do what it says,
and the server keeps the sip tally with a reason for every sip."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    Action,
    EngineError,
    InvalidAction,
    apply,
    legal_actions,
    new_match,
    rules_from_json,
    state_from_json,
    view_for,
)
from engine.cards import classic108
from engine.game_registry import GAMES
from engine.variants import bottle
from engine.variants.bottle import BottleState, card_action


def table(cards: str, players: int = 4, turn: int = 0, **rules: Any) -> BottleState:
    """A game whose pile turns ``cards`` (top first) with ``turn`` to move."""
    return bottle.from_setup(
        rules_from_json({"preset": "bottle", **rules}),
        players,
        "test",
        players - 1,
        {"drawPile": cards.split(), "turn": turn},
    )


def turn(state: BottleState, seat: int | None = None, **fields: Any) -> tuple[BottleState, Any]:
    return apply(state, state.turn if seat is None else seat, {"type": "turnCard", **fields})


def refused(state: BottleState, seat: int, kind: str, **fields: Any) -> str:
    before = json.dumps(state.to_json())
    with pytest.raises(EngineError) as err:
        apply(state, seat, {"type": kind, **fields})
    assert json.dumps(state.to_json()) == before
    return err.value.code


def test_bottle_preset_is_registered_as_its_own_game() -> None:
    assert GAMES["bottle"].state_class is BottleState
    state, events = new_match(rules_from_json({"preset": "bottle"}), 4, "s", 2)
    assert isinstance(state, BottleState)
    assert Counter(state.pile) == Counter(classic108())
    assert (state.phase, state.turn, state.deal, state.drinks) == ("playing", 3, 1, (0,) * 4)
    assert events[0]["type"] == "deal"


@pytest.mark.parametrize(
    ("card", "action"),
    [
        ("R0", "category"),
        ("G0", "category"),
        ("R3", "drink"),
        ("B5", "drink"),
        ("G1", "give"),
        ("Y4", "give"),
        ("B6", "waterfall"),
        ("Y7", "peeCard"),
        ("R8", "rule"),
        ("G9", "finger"),
        ("BS", "skip"),
        ("YR", "reverse"),
        ("W", "toast"),
        ("R+2", "drawTwo"),
        ("W+4", "drawFour"),
    ],
)
def test_bottle_each_card_names_its_action_from_the_table(card: str, action: str) -> None:
    assert card_action(card) == action
    new, events = turn(table(card + " R0"))
    assert events[0] == {**events[0], "type": "turnCard", "seat": 0, "card": card}
    assert events[0]["action"] == action
    assert new.last is not None and new.last.action == action


def test_bottle_red_or_blue_number_makes_the_turner_drink_that_many_sips() -> None:
    new, events = turn(table("B3 R0"))
    assert new.drinks == (3, 0, 0, 0)
    assert {"type": "sips", "seat": 0, "count": 3, "reason": "drink"} in events


def test_bottle_green_or_yellow_number_gives_the_sips_to_the_next_player() -> None:
    new, _ = turn(table("G4 R0"))
    assert new.drinks == (0, 4, 0, 0)


def test_bottle_green_or_yellow_number_gives_the_sips_to_a_chosen_target() -> None:
    new, events = turn(table("Y2 R0"), target=2)
    assert new.drinks == (0, 0, 2, 0)
    assert events[0]["target"] == 2
    assert refused(table("Y2 R0"), 0, "turnCard", target=0) == "bad_target"
    assert refused(table("Y2 R0"), 0, "turnCard", target=9) == "bad_target"


def test_bottle_draw_two_red_gives_two_sips_to_the_right() -> None:
    new, events = turn(table("R+2 R0", turn=1))
    assert new.drinks == (2, 0, 0, 0)
    assert events[0]["side"] == "right"


def test_bottle_draw_two_blue_gives_two_sips_to_the_right() -> None:
    new, _ = turn(table("B+2 R0", turn=0))
    assert new.drinks == (0, 0, 0, 2)


def test_bottle_draw_two_green_or_yellow_gives_two_sips_to_the_left() -> None:
    new, events = turn(table("G+2 R0", turn=1))
    assert new.drinks == (0, 0, 2, 0)
    assert events[0]["side"] == "left"
    assert turn(table("Y+2 R0", turn=3))[0].drinks == (2, 0, 0, 0)


def test_bottle_wild_draw_four_gives_four_sips_to_both_neighbours() -> None:
    new, events = turn(table("W+4 R0", turn=2))
    assert new.drinks == (0, 4, 0, 4)
    assert [e["seat"] for e in events if e["type"] == "sips"] == [1, 3]


def test_bottle_wild_draw_four_at_a_table_of_two_gives_four_to_the_one_neighbour() -> None:
    new, _ = turn(table("W+4 R0", players=2))
    assert new.drinks == (0, 4)


def test_bottle_wild_is_a_common_toast_everyone_drinks_one() -> None:
    new, events = turn(table("W R0"))
    assert new.drinks == (1, 1, 1, 1)
    assert sum(1 for e in events if e["type"] == "sips" and e["reason"] == "toast") == 4


@pytest.mark.parametrize("card", ["R0", "G6", "B8", "Y9"])
def test_bottle_announced_actions_pass_the_turn_without_sips(card: str) -> None:
    new, events = turn(table(card + " R0"))
    assert new.drinks == (0, 0, 0, 0)
    assert new.turn == 1
    assert [e["type"] for e in events] == ["turnCard"]


def test_bottle_seven_gives_the_turner_a_pee_card() -> None:
    new, _ = turn(table("R7 G7 R0"))
    assert new.pee_cards == (1, 0, 0, 0)


def test_bottle_skip_skips_the_next_player() -> None:
    new, events = turn(table("GS R0", turn=1))
    assert new.turn == 3
    assert events[0]["skipped"] == 2


def test_bottle_reverse_reverses_the_direction_of_play() -> None:
    new, _ = turn(table("YR R0", turn=1))
    assert (new.direction, new.turn) == (-1, 0)
    after, _ = turn(table("G3 R0", turn=1))
    assert after.turn == 2
    again, _ = turn(new)  # seat 0, counter-clockwise: seat 3 next
    assert again.turn == 3


def test_bottle_green_sips_follow_the_direction_of_play() -> None:
    state = table("YR G2 R0", turn=1)
    state, _ = turn(state)
    state, _ = turn(state)  # seat 0 turns G2: next player counter-clockwise is seat 3
    assert state.drinks == (0, 0, 0, 2)


def test_bottle_only_the_turn_holder_turns_a_card() -> None:
    state = table("R1 R0")
    assert refused(state, 2, "turnCard") == "not_your_turn"
    assert refused(state, 0, "draw") == "not_in_this_game"
    assert legal_actions(state, 2) == []
    assert Action("turnCard") in legal_actions(state, 0)
    with pytest.raises(InvalidAction):
        apply(state, 7, {"type": "turnCard"})


def test_bottle_round_ends_with_the_last_card_and_next_deal_reshuffles_the_deck() -> None:
    state = table("R1")
    over, events = turn(state)
    assert over.phase == "dealOver" and not over.match_over
    assert events[-1]["type"] == "dealOver"
    assert refused(over, over.turn, "turnCard") == "wrong_phase"
    assert legal_actions(over, 2) == [Action("nextDeal")]
    again, _ = apply(over, 2, {"type": "nextDeal"})
    assert again.phase == "playing" and again.deal == 2
    assert Counter(again.pile) == Counter(classic108())
    assert again.drinks == over.drinks


def test_bottle_round_limit_ends_the_game() -> None:
    state = table("R1", roundLimit=1)
    over, events = turn(state)
    assert over.match_over and over.winner is None
    assert events[-1]["type"] == "matchOver"
    assert legal_actions(over, 0) == []


def test_bottle_view_and_summary_show_the_last_action_and_the_tally() -> None:
    state, _ = turn(table("R+2 R0", turn=1))
    view = view_for(state, 2)
    assert view["lastAction"] == {
        "seat": 1,
        "card": "R+2",
        "action": "drawTwo",
        "count": 2,
        "side": "right",
        "sips": [{"seat": 0, "count": 2, "reason": "drawTwo"}],
    }
    assert view["drinks"] == [2, 0, 0, 0] and view["top"] == "R+2"
    assert view["legal"] == [a.to_json() for a in legal_actions(state, 2)]
    out = GAMES["bottle"].summary(state)
    assert out["lastAction"] == view["lastAction"]
    assert out["drinks"] == [2, 0, 0, 0] and out["drawPile"] == 1
    assert {"phase", "turn", "direction", "top", "color", "hands", "pendingDraw"} <= set(out)


@pytest.mark.parametrize(
    ("cards", "fields", "said"),
    [
        ("R+2 R0", {}, {"action": "drawTwo", "count": 2, "side": "right"}),
        ("Y+2 R0", {}, {"action": "drawTwo", "count": 2, "side": "left"}),
        ("GS R0", {}, {"action": "skip", "count": 0, "skipped": 2}),
        ("YR R0", {}, {"action": "reverse", "count": 0, "direction": -1}),
        ("B4 R0", {}, {"action": "drink", "count": 4}),
        ("G3 R0", {"target": 3}, {"action": "give", "count": 3, "target": 3}),
        ("W R0", {}, {"action": "toast", "count": 1}),
        ("W+4 R0", {}, {"action": "drawFour", "count": 4}),
        ("G6 R0", {}, {"action": "waterfall", "count": 0, "everyone": True}),
    ],
)
def test_bottle_last_action_says_what_the_turn_card_event_says(
    cards: str, fields: dict[str, Any], said: dict[str, Any]
) -> None:
    state, events = turn(table(cards, turn=1), **fields)
    last = view_for(state, 0)["lastAction"]
    assert {k: v for k, v in events[0].items() if k != "type"} == {
        k: v for k, v in last.items() if k != "sips"
    }
    assert said.items() <= last.items()
    assert all(s["count"] == last["count"] for s in last["sips"])
    assert state_from_json(json.loads(json.dumps(state.to_json()))) == state


def test_bottle_state_survives_a_json_round_trip() -> None:
    state, _ = turn(table("W+4 Y7 R0"))
    state, _ = turn(state)
    again = state_from_json(json.loads(json.dumps(state.to_json())))
    assert again == state and isinstance(again, BottleState)


def test_bottle_random_playout_conserves_cards_and_accepts_every_listed_action() -> None:
    state, _ = new_match(rules_from_json({"preset": "bottle", "roundLimit": 2}), 5, "play")
    rng = random.Random(5)
    full = Counter(classic108())
    steps = 0
    while not state.match_over:
        seat = 0 if state.phase == "dealOver" else state.turn
        options = legal_actions(state, seat)
        for option in options:
            apply(state, seat, option)
        state, _ = apply(state, seat, rng.choice(options))
        assert Counter(bottle.all_cards(state)) == full
        assert sum(state.drinks) == sum(n for _, n, _ in state.sips)
        steps += 1
        if steps % 20 == 0:
            assert state_from_json(json.loads(json.dumps(state.to_json()))) == state
    assert steps == 2 * 108 + 1
    assert state.deal == 2


def test_bottle_scenario_deck_is_turned_in_order_from_the_dealers_left() -> None:
    rules = rules_from_json({"preset": "bottle"})
    state = bottle.initial_state(rules, 3, "s", 0, {"deck": ["R1", "G2", "W"]})
    assert state.turn == 1
    state, _ = apply(state, 1, {"type": "turnCard"})
    assert state.last is not None and state.last.card == "R1" and state.drinks == (0, 1, 0)
    for bad in ({"deck": []}, {"deck": ["Q1"]}, {"setup": {"drawPile": ["R1"], "turn": 5}}):
        with pytest.raises(ValueError):
            bottle.initial_state(rules, 3, "s", 0, bad)


@settings(max_examples=25, deadline=None)
@given(seed=st.text(max_size=8), players=st.integers(2, 10), bot=st.integers(0, 2**32))
def test_bottle_invariants_hold_in_random_legal_playouts(seed: str, players: int, bot: int) -> None:
    state, _ = new_match(rules_from_json({"preset": "bottle"}), players, seed)
    rng = random.Random(bot)
    for _ in range(130):
        seat = 0 if state.phase == "dealOver" else state.turn
        old = state.drinks
        state, events = apply(state, seat, rng.choice(legal_actions(state, seat)))
        assert Counter(bottle.all_cards(state)) == Counter(classic108())
        gained = [d - o for d, o in zip(state.drinks, old, strict=True)]
        told = [0] * players
        for event in events:
            if event["type"] == "sips":
                told[event["seat"]] += event["count"]
        assert gained == told
        assert 0 <= state.turn < players
