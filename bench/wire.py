"""Client CPU per command of the Redis store's batches: redis-py's pipeline
(``app.store.redis_common.Batcher``) against the lean wire (``app.store.redis_wire``).

Each round sends ``--commands`` EVALSHA commands with a real commit's arguments (a 2.3 KB
document, a 3.4 KB change, the keys and numbers of ``RedisStore.commit``) to a script that
returns at once, ``--batch`` of them per loop turn, through each batcher in turn (the
machine may be shared: alternating spreads its load over both); the figure is the
process's CPU time (``time.process_time``) per command, Redis's own CPU not counted.

    python bench/wire.py [--redis redis://127.0.0.1:6379/0] [--commands 10000]
                         [--batch 1] [--rounds 5] [--uvloop]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.store.redis_common import Batcher  # noqa: E402
from app.store.redis_config import open_client  # noqa: E402
from app.store.redis_wire import LeanBatcher, address_of  # noqa: E402


def commit_args(sha: str) -> tuple[Any, ...]:
    """EVALSHA of the commit script as ``RedisStore.commit`` sends it, keys and all."""
    keys = [f"bench:{{room}}:{part}" for part in ("room", "lease", "hist", "log", "deal", "outbox")]
    doc = orjson.dumps(
        {"id": "room", "players": [{"seat": i, "name": "p" * 500} for i in range(4)]}
    )
    change = orjson.dumps({"seq": 7, "ts": 0, "m": {"seat": "z" * 3370}})
    args = ["node-1", 7, doc, "1-0", change, 64, 300_000, "bench:{room}:changes", "0", 0]
    args += [0, "", b"", "0", 86_400_000, "0123456789abcdef01234567", b""]
    return ("EVALSHA", sha, len(keys), *keys, *args)


async def run(batcher: Batcher, command: tuple[Any, ...], commands: int, batch: int) -> float:
    """CPU seconds per command for ``commands`` commands, ``batch`` per loop turn."""
    start = time.process_time()
    for _ in range(commands // batch):
        replies = await asyncio.gather(*(batcher.call(*command) for _ in range(batch)))
        assert replies[0] == 1
    return (time.process_time() - start) / commands


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--commands", type=int, default=10_000)
    parser.add_argument("--batch", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--uvloop", action="store_true")
    options = parser.parse_args()
    client = await open_client(options.redis, 5.0, 64)
    address = address_of(client)
    assert address is not None, "the lean wire does not serve this URL"
    command = commit_args(await client.script_load("return 1"))
    batchers: dict[str, Batcher] = {
        "pipeline": Batcher(client),
        "lean": LeanBatcher(client, address),
    }
    for batcher in batchers.values():  # warm up: connections made, code paths run
        await run(batcher, command, 200, options.batch)
    spent: dict[str, list[float]] = {name: [] for name in batchers}
    for _ in range(options.rounds):
        for name, batcher in batchers.items():
            spent[name].append(await run(batcher, command, options.commands, options.batch))
    loop = type(asyncio.get_running_loop()).__module__.split(".")[0]
    print(
        f"load average {os.getloadavg()[0]:.2f}; {options.batch} command(s) per loop turn; {loop}"
    )
    for name, figures in spent.items():
        rounds = ", ".join(f"{f * 1e6:.1f}" for f in figures)
        print(f"{name:9} {min(figures) * 1e6:6.1f} us per command (rounds: {rounds})")
    for batcher in batchers.values():
        await batcher.close()
    await client.aclose()


if __name__ == "__main__":
    if "--uvloop" in sys.argv:
        import uvloop

        uvloop.run(main())
    else:
        asyncio.run(main())
