"""Client CPU per commit of ``RedisStore.commit``, for comparing two checkouts:
``--rooms`` rooms commit ``--commits`` changes each, all rooms at once (one batch per
round), the cold fields unchanged and the hot part changing, as during a deal: one seat's
move count and the time. ``--doc running`` (the default): a running room's document as
the writer commits it (four seats, ~35 keys, 1.7 KB hot, 1.6 KB cold); ``--doc cold``:
``bench/cold.py``'s (8 keys, 1.2 KB hot, 3.8 KB cold; the figures before 2026-12-06 night).
``time.process_time`` of the commit rounds alone; Redis's CPU not counted. Uses key
prefixes ``cpu<random>`` on the Redis given and deletes its keys after.

``--against DIR`` (the ``app`` of a ``git archive`` of another commit): both checkouts'
stores in this one process, their rounds alternating, ``--rounds`` each (the machine may
be shared: the ratio holds better than the microseconds); the median per commit of each.
``--at DIR`` alone measures one other checkout. ``--format`` is the room format the
checkout at ``--at`` (this one by default) writes, 2 by default; ``--against`` writes 2.
``--offline``: no Redis; each command packed as it would be sent and answered 1 at the end
of the loop turn: the store's own CPU per commit, without the socket and the replies.

    python bench/commit_cpu.py [--at DIR] [--against DIR] [--format 1|2] [--rounds 7]
                               [--doc running|cold] [--offline]
                               [--redis redis://127.0.0.1:6379/0] [--rooms 30] [--commits 300]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import secrets
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import orjson

here = Path(__file__).resolve().parent
# bench/engine.py would shadow the engine package: the repository's root comes first.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != here]
sys.path.insert(0, str(here.parent))

from bench.revisions import app_of  # noqa: E402


def checkout_modules(checkout: Path) -> tuple[Any, Any, Any]:
    """(RedisStore, Commit, the lean wire's module) of the ``app`` at ``checkout``,
    imported apart from any other checkout's (each keeps its own modules)."""
    wire, base, redis = app_of(
        checkout, "app.store.redis_wire", "app.store.base", "app.store.redis"
    )
    return redis.RedisStore, base.Commit, wire


def answering(wire: Any, client: Any) -> Any:
    """A lean-wire batcher of ``wire`` (a checkout's module) that packs each command as
    it would be sent and answers 1 to every one at the end of the loop turn, sending
    nothing: the store's own CPU per commit, with no socket nor reply in it."""

    class Answering(wire.LeanBatcher):  # type: ignore[misc, name-defined]
        def _flush(self) -> None:
            self._scheduled = False
            waiting, self._waiting = self._waiting, []
            self._packed = []
            for future, _ in waiting:
                future.set_result(1)

    return Answering(client, wire.Address())


def running_doc() -> dict[str, Any]:
    """A running room's document as the writer commits it: four seats joined (their
    tokens' 64-hex hashes), their sockets open, a spectator, the match started."""
    import engine
    from app.rooms import tokens
    from app.rooms.doc import new_doc
    from app.rooms.machine import RoomMachine

    doc = new_doc(
        room_id="bench",
        name="table",
        code="ABCDEF",
        private=False,
        spectators=True,
        seats=4,
        rules=engine.rules_from_json({"preset": "classic"}).to_json(),
        host_hash=tokens.hash_token("host"),
        now_ms=0,
    )
    machine = RoomMachine(doc, 0, [])
    for i in range(4):
        token = tokens.hash_token(f"t{i}")
        machine.handle({"k": "join", "pid": f"p{i}", "name": f"Player {i}", "token": token}, 0)
        machine.handle({"k": "connect", "pid": f"p{i}"}, 0)
    machine.handle({"k": "watch"}, 0)
    machine.handle({"k": "start"}, 0)
    assert machine.doc["status"] == "playing"
    return {**machine.to_doc(), "ts": 0, "listed": True, "watched": True}


class Side:
    """One checkout's store and its rooms."""

    def __init__(self, checkout: Path, redis: str, room_format: int) -> None:
        self.checkout = checkout
        self.room_format = room_format
        self.store_class, self.commit_class, self.wire = checkout_modules(checkout)
        self.redis = redis
        self.prefix = f"cpu{secrets.token_hex(4)}"
        self.spent: list[float] = []
        self.seq = 1
        self.offline = False

    async def open(self, rooms: list[str], room_doc: Any, offline: bool) -> None:
        self.rooms = rooms
        self.docs = {room: room_doc() for room in rooms}
        self.offline = offline
        if offline:
            import redis.asyncio as aioredis

            client = aioredis.Redis()  # never connects
            self.store = self.store_class(client, prefix=self.prefix, room_format=self.room_format)
            self.store._batch = answering(self.wire, client)
            await self.round()  # warm up
            return
        self.store = await self.store_class.connect(
            self.redis, prefix=self.prefix, room_format=self.room_format
        )
        for room in rooms:
            await self.store.create(room, self.docs[room], None, False)
            assert await self.store.acquire(room, "bench", 600_000)
        await self.round()  # warm up

    async def round(self) -> None:
        change = orjson.dumps({"seq": 0, "ts": 0, "m": {"seat": "z" * 1600}})

        async def commit(room: str, seq: int) -> None:
            doc = self.docs[room]
            doc["ts"] = seq
            if "players" in doc:
                doc["players"][seq % len(doc["players"])]["moves"] = seq
            else:
                doc["n"] = seq
            done = self.commit_class(seq=seq, doc=self.docs[room], log_id="0-0", change=change)
            await self.store.commit(room, "bench", done)

        await asyncio.gather(*(commit(room, self.seq) for room in self.rooms))
        self.seq += 1

    async def timed(self, commits: int) -> None:
        # As timeit: no collection of the other side's garbage charged to this side.
        gc.collect()
        gc.disable()
        try:
            start = time.process_time()
            for _ in range(commits):
                await self.round()
            self.spent.append((time.process_time() - start) / (commits * len(self.rooms)))
        finally:
            gc.enable()

    async def close(self) -> None:
        if self.offline:
            return
        redis = self.store._redis
        keys = [k async for k in redis.scan_iter(match=f"{self.prefix}:*", count=1000)]
        if keys:
            await redis.delete(*keys)
        await self.store.close()


async def main(options: argparse.Namespace) -> None:
    sys.path.append(str(here))
    from cold import room_doc

    if options.doc == "running":
        room_doc = running_doc  # noqa: F811
    sides = [Side(options.at.resolve(), options.redis, options.format)]
    if options.against is not None:
        sides.insert(0, Side(options.against.resolve(), options.redis, 2))
    rooms = [f"r{i}" for i in range(options.rooms)]
    try:
        for side in sides:
            await side.open(rooms, room_doc, options.offline)
        for _ in range(options.rounds):
            for side in sides:
                await side.timed(options.commits)
    finally:
        for side in sides:
            await side.close()
    print(f"load average {os.getloadavg()[0]:.2f}")
    for side in sides:
        figures = ", ".join(f"{s * 1e6:.1f}" for s in side.spent)
        median = statistics.median(side.spent) * 1e6
        print(
            f"{side.checkout} (format {side.room_format}): {median:.1f} us per commit"
            f" (median; rounds: {figures})"
        )
    if len(sides) == 2:
        before, now = (statistics.median(side.spent) for side in sides)
        print(f"now/before: {now / before:.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--at", type=Path, default=here.parent)
    parser.add_argument("--against", type=Path, default=None)
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--rooms", type=int, default=30)
    parser.add_argument("--commits", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--doc", choices=("running", "cold"), default="running")
    parser.add_argument("--format", type=int, default=2, help="the format --at writes")
    parser.add_argument("--offline", action="store_true", help="no Redis: the store's own CPU")
    arguments = parser.parse_args()
    import uvloop

    uvloop.run(main(arguments))
