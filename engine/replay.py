"""Replaying a deal's log: the one loop that turns a room's log back into states.

A deal log is a list of entries: ``{"start": state JSON}`` (a deal's start state), then
``{"seat", "action"}`` for every action applied since, with whatever else the room keeps
beside them (ids, times, acknowledgements). The engine is deterministic (its randomness
is seeded in the state), so replaying the log gives back every state the table passed
through; the room, its event history, the match history and the bots' memories all
replay through :func:`replay_log`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Generic, NamedTuple, TypeVar

from engine.actions import parse_action
from engine.api import apply, state_from_json
from engine.events import Event
from engine.game_state import GameState

# A log's own entry type (a room's dicts, say) comes back as it went in.
Entry = TypeVar("Entry", bound=Mapping[str, Any])


class ReplayedEntry(NamedTuple, Generic[Entry]):
    """One entry replayed: the state it found (None before any start), the state it left
    and the events it made (none for a start or an entry without an action)."""

    entry: Entry
    before: GameState | None
    after: GameState | None
    events: list[Event]


def replay_log(
    entries: Iterable[Entry], state: GameState | None = None
) -> Iterator[ReplayedEntry[Entry]]:
    """Each entry of a deal log in order, from ``state`` (None: from the log's first
    start). A ``start`` entry begins again from its state; an ``action`` entry (its wire
    form, parsed here) is applied for its ``seat`` (an action the engine refuses, or a
    malformed one, raises its EngineError, as a log that does not replay); any other
    entry, or an action before any start, changes nothing."""
    for entry in entries:
        before = state
        events: list[Event] = []
        if "start" in entry:
            state = state_from_json(entry["start"])
        elif state is not None and "action" in entry:
            state, events = apply(state, entry["seat"], parse_action(entry["action"]))
        yield ReplayedEntry(entry, before, state, events)


def final_state(
    entries: Iterable[Mapping[str, Any]], state: GameState | None = None
) -> GameState | None:
    """The state a deal log leads to (None for a log without a start)."""
    for step in replay_log(entries, state):
        state = step.after
    return state
