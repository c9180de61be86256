"""Kill -9 of server nodes while bots play; every acknowledged action must survive once.

Two nodes share a Redis the script starts itself (appendfsync always); tables of bots
play over real sockets, each bot on a random node. At random moments one node is killed
with SIGKILL and restarted on its port; its bots reconnect to whichever node answers and
retry their unanswered action with the same id. At the end the counts are taken:
games finished, acked actions lost, applied twice, views unequal to a fresh snapshot.

    python -m reliability.crash_nodes [--kills 50] [--rooms 4] [--seats 3] [--seed N]
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from reliability.bots import Report, print_report
from reliability.chaos import Cluster, chaos_report, run_cluster


async def attack(cluster: Cluster, kills: int, gap: tuple[float, float]) -> int:
    resumed = 0
    for i in range(kills):
        await asyncio.sleep(cluster.rng.uniform(*gap))
        node = cluster.rng.choice(cluster.nodes)
        node.kill()
        cluster.note(f"kill {i + 1}: {node.name}")
        await asyncio.sleep(cluster.rng.uniform(0, 1))
        await asyncio.to_thread(node.start)
        # Resumed: every table moved on after the kill.
        marks = [t.max_seq for t in cluster.tables]
        end = asyncio.get_running_loop().time() + 20
        while asyncio.get_running_loop().time() < end:
            if all(t.max_seq > m for t, m in zip(cluster.tables, marks, strict=True)):
                resumed += 1
                break
            await asyncio.sleep(0.1)
    return resumed


async def run(
    kills: int = 50,
    rooms: int = 4,
    seats: int = 3,
    seed: int | None = None,
    gap: tuple[float, float] = (1.0, 3.0),
) -> Report:
    resumed = 0

    async def go(cluster: Cluster) -> None:
        nonlocal resumed
        resumed = await attack(cluster, kills, gap)

    outcome = await run_cluster(go, rooms=rooms, seats=seats, seed=seed)
    outcome.counts["resumed"] = resumed
    return chaos_report(
        f"crash_nodes: {kills} node kills (kill -9), {rooms} rooms x {seats} bots, 2 nodes",
        outcome,
        kills,
        "node kills resumed",
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m reliability.crash_nodes", description=__doc__)
    parser.add_argument("--kills", type=int, default=50)
    parser.add_argument("--rooms", type=int, default=4)
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args(argv)
    report = asyncio.run(run(args.kills, args.rooms, args.seats, args.seed))
    return print_report(report)


if __name__ == "__main__":
    sys.exit(main())
