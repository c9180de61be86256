"""Client CPU per commit of ``RedisStore.commit`` (format 2), for comparing two checkouts:
``--rooms`` rooms commit ``--commits`` changes each, all rooms at once (one batch per
round), the cold fields unchanged and the hot part changing, as during a deal. Run once
per checkout (``--at DIR``: the ``app`` of a ``git archive`` of another commit), several
times, alternating: the machine may be shared. ``time.process_time`` of the commit rounds
alone; Redis's CPU not counted. Uses key prefix ``cpu<random>`` on the Redis given and
deletes its keys after.

    python bench/commit_cpu.py [--at DIR] [--redis redis://127.0.0.1:6379/0]
                               [--rooms 30] [--commits 300]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import sys
import time
from pathlib import Path

import orjson

here = Path(__file__).resolve().parent


async def main(options: argparse.Namespace) -> None:
    from app.store.base import Commit
    from app.store.redis import RedisStore

    sys.path.insert(0, str(here))
    from cold import room_doc

    prefix = f"cpu{secrets.token_hex(4)}"
    store = await RedisStore.connect(options.redis, prefix=prefix, room_format=2)
    rooms = [f"r{i}" for i in range(options.rooms)]
    docs = {room: room_doc() for room in rooms}
    change = orjson.dumps({"seq": 0, "ts": 0, "m": {"seat": "z" * 1600}})
    try:
        for room in rooms:
            await store.create(room, docs[room], None, False)
            assert await store.acquire(room, "bench", 600_000)

        async def commit(room: str, seq: int) -> None:
            docs[room]["n"] = seq
            await store.commit(
                room, "bench", Commit(seq=seq, doc=docs[room], log_id="0-0", change=change)
            )

        await asyncio.gather(*(commit(room, 1) for room in rooms))  # warm up
        start = time.process_time()
        for seq in range(2, options.commits + 2):
            await asyncio.gather(*(commit(room, seq) for room in rooms))
        spent = time.process_time() - start
    finally:
        keys = [k async for k in store._redis.scan_iter(match=f"{prefix}:*", count=1000)]
        if keys:
            await store._redis.delete(*keys)
        await store.close()
    per = spent / (options.commits * options.rooms)
    import app

    checkout = Path(app.__file__).parent.parent
    print(f"{checkout}: load average {os.getloadavg()[0]:.2f}; {per * 1e6:.1f} us per commit")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--at", type=Path, default=here.parent)
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--rooms", type=int, default=30)
    parser.add_argument("--commits", type=int, default=300)
    arguments = parser.parse_args()
    sys.path.insert(0, str(arguments.at.resolve()))
    import uvloop

    uvloop.run(main(arguments))
