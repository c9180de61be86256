"""Client CPU of a format-2 commit's document before it is sent: what the Redis store
did before (serialise the cold fields and hash them on every commit, then compare the
digest with the one the room holds) against what it does now
(``RedisStore._cold_digest``: compare the serialised cold fields with the bytes the room
holds, hash them only when they differ), the cold fields unchanged as in most commits.

No Redis: the document's split alone, ``--commits`` times a round, the two alternating
(the machine may be shared); ``time.process_time`` per commit.

    python bench/cold.py [--commits 20000] [--rounds 5]
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import redis.asyncio as aioredis

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from app.rooms.shuffle_proof import fresh_shuffle  # noqa: E402
from app.store.redis import RedisStore  # noqa: E402
from app.store.redis_common import COLD_FIELDS, cold_digest, split_doc  # noqa: E402


def room_doc() -> dict[str, Any]:
    """A running room's document: a 2 KB hot part, ~4 KB of cold fields."""
    scores = [{"seat": s, "points": 37 * s, "cards": ["R5", "GS", "WD4"]} for s in range(4)]
    return {
        "id": "bench",
        "status": "playing",
        "players": [{"seat": s, "name": f"player {s}", "token": "t" * 64} for s in range(4)],
        "state": {"hands": [["R1"] * 12] * 4, "deck": ["G2"] * 70, "discard": ["B3"] * 20},
        "rules": dataclasses.asdict(engine.rules_from_json({"preset": "classic"})),
        "shuffle": {**fresh_shuffle(), "dealt": {"deal": 3, "commitment": "c" * 64}},
        "deals": [{"deal": d, "scores": scores, "winner": 1} for d in range(1, 3)],
        "tally": [{"seat": s, "total": 120 + s, "wins": 2} for s in range(4)],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commits", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=5)
    options = parser.parse_args()
    doc = room_doc()
    hot, cold = split_doc(doc)
    digests = {"bench": cold_digest(cold)}
    store = RedisStore(aioredis.Redis(), room_format=2)  # never connects: nothing is sent
    store._remember_cold("bench", cold, digests["bench"])

    def before() -> bool:
        hot = orjson.dumps({k: v for k, v in doc.items() if k not in COLD_FIELDS})
        cold = orjson.dumps({k: v for k, v in doc.items() if k in COLD_FIELDS})
        return bool(hot) and digests.get("bench") == cold_digest(cold)

    def now() -> bool:
        _, cold = split_doc(doc)
        return store._cold_digest("bench", cold)[1]

    ways: dict[str, Callable[[], bool]] = {"before": before, "now": now}
    spent: dict[str, list[float]] = {name: [] for name in ways}
    for _ in range(options.rounds):
        for name, way in ways.items():
            assert way()  # the cold fields are known either way
            start = time.process_time()
            for _ in range(options.commits):
                way()
            spent[name].append((time.process_time() - start) / options.commits)
    print(f"load average {os.getloadavg()[0]:.2f}; hot {len(hot)} B, cold {len(cold)} B")
    for name, figures in spent.items():
        rounds = ", ".join(f"{f * 1e6:.2f}" for f in figures)
        print(f"{name:7} {min(figures) * 1e6:6.2f} us per commit (rounds: {rounds})")


if __name__ == "__main__":
    main()
