"""Prints every audience's messages and views of recorded games, as the views and deltas
modules make them (compiled or from source: tests/app/test_compiled.py compares both).
The games are recorded once, into the file given (a room's shuffle is seeded by secrets),
and read back from it by later runs."""

from __future__ import annotations

import pickle
import sys
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from app.rooms import deltas  # noqa: E402
from app.rooms.views import Parts, audiences, build_parts, build_views  # noqa: E402
from bench.deltas import record  # noqa: E402


def main() -> None:
    games = Path(sys.argv[1])
    if not games.exists():
        games.write_bytes(pickle.dumps(record(3, 4)))
    out = sys.stdout.buffer
    for frames in pickle.loads(games.read_bytes()):
        before: Parts | None = None
        for doc, state, seq, step in frames:
            shared = before[1] if before else None
            after = build_parts(doc, state, audiences(doc), seq, shared)
            views, _ = build_views(doc, state, audiences(doc), seq, {})
            out.write(orjson.dumps(views, option=orjson.OPT_SORT_KEYS) + b"\n")
            if before is not None:
                messages, public = deltas.patches(
                    before, after, seq, 1, step.events, step.public_events
                )
                out.write(orjson.dumps({"m": messages, "p": public}) + b"\n")
            before = after


if __name__ == "__main__":
    main()
