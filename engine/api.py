"""The public entry points, dispatching to the game a state or rules object belongs to.

UNO's shedding games go straight to :mod:`engine.game` (the hot path); other games are
looked up in :data:`engine.games.GAMES`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import engine.variants  # noqa: F401  (registers the other games)
from engine import game, legal, match_start, view
from engine.actions import Action, parse_action
from engine.errors import InvalidAction
from engine.events import Event
from engine.games import GAMES, game_of
from engine.rules import Rules, rules_from_json
from engine.state import State


def new_match(
    rules: Rules, players: int, seed: str, dealer: int | None = None
) -> tuple[Any, list[Event]]:
    """A match with its first deal dealt (see :func:`engine.match_start.new_match`).

    :raises InvalidAction: a player count the rules do not allow, or a bad dealer seat.
    """
    if isinstance(players, int) and not isinstance(players, bool):
        if not rules.min_players <= players <= rules.max_players:
            raise InvalidAction(
                "bad_players",
                f"{rules.preset} takes {rules.min_players} to {rules.max_players} players,"
                f" got {players}",
            )
    kind = GAMES.get(rules.game)
    if kind is not None:
        return kind.new_match(rules, players, seed, dealer)
    return match_start.new_match(rules, players, seed, dealer)


def apply(state: Any, seat: int, action: Mapping[str, Any] | Action) -> tuple[Any, list[Event]]:
    """The state after ``seat`` takes ``action``, and what happened (never mutates)."""
    if type(state) is State:
        return game.apply(state, seat, action)
    kind = _kind(state)
    act = action if type(action) is Action else parse_action(action)
    return kind.apply(state, seat, act)  # type: ignore[no-any-return]


def legal_actions(state: Any, seat: int) -> list[Action]:
    """Every action ``seat`` may take now."""
    if type(state) is State:
        return legal.legal_actions(state, seat)
    return _kind(state).legal_actions(state, seat)  # type: ignore[no-any-return]


def view_for(state: Any, seat: int | None) -> dict[str, Any]:
    """What ``seat`` (None: a spectator) may see, JSON-ready."""
    if type(state) is State:
        return view.view_for(state, seat)
    return _kind(state).view_for(state, seat)  # type: ignore[no-any-return]


def state_from_json(data: dict[str, Any]) -> Any:
    """The inverse of ``state.to_json()`` for any game."""
    rules = rules_from_json(data["rules"])
    kind = GAMES.get(rules.game)
    if kind is not None:
        return kind.from_json(data)
    return State.from_json(data)


def _kind(state: object) -> Any:
    kind = game_of(state)
    if kind is None:
        raise TypeError(f"not a game state: {type(state).__name__}")
    return kind
