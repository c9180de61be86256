"""SIGSTOP of a room's lease holder past its lease, then SIGCONT: no stale write accepted.

Two nodes on the script's own Redis; tables of bots. Each run picks a room, reads which
node holds its lease, and stops that node with SIGSTOP for longer than the lease, while
the bots on the other node play on (the other node takes the room over). Some bots on
the stopped node have just sent actions: the stopped writer wakes up after SIGCONT
holding a stale room and a lease it believes in. Any write of it that the store took
would show as a fork (two changes under one ``seq``), an acked action missing from the
room's record, or a view unequal to a fresh snapshot.

    python -m reliability.split_brain [--runs 100] [--rooms 3] [--lease-ms 1500]
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from reliability.bots import Report, print_report
from reliability.chaos import Cluster, chaos_report, node_of, run_cluster


async def attack(cluster: Cluster, runs: int, lease_ms: int) -> tuple[int, int]:
    resumed = stopped_holders = 0
    loop = asyncio.get_running_loop()
    for i in range(runs):
        await asyncio.sleep(cluster.rng.uniform(0.5, 1.5))
        table = cluster.rng.choice(cluster.tables)
        holder = node_of(cluster, await cluster.redis_get(f"rel:{{{table.room_id}}}:lease"))
        if holder is None:
            holder = cluster.rng.choice(cluster.nodes)
        else:
            stopped_holders += 1
        holder.pause()
        cluster.note(f"split {i + 1}: SIGSTOP {holder.name} ({table.room_id})")
        marks = [t.max_seq for t in cluster.tables]
        await asyncio.sleep(lease_ms / 1000 * cluster.rng.uniform(1.3, 2.0))
        holder.resume()
        end = loop.time() + 30
        while loop.time() < end:
            if all(t.max_seq > m for t, m in zip(cluster.tables, marks, strict=True)):
                resumed += 1
                break
            await asyncio.sleep(0.1)
    return resumed, stopped_holders


async def run(
    runs: int = 100, rooms: int = 3, seats: int = 3, lease_ms: int = 1500, seed: int | None = None
) -> Report:
    resumed = holders = 0

    async def go(cluster: Cluster) -> None:
        nonlocal resumed, holders
        resumed, holders = await attack(cluster, runs, lease_ms)

    outcome = await run_cluster(go, rooms=rooms, seats=seats, seed=seed, lease_ms=lease_ms)
    outcome.counts["resumed"] = resumed
    c = outcome.counts
    title = f"split_brain: {runs} SIGSTOPs of the lease holder past a {lease_ms} ms lease"
    title += f", {rooms} rooms x {seats} bots"
    report = chaos_report(title, outcome, runs, "split-brain runs resumed")
    stale = c["forks"] + c["acked_lost"] + c["applied_twice"]
    report.rows.insert(
        1,
        type(report.rows[0])(
            "stale writes accepted (forks + acked lost + doubled)", stale, "0", stale == 0
        ),
    )
    report.notes.append(
        f"{holders} of {runs} stops hit the holder of the chosen room's lease (else a random node)"
    )
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m reliability.split_brain", description=__doc__)
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--rooms", type=int, default=3)
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--lease-ms", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args(argv)
    return print_report(
        asyncio.run(run(args.runs, args.rooms, args.seats, args.lease_ms, args.seed))
    )


if __name__ == "__main__":
    sys.exit(main())
