"""The games the engine plays, and how the public functions reach each one.

UNO and its shedding variants (classic, house rules, DrukUNO, Duo, Flip) share
:class:`~engine.state.State` and the transition in :mod:`engine.transition`. Games with another
shape (UNO Rommy, Bottle UNO) bring their own state class and functions, registered here
under the name a preset fixes in ``Rules.game``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.actions import Action
from engine.events import Event
from engine.rules import Rules


@dataclass(frozen=True)
class GameKind:
    """One game's entry points; each takes and returns that game's own state class."""

    name: str
    new_match: Callable[[Rules, int, str, int | None], tuple[Any, list[Event]]]
    apply: Callable[[Any, int, Action], tuple[Any, list[Event]]]
    legal_actions: Callable[[Any, int], list[Action]]
    view_for: Callable[[Any, int | None], dict[str, Any]]
    summary: Callable[[Any], dict[str, Any]]  # the scenario runner's "state"
    from_json: Callable[[dict[str, Any]], Any]
    state_class: type
    # A deal's start state dealt again from its own seed (the same deal number, dealer and
    # carried totals, nothing shuffled yet): what ``python -m engine.verify`` compares.
    deal_again: Callable[[Any], Any]
    # The rule options this game reads (camelCase); the others do not apply to it.
    options: tuple[str, ...] = ()


GAMES: dict[str, GameKind] = {}


def register(kind: GameKind) -> None:
    GAMES[kind.name] = kind


def preset_facts(presets: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """What each preset fixes besides option values, for rule editors: the player range
    (``players``: [fewest, most]) and, for a game of its own, the only options it reads
    (``options``; None: every option applies)."""
    from engine.rules import rules_from_json

    out = {}
    for name in presets:
        rules = rules_from_json({"preset": name})
        kind = GAMES.get(rules.game)
        out[name] = {
            "players": [rules.min_players, rules.max_players],
            "options": None if kind is None else list(kind.options),
        }
    return out


def game_of(state: object) -> GameKind | None:
    """The registered game a (non-shedding) state belongs to, or None for UNO's State."""
    for kind in GAMES.values():
        if type(state) is kind.state_class:
            return kind
    return None


def other_game(state: object) -> GameKind:
    """The registered game of a state that is not UNO's own :class:`State`."""
    kind = game_of(state)
    if kind is None:
        raise TypeError(f"not a game state: {type(state).__name__}")
    return kind
