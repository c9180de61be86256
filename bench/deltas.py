"""A change's messages: the per-audience deltas (app.rooms.deltas) against the diff of
whole views per audience that they replaced, on the same recorded games.

Both sides build what the writer publishes for a change: the views' parts or the whole
views, each audience's ``patch`` message and the serialised change. Rounds alternate the
sides; each is timed by the process's CPU clock, so the ratio holds on a busy machine
better than wall time, though the microseconds do not. Also prints the bytes published
per change (the commit script's argument, the history entry, what other nodes parse).

With ``--against REV`` a third side is the per-audience deltas as of git revision REV
(its app/rooms/diff.py, views.py and deltas.py and its engine/view.py, loaded beside the
current ones), so that a change to them is measured before and after in the same run, on
the same games.
``--parts`` adds a side that builds the parts and the public delta alone (no patches per
audience), and with ``--against`` the same at REV.

    python bench/deltas.py [--games 6] [--seats 4] [--rounds 7] [--passes 5]
                           [--against REV] [--parts]
"""

from __future__ import annotations

import argparse
import copy
import os
import random
import sys
import time
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

# bench/engine.py would shadow the engine package: the repository's root comes first.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).parent]
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from app.rooms import deltas  # noqa: E402
from app.rooms.diff import diff  # noqa: E402
from app.rooms.step import Step  # noqa: E402
from app.rooms.views import Parts, audiences, build_parts, build_views  # noqa: E402
from app.wire.messages import PatchMessage  # noqa: E402
from bench.revisions import module_at, modules_at  # noqa: E402
from bench.rooms import seated  # noqa: E402

Frame = tuple[dict[str, Any], Any, int, Step]  # the room's doc, state, seq, step


def record(games: int, seats: int) -> list[list[Frame]]:
    """Classic games of ``seats`` connected players and a spectator, random legal plays."""
    out = []
    for game in range(games):
        machine = seated(seats)
        machine.handle({"k": "watch"}, 0)
        machine.handle({"k": "start"}, 0)
        rng = random.Random(game)
        frames: list[Frame] = []
        for n in range(200):
            state = machine.state
            if state is None or state.phase != "playing":
                break
            action = rng.choice(engine.legal_actions(state, state.turn))
            pid = next(p["pid"] for p in machine.doc["players"] if p["seat"] == state.turn)
            command = {"k": "action", "pid": pid, "ref": f"r{n}", "action": action.to_json()}
            step = machine.handle(command, n)
            if step.changed:
                frames.append((copy.deepcopy(machine.doc), machine.state, 10 + n, step))
        out.append(frames)
    return out


def whole_views(frames: list[Frame]) -> int:
    """The diff of whole views per audience; the bytes published."""
    published = 0
    views: dict[str, dict[str, Any]] | None = None
    shared: dict[str, Any] = {}
    for doc, state, seq, step in frames:
        new, shared = build_views(doc, state, audiences(doc), seq, shared)
        if views is not None:
            messages = {}
            for audience, view in new.items():
                seen = [e for e in (engine.event_for(ev, view["you"]) for ev in step.events) if e]
                seen.extend(step.public_events)
                ops = diff(views[audience], view)
                messages[audience] = orjson.dumps(PatchMessage.build(seq, 1, ops, seen)).decode()
            published += len(orjson.dumps({"seq": seq, "m": messages}))
        views = new
    return published


def per_audience(frames: list[Frame]) -> int:
    """The public delta once, a private delta per audience; the bytes published."""
    published = 0
    before: Parts | None = None
    for doc, state, seq, step in frames:
        after = build_parts(doc, state, audiences(doc), seq, before[1] if before else None)
        if before is not None:
            messages, public = deltas.patches(
                before, after, seq, 1, step.events, step.public_events
            )
            published += len(orjson.dumps({"seq": seq, "m": messages, "p": public}))
        before = after
    return published


def parts_alone(frames: list[Frame]) -> int:
    """The views' parts and the public delta (the diff of the shared parts, which
    ``build_parts`` makes as it builds them), without the per-audience patches."""
    before: Parts | None = None
    for doc, state, seq, _ in frames:
        after = build_parts(doc, state, audiences(doc), seq, before[1] if before else None)
        if before is not None:
            deltas._public_delta(before[1], after[1])
        before = after
    return 0


# The modules a revision's per-audience side is made of, in the order they import each other.
_AT_REVISION = ("app.rooms.diff", "app.rooms.views", "app.rooms.deltas")


Side = Callable[[list[Frame]], int]


def at_revision(revision: str) -> tuple[Side, Side]:
    """The per-audience side and the parts alone with app.rooms' diff, views and deltas
    and the engine's views (engine/view.py) as of ``revision``; the rest is the current
    code."""
    # The engine package as the revision's app modules see it: its views of the revision.
    old_view = module_at("engine.view", revision)
    engine_then = types.ModuleType("engine")
    engine_then.__dict__.update(engine.__dict__)
    for name in ("view_parts", "view_for", "wire_legal"):
        setattr(engine_then, name, getattr(old_view, name))
    loaded = modules_at(revision, _AT_REVISION, instead={"engine": engine_then})
    views, old_deltas = loaded["app.rooms.views"], loaded["app.rooms.deltas"]

    def run(frames: list[Frame]) -> int:
        published = 0
        before: Parts | None = None
        for doc, state, seq, step in frames:
            shared = before[1] if before else None
            after = views.build_parts(doc, state, views.audiences(doc), seq, shared)
            if before is not None:
                messages, public = old_deltas.patches(
                    before, after, seq, 1, step.events, step.public_events
                )
                published += len(orjson.dumps({"seq": seq, "m": messages, "p": public}))
            before = after
        return published

    def parts(frames: list[Frame]) -> int:
        public_delta = getattr(old_deltas, "_public_delta", loaded["app.rooms.diff"].diff)
        before: Parts | None = None
        for doc, state, seq, _ in frames:
            shared = before[1] if before else None
            after = views.build_parts(doc, state, views.audiences(doc), seq, shared)
            if before is not None:
                public_delta(before[1], after[1])
            before = after
        return 0

    return run, parts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--passes", type=int, default=5)
    parser.add_argument("--against", metavar="REV", help="also time the deltas as of REV")
    parser.add_argument("--parts", action="store_true", help="also time the parts alone")
    args = parser.parse_args()
    games = record(args.games, args.seats)
    changes = sum(len(frames) - 1 for frames in games)
    sides = {"whole views": whole_views, "per audience": per_audience}
    if args.against:
        then, parts_then = at_revision(args.against)
        sides[f"per audience at {args.against}"] = then
        if args.parts:
            sides[f"parts alone at {args.against}"] = parts_then
    if args.parts:
        sides["parts alone"] = parts_alone
    times: dict[str, list[float]] = {name: [] for name in sides}
    sizes = {name: sum(run(frames) for frames in games) / changes for name, run in sides.items()}
    for number in range(args.rounds):
        order = list(sides.items())
        if number % 2:
            order.reverse()
        for name, run in order:
            started = time.process_time()
            for _ in range(args.passes):
                for frames in games:
                    run(frames)
            times[name].append((time.process_time() - started) / (args.passes * changes) * 1e6)
    for name, values in times.items():
        values.sort()
        print(
            f"{name}: {values[len(values) // 2]:.1f} us per change (median of {args.rounds} "
            f"rounds, least {values[0]:.1f}), {sizes[name]:.0f} bytes published per change"
        )
    ratio = (
        sorted(times["whole views"])[args.rounds // 2]
        / sorted(times["per audience"])[args.rounds // 2]
    )
    print(f"{changes} changes; whole views / per audience: {ratio:.2f} x CPU")
    if args.against:
        before = sorted(times[f"per audience at {args.against}"])[args.rounds // 2]
        now = sorted(times["per audience"])[args.rounds // 2]
        print(f"per audience at {args.against} / now: {before / now:.2f} x CPU")
        if args.parts:
            before = sorted(times[f"parts alone at {args.against}"])[args.rounds // 2]
            now = sorted(times["parts alone"])[args.rounds // 2]
            print(f"parts alone at {args.against} / now: {before / now:.2f} x CPU")
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
