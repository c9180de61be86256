"""The room machine's CPU per action: what a writer does for an accepted action besides
the views and the store, on recorded games.

Each action goes the writer's way (app.rooms.writer): ``claims.holds`` (is it a claim a
window holds?), ``RoomMachine.handle`` (judging and applying it, settling the timers),
the lobby's indexes (``is_listed``, ``is_watched``) and the next due time (``_arm``'s
``timers.next_due``). The engine's own ``apply`` of the same actions is timed alone too,
so that the machinery's part is the difference. Rounds alternate the sides; each is
timed by the process's CPU clock, so the ratio holds on a busy machine better than wall
time, though the microseconds do not.

With ``--against REV`` a second side is the same work with app.rooms' machine, timers,
claims, presence, seats, autoplay, shuffle_proof and doc as of git revision REV (loaded
beside the current ones) and its writer's way through them, so that a change to them is
measured before and after in the same run, on the same games.

    python bench/machine.py [--games 6] [--seats 4] [--turn-seconds 0] [--rounds 7]
                            [--passes 5] [--against REV]
"""

from __future__ import annotations

import argparse
import copy
import os
import random
import subprocess
import sys
import time
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

# bench/engine.py would shadow the engine package: the repository's root comes first.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).parent]
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import app.rooms  # noqa: E402
import engine  # noqa: E402
from app.rooms import commands, tokens  # noqa: E402
from app.rooms.doc import new_doc  # noqa: E402
from app.rooms.machine import RoomMachine  # noqa: E402

# A recorded game: the room before its start, the start, and its actions with their times.
Game = tuple[dict[str, Any], commands.Command, list[tuple[commands.Command, int]]]
Side = Callable[[list[Game]], int]


def record(games: int, seats: int, turn_seconds: int) -> list[Game]:
    """Classic games of ``seats`` connected players and a spectator, random legal plays
    by the seat to move, one every 700 ms."""
    out: list[Game] = []
    for game in range(games):
        doc = new_doc(
            room_id="r1",
            name="t",
            code="ABCDEF",
            private=False,
            spectators=True,
            seats=seats,
            rules=engine.rules_from_json({"targetScore": 1000}).to_json(),
            host_hash=tokens.hash_token("h"),
            now_ms=0,
            turn_seconds=turn_seconds,
        )
        machine = RoomMachine(doc, 0, [])
        for i in range(seats):
            machine.handle({"k": "join", "pid": f"p{i}", "name": f"P{i}", "token": f"t{i}"}, 0)
            machine.handle({"k": "connect", "pid": f"p{i}"}, 0)
        machine.handle({"k": "watch"}, 0)
        before = copy.deepcopy(machine.doc)
        start = commands.read({"k": "start"})
        machine.handle(start, 0)
        rng = random.Random(game)
        actions: list[tuple[commands.Command, int]] = []
        for n in range(300):
            state = machine.state
            if state is None or state.phase not in ("playing", "dealOver"):
                break
            seat = state.turn if state.phase == "playing" else 0
            action = rng.choice(engine.legal_actions(state, seat))
            pid = next(p["pid"] for p in machine.doc["players"] if p["seat"] == seat)
            entry = {"k": "action", "pid": pid, "ref": f"r{n}", "action": action.to_json()}
            command = commands.read(entry)
            now = 1000 + 700 * n
            if not machine.handle(command, now).changed:
                raise SystemExit(f"a recorded action was refused: {entry}")
            actions.append((command, now))
        out.append((before, start, actions))
    return out


def _fresh(game: Game, machine_class: Any) -> tuple[Any, list[tuple[commands.Command, int]]]:
    before, start, actions = game
    machine = machine_class(copy.deepcopy(before), 10, [])
    machine.handle(start, 0)
    return machine, actions


def writer_side(machine_class: Any, claims: Any, doc_mod: Any, timers: Any) -> Side:
    """The writer's work per action with these modules (untimed: a fresh room per game)."""

    def run(games: list[Game]) -> int:
        elapsed = 0
        for game in games:
            machine, actions = _fresh(game, machine_class)
            started = time.process_time_ns()
            for command, now in actions:
                claims.holds(machine, command, False, now)
                step = machine.handle(command, now)
                if step.changed:
                    doc = machine.to_doc()
                    doc["ts"] = now
                    doc["listed"], doc["watched"] = doc_mod.is_listed(doc), doc_mod.is_watched(doc)
                    machine.seq += 1
                timers.next_due(machine)
            elapsed += time.process_time_ns() - started
        return elapsed

    return run


def engine_alone(games: list[Game]) -> int:
    """The engine's apply of the same actions (what the machinery is wrapped around), on
    the states the machine applied them to (a new deal's own seed included)."""
    elapsed = 0
    for game in games:
        machine, actions = _fresh(game, RoomMachine)
        seats = {p["pid"]: p["seat"] for p in machine.doc["players"]}
        applied = []
        for command, now in actions:
            assert isinstance(command, commands.Action)
            before = machine.state
            machine.handle(command, now)
            if machine.state.deal == before.deal:  # (a new deal is dealt from its own seed)
                applied.append((before, seats[command.pid], command.action))
        started = time.process_time_ns()
        for state, seat, action in applied:
            engine.apply(state, seat, action)
        elapsed += time.process_time_ns() - started
    return elapsed


# The modules a revision's side is made of, in the order they import each other.
_AT_REVISION = (
    "app.rooms.doc",
    "app.rooms.autoplay",
    "app.rooms.presence",
    "app.rooms.claims",
    "app.rooms.shuffle_proof",
    "app.rooms.seats",
    "app.rooms.timers",
    "app.rooms.machine",
)


def _source(revision: str, path: str) -> str:
    root = Path(__file__).resolve().parent.parent
    show = ["git", "show", f"{revision}:{path}"]
    return subprocess.run(show, cwd=root, check=True, capture_output=True, text=True).stdout


def at_revision(revision: str) -> Side:
    """The writer's work with app.rooms' modules as of ``revision``; the rest (the engine,
    commands, races, steps) is the current code."""
    saved = {name: sys.modules[name] for name in _AT_REVISION}
    attributes = {name: getattr(app.rooms, name.rsplit(".", 1)[1]) for name in _AT_REVISION}
    loaded: dict[str, types.ModuleType] = {}
    try:
        for name in _AT_REVISION:
            # Importing the next one picks up this one: sys.modules (and the package's
            # attribute, for ``from app.rooms import x``) holds it meanwhile.
            module = sys.modules[name] = types.ModuleType(name)
            setattr(app.rooms, name.rsplit(".", 1)[1], module)
            path = name.replace(".", "/") + ".py"
            module.__file__ = f"{revision}:{path}"
            exec(compile(_source(revision, path), module.__file__, "exec"), module.__dict__)
            loaded[name] = module
    finally:
        sys.modules.update(saved)
        for name, module in attributes.items():
            setattr(app.rooms, name.rsplit(".", 1)[1], module)
    return writer_side(
        loaded["app.rooms.machine"].RoomMachine,
        loaded["app.rooms.claims"],
        loaded["app.rooms.doc"],
        loaded["app.rooms.timers"],
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--turn-seconds", type=int, default=0, help="0: no turn timer")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--against", metavar="REV", help="also time the machine as of REV")
    args = parser.parse_args()
    games = record(args.games, args.seats, args.turn_seconds)
    actions = sum(len(game[2]) for game in games)
    from app.rooms import claims, doc, timers

    sides: dict[str, Side] = {"now": writer_side(RoomMachine, claims, doc, timers)}
    if args.against:
        sides[f"at {args.against}"] = at_revision(args.against)
    sides["engine alone"] = engine_alone
    times: dict[str, list[float]] = {name: [] for name in sides}
    for number in range(args.rounds):
        order = list(sides.items())
        if number % 2:
            order.reverse()
        for name, run in order:
            elapsed = sum(run(games) for _ in range(args.passes))
            times[name].append(elapsed / (args.passes * actions) / 1000)
    medians = {}
    for name, values in times.items():
        values.sort()
        medians[name] = values[len(values) // 2]
        print(
            f"{name}: {medians[name]:.1f} us per action (median of {args.rounds} rounds, "
            f"least {values[0]:.1f})"
        )
    engine_us = medians["engine alone"]
    machinery = medians["now"] - engine_us
    print(f"{actions} actions; the machinery now (less the engine): {machinery:.1f} us")
    if args.against:
        then = medians[f"at {args.against}"]
        print(
            f"at {args.against}, less the engine: {then - engine_us:.1f} us; "
            f"at {args.against} / now: {(then - engine_us) / machinery:.2f} x "
            f"CPU (machinery), {then / medians['now']:.2f} x (with the engine)"
        )
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
