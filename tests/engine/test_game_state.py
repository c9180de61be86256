"""Every game's state answers the GameState protocol the engine's public functions are
typed with, and every action type is one some game takes."""

from __future__ import annotations

from typing import get_args

import pytest

from engine import (
    ACTION_TYPES,
    PRESETS,
    ActionType,
    GameState,
    face_up,
    hands_of,
    is_out,
    new_match,
    rules_from_json,
    state_from_json,
)
from engine.api import STATE_CLASSES
from engine.game_registry import GAMES
from engine.state import State
from engine.transition import _HANDLERS as UNO_HANDLERS
from engine.variants.rommy.game import _HANDLERS as ROMMY_HANDLERS

# The protocol's members: its properties and to_json.
MEMBERS = sorted(name for name, value in vars(GameState).items() if isinstance(value, property)) + [
    "to_json"
]


def _match(preset: str) -> tuple[GameState, object]:
    rules = rules_from_json({"preset": preset})
    return new_match(rules, rules.min_players, "seed")


def test_the_protocol_names_what_the_app_reads() -> None:
    for name in ("phase", "deal", "moves", "seed", "totals", "deal_scores", "turn", "rules"):
        assert name in MEMBERS


def test_every_registered_games_state_class_is_one_the_protocol_is_checked_against() -> None:
    assert {kind.state_class for kind in GAMES.values()} | {State} == set(STATE_CLASSES)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_games_state_has_every_member_of_the_protocol(preset: str) -> None:
    state, _ = _match(preset)
    assert type(state) in STATE_CLASSES
    for name in MEMBERS:
        assert hasattr(state, name), f"{type(state).__name__} lacks {name}"
    assert isinstance(state.moves, int) and isinstance(state.deal, int)
    assert all(isinstance(t, int) for t in state.totals)
    assert state.deal_scores is None or all(isinstance(s, int) for s in state.deal_scores)
    again = state_from_json(state.to_json())
    assert type(again) is type(state) and again.to_json() == state.to_json()


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_helpers_answer_for_every_game(preset: str) -> None:
    state, _ = _match(preset)
    hands = hands_of(state)
    if preset == "bottle":
        assert hands is None  # one pile, turned card by card
    else:
        assert hands is not None and len(hands) == state.players
    face = face_up(state)
    assert face in ("light", "dark") if type(state) is State else face is None
    assert not any(is_out(state, seat) for seat in range(state.players))


def test_the_action_types_are_the_literal_and_each_is_taken_by_some_game() -> None:
    assert ACTION_TYPES == frozenset(get_args(ActionType))
    bottle = {"turnCard", "nextDeal"}
    assert set(UNO_HANDLERS) | set(ROMMY_HANDLERS) | bottle == ACTION_TYPES
