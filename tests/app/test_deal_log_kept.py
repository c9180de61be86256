"""The room machine keeps a deal's actions marshalled (bytes, which the garbage
collector never scans: three objects an action lived a deal long in its generations
otherwise), and the deal's record, the archive's input, reads them back as they were
played, whether the machine played them or loaded them from the deal log."""

from __future__ import annotations

import gc
import random

import orjson
from machine_rooms import pid_at, room, seating

from app.rooms.machine import RoomMachine
from engine import legal_actions


def _played(seed: int) -> tuple[RoomMachine, list[dict[str, object]]]:
    """A room of three that plays random legal moves until a deal ends; the machine, and
    the deal log entries its steps appended."""
    rng = random.Random(seed)
    machine = room({}, 3)
    log: list[dict[str, object]] = []
    for n, command in enumerate(seating(3)):
        step = machine.handle(command, n)
        assert step.result["ok"]
        log.extend(step.deal_append)
    for n in range(2000):
        state = machine.state
        assert state is not None
        moves = [(s, a) for s in range(3) for a in legal_actions(state, s)]
        # Plays first, as players do: a deal of random draws may go on for ever.
        plays = [(s, a) for s, a in moves if a.type == "play"]
        seat, action = rng.choice(plays or moves)
        command = {"k": "action", "pid": pid_at(machine, seat), "ref": f"r{n}"}
        step = machine.handle(command | {"action": action.to_json()}, 100 + n)
        log.extend(step.deal_append)
        if step.deal_end is not None:
            return machine, log
    raise AssertionError("no deal ended")


def test_a_deal_in_progress_gives_the_collector_nothing_to_scan() -> None:
    machine, _ = _played(1)
    assert machine.deal_actions
    assert not any(gc.is_tracked(action) for action in machine.deal_actions)
    # What won each position (for a race's loser): plain values, let go after one look.
    gc.collect()
    assert machine.positions
    assert not any(gc.is_tracked(won) for won in machine.positions.values())


def test_the_deal_record_holds_the_actions_as_played_and_as_loaded_again() -> None:
    for seed in range(5):
        machine, log = _played(seed)
        state = machine.state
        assert state is not None
        played = machine._deal_end(state).actions
        expected = [
            {k: v for k, v in entry.items() if k != "key"} for entry in log if "action" in entry
        ]
        assert played == expected
        # A writer taking the room over loads the deal log and builds the same record.
        loaded = RoomMachine(machine.doc, machine.seq, [orjson.loads(orjson.dumps(e)) for e in log])
        assert loaded._deal_end(state).actions == played
