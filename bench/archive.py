"""CPU per archived deal: the SQL archive storing one deal per transaction
(``Database.record_deal``, what the archiver does with a lone entry) against the deals
waiting in its queue stored together (``Database.record_deals``, a batch of ``--batch``).

The deals are real: 4-seat classic matches to 1000 points played by random legal moves
(a card whenever there is one) through the room machine, each deal's record as the room
hands it to the outbox (a match's first deal also records the match). Rounds alternate
the two ways, each into a fresh database (an SQLite file, or a PostgreSQL database of
the bench's own), timed by the process's CPU clock (``time.process_time``: a PostgreSQL
server's CPU is not counted, SQLite's is, as it runs in this process), so the ratio
holds on a busy machine better than wall time. Prints the load average.

    python bench/archive.py [--deals 256] [--batch 64] [--rounds 5]
                            [--database postgresql+asyncpg://postgres@127.0.0.1:5432/test]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import secrets
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import orjson

# bench/engine.py would shadow the engine package: the repository's root comes first.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).parent]
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from app.db import Database  # noqa: E402
from app.deal_record import DealRecord  # noqa: E402
from bench.rooms import seated  # noqa: E402

SEATS = 4


def record(deals: int, seed: int = 0) -> list[tuple[str, DealRecord]]:
    """At least ``deals`` finished deals (room id, record), matches one after another."""
    out: list[tuple[str, DealRecord]] = []
    rng = random.Random(seed)
    room = 0
    while len(out) < deals:
        room += 1
        out += _match(f"r{room}", rng)
    return out[:deals]


def _match(room_id: str, rng: random.Random) -> list[tuple[str, DealRecord]]:
    machine = seated(SEATS, {"targetScore": 1000}, room_id=room_id, spectators=False)
    machine.handle({"k": "start"}, 0)
    host = machine.doc["hostPid"]
    ends: list[tuple[str, DealRecord]] = []
    for n in range(100_000):
        state = machine.state
        if state is None or state.phase not in ("playing", "dealOver"):
            break
        if state.phase == "dealOver":
            command = {"k": "action", "pid": host, "ref": f"r{n}", "action": {"type": "nextDeal"}}
        else:
            legal = engine.legal_actions(state, state.turn)
            # A card when there is one: deals as long as people play them.
            action = rng.choice([a for a in legal if a.type == "play"] or legal)
            pid = next(p["pid"] for p in machine.doc["players"] if p["seat"] == state.turn)
            command = {"k": "action", "pid": pid, "ref": f"r{n}", "action": action.to_json()}
        step = machine.handle(command, 1_764_000_000_000 + n)
        if step.deal_end is not None:
            # As the archiver reads it back from the outbox.
            end = DealRecord.from_json(orjson.loads(orjson.dumps(step.deal_end.to_json())))
            ends.append((room_id, end))
    return ends


@asynccontextmanager
async def fresh_database(url: str | None) -> AsyncIterator[Database]:
    """A new, migrated database: an SQLite file, or a PostgreSQL database made for it."""
    if url is None:
        with tempfile.TemporaryDirectory() as directory:
            db = await Database.connect(f"sqlite+aiosqlite:///{directory}/archive.db")
            try:
                yield db
            finally:
                await db.close()
        return
    from sqlalchemy import text
    from sqlalchemy.engine import make_url
    from sqlalchemy.ext.asyncio import create_async_engine

    name = f"uno_bench_{secrets.token_hex(4)}"
    admin = create_async_engine(url, isolation_level="AUTOCOMMIT")
    try:
        async with admin.connect() as connection:
            await connection.execute(text(f'CREATE DATABASE "{name}"'))
        db = await Database.connect(
            make_url(url).set(database=name).render_as_string(hide_password=False)
        )
        try:
            yield db
        finally:
            await db.close()
            async with admin.connect() as connection:
                await connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    finally:
        await admin.dispose()


async def one_at_a_time(db: Database, deals: list[tuple[str, DealRecord]], _: int) -> None:
    for room_id, deal in deals:
        await db.record_deal(room_id, deal)


async def batched(db: Database, deals: list[tuple[str, DealRecord]], batch: int) -> None:
    for i in range(0, len(deals), batch):
        await db.record_deals(deals[i : i + batch])


Deals = list[tuple[str, DealRecord]]
Way = Callable[[Database, Deals, int], Awaitable[None]]


async def timed(way: Way, options: argparse.Namespace, deals: Deals) -> float:
    """CPU seconds per deal of storing ``deals`` in a fresh database the given way."""
    async with fresh_database(options.database) as db:
        # Warm up on deals of its own (statement caches, the connection pool).
        warm = [
            (f"w{room_id}", replace(deal, match_id=f"w{deal.match_id}"))
            for room_id, deal in deals[: options.batch]
        ]
        await way(db, warm, options.batch)
        gc.collect()  # the last round's garbage is not this one's cost
        start = time.process_time()
        await way(db, deals, options.batch)
        spent = time.process_time() - start
        stored = await db.match(deals[-1][1].match_id)
        assert stored is not None and stored.deals[-1].number == deals[-1][1].deal_number
    return spent / len(deals)


async def run(options: argparse.Namespace) -> dict[str, Any]:
    deals = record(options.deals)
    matches = len({deal.match_id for _, deal in deals})
    actions = sum(len(deal.actions) for _, deal in deals) / len(deals)
    print(f"{len(deals)} deals of {matches} matches, {actions:.0f} actions per deal on average")
    ways: dict[str, Way] = {"one_at_a_time": one_at_a_time, "batched": batched}
    times: dict[str, list[float]] = {name: [] for name in ways}
    for _ in range(options.rounds):
        for name, way in ways.items():
            times[name].append(await timed(way, options, deals))
    best = {name: min(spent) for name, spent in times.items()}
    middle = {name: statistics.median(spent) for name, spent in times.items()}
    load = os.getloadavg()[0]
    for name, spent in times.items():
        figures = " ".join(f"{t * 1e6:.0f}" for t in spent)
        print(
            f"{name:14} {best[name] * 1e6:6.0f} us CPU per deal best, "
            f"{middle[name] * 1e6:6.0f} median (rounds: {figures})"
        )
    ratio = best["one_at_a_time"] / best["batched"]
    median_ratio = middle["one_at_a_time"] / middle["batched"]
    print(
        f"batches of {options.batch}: {ratio:.2f}x less CPU per deal (best), "
        f"{median_ratio:.2f}x (median); load average {load:.2f}"
    )
    return {"us_per_deal": {k: v * 1e6 for k, v in best.items()}, "ratio": ratio, "load": load}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=256)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--database", help="a PostgreSQL async URL (default: SQLite files)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    options = parser.parse_args()
    figures = asyncio.run(run(options))
    if options.json is not None:
        options.json.write_bytes(orjson.dumps(figures))


if __name__ == "__main__":
    main()
