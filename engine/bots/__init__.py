"""Bots: a seat's move chosen from that seat's view alone.

``choose(view, level, rng)`` reads only ``view`` (what :func:`engine.view_for` gives the
seat) and returns the action to send, complete with colour, target and UNO call, or None
when the seat has nothing to do now. ``rng`` is the caller's seeded generator: the engine
keeps no random state of its own. Levels:

- ``easy``: the first legal move (:mod:`engine.bots.easy`);
- ``normal``: what a sensible player does, also the autopilot of an absent seat
  (:mod:`engine.bots.normal`);
- ``hard``: decides by simulation over the cards it cannot see (:mod:`engine.bots.hard`);
- ``ismcts``: ``hard`` with its turn searched by information-set Monte Carlo tree search
  (:mod:`engine.bots.ismcts`), kept beside it for comparison (the rooms seat the first
  three levels only).

``memory`` is the seat's :class:`~engine.bots.memory.Memory` of the deal (the public
history it was sent: the cards laid, who drew on which colour), kept by the caller from
change to change; without one a bot knows only what the view shows.
``in_turn_only`` keeps a bot to its own decisions: no jump-ins, catches or challenges
(what the autopilot does for an absent player). Between deals (``dealOver``) every level
returns None: the room starts the next deal. docs/engine-api.md describes the policies.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Literal, get_args

from engine.actions import Action
from engine.bots.easy import choose_easy
from engine.bots.hard import choose_hard
from engine.bots.memory import Memory, at_start, replay
from engine.bots.normal import choose_normal
from engine.bots.party import choose_bottle, choose_rommy
from engine.bots.reading import stamped
from engine.errors import InvalidAction

# The levels a room seats; LEVELS adds ismcts, the hard bot searched another way, for the
# bench.
RoomLevel = Literal["easy", "normal", "hard"]
ROOM_LEVELS: tuple[RoomLevel, ...] = get_args(RoomLevel)
LEVELS: tuple[str, ...] = (*ROOM_LEVELS, "ismcts")

__all__ = [
    "LEVELS",
    "ROOM_LEVELS",
    "Memory",
    "RoomLevel",
    "at_start",
    "choose",
    "choose_action",
    "replay",
]


def choose(
    view: Mapping[str, Any],
    level: str,
    rng: random.Random,
    *,
    in_turn_only: bool = False,
    memory: Memory | None = None,
) -> dict[str, Any] | None:
    """The action this seat's bot sends now (wire form, with ``at``), or None.

    :raises InvalidAction: an unknown ``level``.
    """
    action = choose_action(view, level, rng, in_turn_only=in_turn_only, memory=memory)
    return None if action is None else action.to_json()


def choose_action(
    view: Mapping[str, Any],
    level: str,
    rng: random.Random,
    *,
    in_turn_only: bool = False,
    memory: Memory | None = None,
) -> Action | None:
    """:func:`choose`'s action as an :class:`~engine.actions.Action` (with ``at``), for a
    caller that hands it to the engine as it is.

    :raises InvalidAction: an unknown ``level``.
    """
    if level not in LEVELS:
        raise InvalidAction("bad_level", f"bot level must be one of {list(LEVELS)}, got {level!r}")
    game = view.get("game")
    if game == "bottle":
        action = choose_bottle(view)
    elif level == "easy":
        action = choose_easy(view, rng)
    elif game == "rommy":
        action = choose_rommy(view)
    elif level == "hard" or level == "ismcts":
        action = choose_hard(view, rng, in_turn_only, memory, tree=level == "ismcts")
    else:
        action = choose_normal(view, rng, in_turn_only, memory)
    return None if action is None else stamped(view, action)
