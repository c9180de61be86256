"""The public entry points, for every game.

``apply``, ``legal_actions`` and ``view_for`` take UNO's own states on their fast path
and hand any other game's state to its registered functions; ``new_match`` and
``state_from_json`` pick the game from the rules.
"""

from __future__ import annotations

from typing import Any

import engine.variants  # noqa: F401  (registers the other games)
from engine import match_start
from engine.errors import InvalidAction
from engine.events import Event
from engine.game import apply, apply_legal
from engine.games import GAMES
from engine.legal import legal_actions
from engine.rules import Rules, rules_from_json
from engine.state import State
from engine.view import view_for

__all__ = ["apply", "apply_legal", "legal_actions", "new_match", "state_from_json", "view_for"]


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


def state_from_json(data: dict[str, Any]) -> Any:
    """The inverse of ``state.to_json()`` for any game."""
    rules = rules_from_json(data["rules"])
    kind = GAMES.get(rules.game)
    if kind is not None:
        return kind.from_json(data)
    return State.from_json(data)
