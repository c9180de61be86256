"""Who plays a seat when its player does not: bots, the autopilot of an away seat, and the
default move of a seat whose turn timer ran out. Pure (no I/O, no clock): the machine
passes the time and owns the random generator.

The policies themselves are the engine's (``engine.bots.choose_action``), fed the seat's own view
only; this module decides which seat the room plays for, and falls back to the first legal
action where a policy's choice is refused, so that a table never waits on a seat the
room plays.
"""

from __future__ import annotations

import marshal
import random
from dataclasses import dataclass
from typing import Any

import engine
from engine.bots import Memory, at_start, choose_action

_OVER = ("dealOver", "matchOver")
# A timed-out seat's turn is played out by the room; bounded, in case a variant's turn has
# many steps.
MAX_DEFAULT_STEPS = 12


@dataclass(frozen=True, slots=True)
class RoomTimes:
    """The room's server-side durations (ms), from the node's settings."""

    bot_delay_ms: int = 900  # a bot's human-like pause before it acts (jittered)
    empty_room_ms: int = 300_000  # no connected human this long: the match ends
    empty_lobby_ms: int = 1_800_000  # nobody seated this long: the lobby room ends
    # Sooner once its host (the creator's seat, or the seat hosting passed to) has gone.
    left_lobby_ms: int = 60_000


@dataclass(frozen=True, slots=True)
class Pilot:
    """How the room plays one seat: the policy level, whether it only takes the seat's own
    decisions (the autopilot never jumps in, catches or challenges), and why."""

    level: str
    in_turn_only: bool
    by: str  # "bot" (a bot seat, or a seat whose player left) or "autopilot" (away)


def decider(state: engine.GameState | None) -> int | None:
    """The seat whose decision holds the table up now (the turn holder, in every phase
    but between deals), or None."""
    if state is None or state.phase in _OVER:
        return None
    seat = state.turn
    if engine.is_out(state, seat):
        return None
    return seat


def pilots(doc: dict[str, Any]) -> dict[int, Pilot]:
    """The seats the room plays itself, by seat."""
    out: dict[int, Pilot] = {}
    for player in doc["players"]:
        if player.get("bot"):
            out[player["seat"]] = Pilot(player["bot"], False, "bot")
        elif player.get("away"):
            out[player["seat"]] = Pilot("normal", True, "autopilot")
    return out


def present_humans(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """Seated people with a socket open and not away."""
    return [p for p in doc["players"] if not p.get("bot") and p["conn"] > 0 and not p.get("away")]


class Recall:
    """The bot seats' memories of the current deal (engine.bots.memory), kept from the
    room's deal log: each action the log holds is replayed from the deal's start once,
    and every bot seat's memory takes the events and the view that seat was sent. A
    writer that takes a room over builds them again from the log it loads."""

    def __init__(self) -> None:
        self._start: dict[str, Any] | None = None
        self._state: engine.GameState | None = None
        self._fed = 0
        self._seats: dict[int, Memory] = {}

    def memory(
        self, seat: int, start: dict[str, Any] | None, actions: list[bytes]
    ) -> Memory | None:
        """``seat``'s memory of the deal that began at ``start`` and went on by
        ``actions`` (the deal log's entries, marshalled: ``RoomMachine.deal_actions``), or
        None when the room keeps no deal log."""
        if start is None:
            return None
        if start is not self._start or self._fed > len(actions) or seat not in self._seats:
            seats = set(self._seats) if start is self._start else set()
            first = engine.state_from_json(start)
            self._start, self._state, self._fed = start, first, 0
            self._seats = {s: at_start(engine.view_for(first, s)) for s in seats | {seat}}
        try:
            new = [marshal.loads(action) for action in actions[self._fed :]]
            for step in engine.replay_log(new, self._state):
                state = self._state = step.after
                for held, memory in self._seats.items():
                    if state is not None:  # always: the replay starts from the deal's start
                        sent = [engine.event_for(e, held) for e in step.events]
                        memory.update(sent, engine.view_for(state, held))
                self._fed += 1
        except engine.EngineError:  # a log that does not replay: forget, play from views
            self._start, self._seats = None, {}
            return None
        return self._seats[seat]


def bot_move(
    state: engine.GameState,
    seat: int,
    pilot: Pilot,
    rng: random.Random,
    *,
    deal_on: bool,
    memory: Memory | None = None,
) -> engine.Action | None:
    """The action the room sends for ``seat`` now, or None. ``deal_on``: whether the room's
    seats may start the next deal (only when no person at the table could); ``memory``:
    the seat's memory of the deal, if the room keeps one for it."""
    if not engine.legal_actions(state, seat):
        return None
    view = engine.view_for(state, seat)
    action = choose_action(view, pilot.level, rng, in_turn_only=pilot.in_turn_only, memory=memory)
    if action is None and seat == decider(state):
        action = _fallback(state, seat)
    if action is None:
        return None
    if action.type == "nextDeal" and not deal_on:
        return None
    return action


def _fallback(state: engine.GameState, seat: int) -> engine.Action | None:
    legal = engine.legal_actions(state, seat)
    return legal[0] if legal else None


def default_move(state: engine.GameState, seat: int, rng: random.Random) -> engine.Action | None:
    """What a seat whose time ran out does: draw (one card, or the penalty it faces), then
    pass where the rules allow; otherwise the autopilot's choice."""
    legal = engine.legal_actions(state, seat)
    for kind in ("pass", "draw"):
        for action in legal:
            if action.type == kind:
                return action
    view = engine.view_for(state, seat)
    chosen = choose_action(view, "normal", rng, in_turn_only=True)
    return chosen if chosen is not None else (legal[0] if legal else None)


def fallback(state: engine.GameState, seat: int) -> engine.Action | None:
    """The first legal action (colour and target filled)."""
    return _fallback(state, seat)
