"""The public entry points, for every game.

``apply``, ``legal_actions`` and ``view_for`` take UNO's own states on their fast path
and hand any other game's state to its registered functions; ``new_match`` and
``state_from_json`` pick the game from the rules. Every state is a
:class:`~engine.game_state.GameState`; what only some games keep is read through
:func:`hands_of`, :func:`face_up` and :func:`is_out`, which answer for every game.
"""

from __future__ import annotations

from typing import Any

import engine.variants  # noqa: F401  (registers the other games)
from engine import match_start
from engine.errors import InvalidAction
from engine.events import Event
from engine.game_registry import GAMES
from engine.game_state import GameState
from engine.legal import legal_actions
from engine.rules import Rules, rules_from_json
from engine.state import Hand, State
from engine.transition import apply, apply_legal
from engine.variants.bottle import BottleState
from engine.variants.rommy import RommyState
from engine.view import view_for

# Every game's state class, each answering the GameState protocol (the type checker checks
# the assignment; a test checks that every registered game's class is here).
STATE_CLASSES: tuple[type[GameState], ...] = (State, RommyState, BottleState)

__all__ = [
    "STATE_CLASSES",
    "GameState",
    "apply",
    "apply_legal",
    "face_up",
    "hands_of",
    "is_out",
    "legal_actions",
    "new_match",
    "state_from_json",
    "view_for",
]


def new_match(
    rules: Rules, players: int, seed: str, dealer: int | None = None
) -> tuple[GameState, list[Event]]:
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


def state_from_json(data: dict[str, Any]) -> GameState:
    """The inverse of ``state.to_json()`` for any game."""
    rules = rules_from_json(data["rules"])
    kind = GAMES.get(rules.game)
    if kind is not None:
        state: GameState = kind.from_json(data)
        return state
    return State.from_json(data)


def hands_of(state: GameState) -> tuple[Hand, ...] | None:
    """Each seat's hand of cards, or None in a game without hands (Bottle UNO turns cards
    from one pile)."""
    if isinstance(state, State | RommyState):
        return state.hands
    return None


def face_up(state: GameState) -> str | None:
    """The face of the cards in play (``light`` or ``dark``) in UNO's shedding games,
    where a deck may have two faces (UNO Flip: ``light`` elsewhere), or None in a game
    whose cards have one face only."""
    return state.side if type(state) is State else None


def is_out(state: GameState, seat: int) -> bool:
    """Whether ``seat`` is out (of the match, or of the deal under ``handLimit`` or
    ``placings``); only UNO's shedding games put a seat out."""
    return type(state) is State and state.out[seat]
