"""The room machine's CPU per action: what a writer does for an accepted action besides
the views and the store, on recorded games.

Each action goes the writer's way (app.rooms.writer): ``claims.holds`` (is it a claim a
window holds?), ``RoomMachine.handle`` (judging and applying it, settling the timers),
the lobby's indexes (``is_listed``, ``is_watched``) and the next due time (``_arm``'s
``timers.next_due``). The engine's answers are recorded once and replayed (the
machinery alone), and the engine is timed live too ("engine live"). Rounds alternate the
sides; each is timed by the process's CPU clock, so the ratio holds on a busy machine
better than wall time, though the microseconds do not.

With ``--against REV`` a second side is the same work with app.rooms' machine, timers,
claims, presence, seats, autoplay, shuffle_proof and doc as of git revision REV (loaded
beside the current ones) and its writer's way through them, so that a change to them is
measured before and after in the same run, on the same games.

    python bench/machine.py [--games 6] [--seats 4] [--turn-seconds 0] [--every-kind]
                            [--rounds 7]
                            [--passes 5] [--against REV]
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import gc
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

# bench/engine.py would shadow the engine package: the repository's root comes first.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).parent]
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from app.rooms import commands  # noqa: E402
from app.rooms.machine import RoomMachine  # noqa: E402
from bench.load import pick  # noqa: E402
from bench.revisions import modules_at  # noqa: E402
from bench.rooms import seated  # noqa: E402

# A recorded game: the room before its start, the start, and its actions with their times.
Game = tuple[dict[str, Any], commands.Command, list[tuple[commands.Command, int]]]
Side = Callable[[list[Game]], int]


# The claim timing a socket adds to each action (app.ws.connection.Connection.timing).
_TIMING = {"raw": 180, "delay": 24, "rtt": {"app": 24, "ws": 23, "tcp": 21}, "reported": None}


def record(games: int, seats: int, turn_seconds: int, every_kind: bool) -> list[Game]:
    """Classic games of ``seats`` connected players and a spectator, the seat to move
    acting as bench/load.py's players do (``every_kind``: any legal action at random,
    UNO calls, catches and challenges included), one action every 700 ms."""
    out: list[Game] = []
    for game in range(games):
        # The same deals in every run.
        machine = seated(
            seats, {"targetScore": 1000}, turn_seconds=turn_seconds, secret=f"{game:064x}"
        )
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
            legal = [a.to_json() for a in engine.legal_actions(state, seat)]
            if every_kind:
                action = rng.choice(legal)
            else:
                # As bench/load.py's players choose, from what their views show.
                hands = engine.hands_of(state)
                hand = [] if hands is None else list(hands[seat])
                action = pick({"legal": legal, "hand": hand}, rng)
            pid = next(p["pid"] for p in machine.doc["players"] if p["seat"] == seat)
            entry = {"k": "action", "pid": pid, "ref": f"r{n}", "action": action}
            # Every action from a socket carries its claim timing (app.ws.connection).
            command = dataclasses.replace(commands.read(entry), timing=dict(_TIMING))
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


# The engine's results for one game, by the position and the action applied to it
# (recorded by :func:`engine_results`), and the engine's own ``apply``.
Results = dict[tuple[int, int, int, int], Any]
_REAL_APPLY = engine.apply


def _position(state: Any, seat: int, action: engine.Action) -> tuple[int, int, int, int]:
    return state.deal, state.moves, seat, id(action)


def engine_results(game: Game) -> Results:
    """What ``engine.apply`` answered for each of a game's positions (a result or an
    error), the machine replaying the game."""
    results: Results = {}

    def recorded(state: Any, seat: int, action: engine.Action) -> Any:
        try:
            answer = results[_position(state, seat, action)] = _REAL_APPLY(state, seat, action)
        except engine.EngineError as err:
            results[_position(state, seat, action)] = err
            raise
        return answer

    machine, actions = _fresh(game, RoomMachine)
    engine.apply = recorded
    try:
        for command, now in actions:
            machine.handle(command, now)
    finally:
        engine.apply = _REAL_APPLY
    return results


def _replaying(results: Results) -> Callable[[Any, int, engine.Action], Any]:
    """An ``engine.apply`` that answers from ``results`` (the engine's own for a position
    not recorded): the machinery is timed without the engine's work."""

    def replayed(state: Any, seat: int, action: engine.Action) -> Any:
        answer = results.get(_position(state, seat, action))
        if answer is None:
            return _REAL_APPLY(state, seat, action)
        if isinstance(answer, Exception):
            raise answer
        return answer

    return replayed


def writer_side(
    machine_class: Any, claims: Any, doc_mod: Any, timers: Any, replay: list[Results] | None
) -> Side:
    """The writer's work per action with these modules (untimed: a fresh room per game);
    with ``replay`` (each game's engine results) the engine's applies are not redone."""

    def run(games: list[Game]) -> int:
        elapsed = 0
        for number, game in enumerate(games):
            machine, actions = _fresh(game, machine_class)
            if replay is not None:
                engine.apply = _replaying(replay[number])
            try:
                started = time.process_time_ns()
                for command, now in actions:
                    claims.holds(machine, command, False, now)
                    step = machine.handle(command, now)
                    if step.changed:
                        doc = machine.to_doc()
                        doc["ts"] = now
                        listed, watched = doc_mod.is_listed(doc), doc_mod.is_watched(doc)
                        doc["listed"], doc["watched"] = listed, watched
                        machine.seq += 1
                    timers.next_due(machine)
                elapsed += time.process_time_ns() - started
            finally:
                engine.apply = _REAL_APPLY
        return elapsed

    return run


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


def at_revision(revision: str, replay: list[Results] | None) -> Side:
    """The writer's work with app.rooms' modules as of ``revision``; the rest (the engine,
    commands, races, steps) is the current code."""
    loaded = modules_at(revision, _AT_REVISION)
    return writer_side(
        loaded["app.rooms.machine"].RoomMachine,
        loaded["app.rooms.claims"],
        loaded["app.rooms.doc"],
        loaded["app.rooms.timers"],
        replay,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--turn-seconds", type=int, default=0, help="0: no turn timer")
    parser.add_argument(
        "--every-kind", action="store_true", help="any legal action, races included"
    )
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--against", metavar="REV", help="also time the machine as of REV")
    args = parser.parse_args()
    games = record(args.games, args.seats, args.turn_seconds, args.every_kind)
    # The server's collector settings (app/main.py): its collections are not the machine's.
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 5, 100)
    actions = sum(len(game[2]) for game in games)
    from app.rooms import claims, doc, timers

    replay = [engine_results(game) for game in games]
    sides: dict[str, Side] = {"now": writer_side(RoomMachine, claims, doc, timers, replay)}
    if args.against:
        sides[f"at {args.against}"] = at_revision(args.against, replay)
    sides["now, engine live"] = writer_side(RoomMachine, claims, doc, timers, None)
    if args.against:
        sides[f"at {args.against}, engine live"] = at_revision(args.against, None)
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
            f"{name}: {medians[name]:.2f} us per action (median of {args.rounds} rounds, "
            f"least {values[0]:.2f})"
        )
    print(f"{actions} actions ('engine live': the engine's applies done, else replayed)")
    if args.against:
        then, now = medians[f"at {args.against}"], medians["now"]
        live = medians[f"at {args.against}, engine live"] / medians["now, engine live"]
        print(
            f"at {args.against} / now: {then / now:.2f} x CPU (the machinery), "
            f"{live:.2f} x (with the engine)"
        )
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
