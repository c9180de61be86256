"""Claim windows (app.rooms.races): which commands a window holds, how long it holds them,
how the claims are ranked and what winner and losers carry; lock-outs for claims of
what was not there, and each seat's race statistics. The writer holds the commands and
keeps the time."""

from __future__ import annotations

from typing import Any

import engine
from app.errors import RoomError
from app.rooms import commands
from app.rooms.doc import PLAYING, player_by_pid
from app.rooms.races import (
    INVALID_CLAIM,
    Claim,
    claim_entry,
    is_race_claim,
    is_superhuman,
    rank,
    window_ms,
)
from app.rooms.room import Room, Won
from app.rooms.step import Step


def fair(m: Room) -> bool:
    return bool(m.doc.get("fairRaces", True)) and m.doc["status"] == PLAYING


def holds(m: Room, command: commands.Command, window_open: bool, now_ms: int) -> int | None:
    """The seat of ``command`` if it is a claim a window should hold: an action that
    is a race (or any action, while a window is open), valid on the table as it is.
    Anything else (None) is applied at once: refused, or an ordinary change."""
    state = m.state
    if not isinstance(command, commands.Action) or state is None or not fair(m):
        return None
    pid = command.pid
    player = player_by_pid(m.doc, pid)
    if player is None or f"{pid}:{command.ref}" in m.acks:
        return None
    seat: int = player["seat"]
    action = command.action
    timing = command.timing
    if timing:
        delay = timing.get("delay")
        if isinstance(delay, int):
            m.delays[pid] = delay
    if not window_open and not is_race_claim(state, seat, action):
        return None
    if m.locked.get(pid, 0) > now_ms:
        return None
    try:
        engine.apply(state, seat, action)
    except engine.EngineError:
        return None
    return seat


def window_for(m: Room, opener: commands.Action) -> int:
    """How long the window ``opener`` (a claim) opens holds: by the credited delays
    of the claimant and of every other seat a person is connected at."""
    pid = opener.pid
    delay = (opener.timing or {}).get("delay")
    others = [
        m.delays.get(p["pid"])
        for p in m.doc["players"]
        if p["pid"] != pid and p.get("conn", 0) > 0 and not p.get("bot")
    ]
    mine = delay if isinstance(delay, int) else m.races.delay_cap_ms
    return window_ms(mine, others, m.races)


def on_delay(m: Room, command: commands.Delay, now_ms: int) -> Step:
    """A seat's connection measured its credited delay anew (app.ws.connection): kept
    by the writer (not a change of the room)."""
    player = player_by_pid(m.doc, command.pid)
    delay = command.ms
    if player is not None and isinstance(delay, int) and not isinstance(delay, bool):
        m.delays[player["pid"]] = max(0, delay)
    return Step({"ok": True})


def check_claimant(m: Room, player: dict[str, Any], action: engine.Action, now_ms: int) -> bool:
    """A claimant that claimed what was not there may not claim for a moment (refused,
    ``locked_out``). True: ``action`` is a claim (with fairRaces on) whose refusal
    :func:`claim_refused` is to judge."""
    state = m.state
    if state is None or not is_race_claim(state, player["seat"], action) or not fair(m):
        return False
    at = action.at
    if at is not None and at != state.moves:
        return False  # too late comes first
    if m.locked.get(player["pid"], 0) > now_ms:
        raise RoomError(409, "locked_out", "you claimed what was not there: wait a moment to claim")
    return True


def claim_refused(m: Room, player: dict[str, Any], err: RoomError, now_ms: int) -> None:
    """A claim (:func:`check_claimant`) the engine refused as not valid now locks its
    claimant out. Judged on the refusal of the claim's own application: the engine is
    not asked twice."""
    if err.code in INVALID_CLAIM:
        m.locked[player["pid"]] = now_ms + m.races.lockout_ms
        stats(m, player)["invalid"] += 1


def stats(m: Room, player: dict[str, Any]) -> dict[str, int]:
    stats: dict[str, int] = player.setdefault(
        "races", {"claims": 0, "wins": 0, "superhuman": 0, "invalid": 0}
    )
    return stats


def rank_window(m: Room, claims: list[Claim], position: int) -> list[Claim]:
    seed = "" if m.state is None else m.state.seed
    return rank(claims, m.races, seed, position)


def race_marks(
    m: Room, ordered: list[Claim], winner: Claim, position: int, held_ms: int
) -> dict[str, Any]:
    """What the winning command carries into its change: the race event."""
    event = {
        "type": "race",
        "at": position,
        "window": held_ms,
        "winner": winner.seat,
        "claims": [claim_entry(c, m.races, c is winner) for c in ordered],
    }
    return {
        "event": event,
        "claims": [(c.command.pid, c is winner, is_superhuman(c, m.races)) for c in ordered],
    }


def lost_marks(m: Room, claim: Claim, won: dict[str, Any], held_ms: int) -> dict[str, Any]:
    """What a losing claim's refusal carries: what won, and its own place."""
    own = claim_entry(claim, m.races, True)
    return {"won": won, "race": {**own, "window": held_ms}}


def count_race(m: Room, race: dict[str, Any]) -> None:
    for pid, won, superhuman in race["claims"]:
        player = player_by_pid(m.doc, pid)
        if player is None:
            continue
        counted = stats(m, player)
        counted["claims"] += 1
        counted["wins"] += int(won)
        counted["superhuman"] += int(superhuman)


def mark(m: Room, moves: int, entry: dict[str, Any]) -> None:
    """Keep the change (its deal-log ``entry``) that left position ``moves``: the first
    one only."""
    if moves not in m.positions:
        m.positions[moves] = (entry["seq"], entry["action"].get("type"), entry["seat"])


def change_of(won: Won) -> dict[str, Any]:
    """What a lost race names of the change that won it: its seq, action type and seat."""
    seq, kind, seat = won
    return {"seq": seq, "type": kind, "seat": seat}
