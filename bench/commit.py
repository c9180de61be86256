"""Redis CPU per commit of the Redis store's commit path alone, against the bare writes.

``--rooms`` rooms commit ``--commits`` changes each, one after another per room, all rooms
at once, through ``RedisStore.commit`` (the commit script, in the store's batches), with
payloads of the sizes the load bench's rooms commit (a 3.8 KB document, a 3.4 KB change, a
110-byte deal entry; the lease extended every 64th commit, as a writer acting about 40
times a second does). The reference, in the same run on the same Redis, is a script that
only writes those bytes (the document into the room hash, the change into the history,
the entry into the deal log), with no check, TTL or publish: the least a commit can cost;
and a script that returns at once, given the same bytes: what the arguments alone cost.
``--small`` commits a document and a change of a few bytes instead: what the bytes cost;
``--change-bytes`` sets the change's size; ``--format 2`` has the store write the
document's cold fields apart, only when they change (docs/architecture.md, "The room
document's format"; the reference still writes the whole document).
Reads INFO cpu and INFO commandstats before and after, so the Redis must serve nothing
else; without ``--redis`` the bench starts a redis-server of its own on a free port.

    python bench/commit.py [--rooms 30] [--commits 300] [--small] [--change-bytes 3370]
                           [--format 1|2] [--json FILE] [--redis redis://HOST:PORT/0]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import orjson
import redis

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.store.base import Commit  # noqa: E402
from app.store.redis import RedisStore  # noqa: E402


def payloads(small: bool, change_bytes: int = 3370) -> tuple[dict[str, Any], bytes, dict[str, Any]]:
    """A document, a change and a deal entry of the sizes the load bench commits (or of
    a few bytes)."""
    n = 0 if small else 1
    doc = {
        "id": "bench",
        "createdAt": 1,
        "status": "playing",
        "rules": {f"option{i}": "x" * 20 for i in range(40 * n)},
        "players": [{"seat": i, "name": "p" * 230 * n} for i in range(4)],
        "deals": "d" * 1350 * n,
    }
    change = orjson.dumps({"seq": 0, "ts": 0, "m": {"seat": "z" * change_bytes * n}})
    entry = {"seq": 0, "seat": 1, "action": {"type": "play", "cards": ["GS"]}, "k": "k" * 45 * n}
    return doc, change, entry


# KEYS: room, hist, deal. ARGV: doc, change, entry.
_BARE = """
redis.call('HSET', KEYS[1], 'doc', ARGV[1])
redis.call('RPUSH', KEYS[2], ARGV[2])
redis.call('RPUSH', KEYS[3], ARGV[3])
return 1
"""
_ARGUMENTS = "return 1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextlib.contextmanager
def own_redis() -> Iterator[str]:
    server = shutil.which("redis-server")
    if server is None:
        raise SystemExit("redis-server is not installed (or give --redis)")
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        process = subprocess.Popen(
            [server, "--port", str(port), "--save", "", "--appendonly", "no", "--dir", tmp],
            stdout=subprocess.DEVNULL,
        )
        try:
            client = redis.Redis(port=port)
            for _ in range(100):
                with contextlib.suppress(redis.ConnectionError):
                    client.ping()
                    break
                time.sleep(0.05)
            client.close()
            yield f"redis://127.0.0.1:{port}/0"
        finally:
            process.terminate()
            process.wait(timeout=10)


def redis_figures(client: redis.Redis) -> tuple[float, float]:
    """(CPU seconds used, user + system; commands executed, a script's own included)."""
    cpu: Any = client.info("cpu")
    stats: Any = client.info("commandstats")
    calls = sum(v["calls"] for k, v in stats.items() if k != "cmdstat_info")
    return float(cpu["used_cpu_user"]) + float(cpu["used_cpu_sys"]), float(calls)


async def measure(
    client: redis.Redis, rooms: int, commits: int, one: Callable[[int, int], Awaitable[Any]]
) -> dict[str, float]:
    async def room(r: int) -> None:
        for seq in range(1, commits + 1):
            await one(r, seq)

    cpu0, calls0 = redis_figures(client)
    started = time.perf_counter()
    await asyncio.gather(*(room(r) for r in range(rooms)))
    wall = time.perf_counter() - started
    cpu1, calls1 = redis_figures(client)
    n = rooms * commits
    return {
        "commits_per_second": n / wall,
        "redis_cpu_us": (cpu1 - cpu0) * 1e6 / n,
        "commands": (calls1 - calls0) / n,
    }


async def run(
    url: str, rooms: int, commits: int, small: bool, change_bytes: int = 3370, room_format: int = 1
) -> dict[str, dict[str, float]]:
    DOC, CHANGE, ENTRY = payloads(small, change_bytes)
    prefix = f"benchcommit{os.getpid()}"
    store = await RedisStore.connect(url, prefix=prefix, room_format=room_format)
    client = redis.Redis.from_url(url)
    bare = store._redis.register_script(_BARE)
    arguments = store._redis.register_script(_ARGUMENTS)
    try:
        doc = orjson.dumps(DOC)
        entry = orjson.dumps(ENTRY)

        async def bare_one(r: int, seq: int) -> None:
            keys = [store._key(f"b{r}", part) for part in ("room", "hist", "deal")]
            await store._eval(bare, keys, [doc, CHANGE, entry])

        async def arguments_one(r: int, seq: int) -> None:
            keys = [store._key(f"b{r}", part) for part in ("room", "hist", "deal")]
            await store._eval(arguments, keys, [doc, CHANGE, entry])

        async def commit_one(r: int, seq: int) -> None:
            commit = Commit(
                seq=seq,
                doc=DOC,
                log_id="0-0",
                direct=True,
                change=CHANGE,
                deal_append=[ENTRY],
                lease_ttl_ms=5000 if seq % 64 == 0 else 0,
            )
            await store.commit(f"c{r}", "bench", commit)

        async def fresh_rooms() -> None:
            for r in range(rooms):
                await store.expire_room(f"c{r}", 0)
                await store.create(f"c{r}", DOC, None, False)
                assert await store.acquire(f"c{r}", "bench", 60_000)

        # Scripts loaded and connections made before anything is measured.
        await fresh_rooms()
        await measure(client, rooms, 5, bare_one)
        await measure(client, rooms, 5, arguments_one)
        await measure(client, rooms, 5, commit_one)
        await fresh_rooms()
        figures = {
            "arguments": await measure(client, rooms, commits, arguments_one),
            "reference": await measure(client, rooms, commits, bare_one),
            "commit": await measure(client, rooms, commits, commit_one),
        }
    finally:
        for key in client.scan_iter(match=f"{prefix}:*", count=1000):
            client.delete(key)
        client.close()
        await store.close()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=30)
    parser.add_argument("--commits", type=int, default=300)
    parser.add_argument("--small", action="store_true", help="payloads of a few bytes")
    parser.add_argument("--change-bytes", type=int, default=3370, help="the change's size")
    parser.add_argument("--format", type=int, default=1, choices=(1, 2), help="room format")
    parser.add_argument("--redis", default=None, help="a Redis serving nothing else")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    with contextlib.ExitStack() as stack:
        url = args.redis or stack.enter_context(own_redis())
        figures = asyncio.run(
            run(url, args.rooms, args.commits, args.small, args.change_bytes, args.format)
        )
    sizes = (
        "payloads of a few bytes"
        if args.small
        else f"3.8 KB document, {args.change_bytes / 1000:.1f} KB change, format {args.format}"
    )
    print(
        f"{args.rooms} rooms x {args.commits} commits, {sizes}; load average "
        f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores\n\n"
        "| path | commits/s | Redis CPU per commit (us) | Redis commands per commit |\n"
        "|---|---|---|---|"
    )
    for name, f in figures.items():
        print(
            f"| {name} | {f['commits_per_second']:.0f} | {f['redis_cpu_us']:.1f} "
            f"| {f['commands']:.2f} |"
        )
    if args.json is not None:
        args.json.write_text(orjson.dumps(figures).decode())


if __name__ == "__main__":
    main()
