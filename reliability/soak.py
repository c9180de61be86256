"""A long game day: rooms x 4 bots on two nodes for ``--minutes``, seats dropping.

Bots play at a human-ish pace (``--think`` seconds a move); every minute 1 % of the seats
lose their socket (closed under them) and come back, resending what was unanswered. The
nodes' RSS is sampled every few seconds. Counts: invariant violations (acked actions
lost, applied twice, views unequal to a fresh snapshot, seq forks, gaps), exceptions in
the server logs, and RSS growth from the end of the warm-up (a fifth of the run) to the
end.

    python -m reliability.soak [--rooms 200] [--minutes 30] [--think 0.5] [--drop 0.01]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time

from reliability.bots import Report, print_report
from reliability.chaos import Cluster, run_cluster


async def run(
    rooms: int = 200,
    minutes: float = 30,
    seats: int = 4,
    think: float = 0.5,
    drop: float = 0.01,
    seed: int | None = None,
) -> Report:
    seconds = minutes * 60
    samples: list[tuple[float, int]] = []  # (seconds into the run, summed RSS in kB)
    # The nodes' gauges beside the RSS (what holds the memory), summed over the nodes.
    gauges: list[tuple[float, dict[str, float]]] = []
    lag = 0.0  # how late this script's own loop woke (it drives every bot)
    dropped = 0

    async def sample_gauges(cluster: Cluster, at: float) -> None:
        total: dict[str, float] = {}
        for node in cluster.nodes:
            if node.alive:
                for name, value in (await asyncio.to_thread(node.gauges)).items():
                    total[name] = total.get(name, 0.0) + value
        gauges.append((at, total))

    async def attack(cluster: Cluster) -> None:
        nonlocal dropped, lag
        start = time.monotonic()
        bots = [b for t in cluster.tables for b in t.players]
        per_minute = max(1, round(len(bots) * drop))
        owed = 0.0  # drops due, spread evenly over each minute
        while (elapsed := time.monotonic() - start) < seconds:
            samples.append((elapsed, sum(n.rss_kb() for n in cluster.nodes if n.alive)))
            await sample_gauges(cluster, elapsed)
            tick = min(5.0, max(0.0, seconds - elapsed))
            slept = time.monotonic()
            await asyncio.sleep(tick)
            lag = max(lag, time.monotonic() - slept - tick)
            owed += per_minute * tick / 60
            while owed >= 1:
                owed -= 1
                bot = cluster.rng.choice(bots)
                if bot.ws is not None:
                    bot._force_reconnect()
                    dropped += 1
        samples.append(
            (time.monotonic() - start, sum(n.rss_kb() for n in cluster.nodes if n.alive))
        )
        await sample_gauges(cluster, time.monotonic() - start)

    outcome = await run_cluster(
        attack, rooms=rooms, seats=seats, think=think, seed=seed, lease_ms=5000, settle=2
    )
    c = outcome.counts
    warm = next((kb for at, kb in samples if at >= seconds / 5), samples[0][1])
    end = samples[-1][1]
    growth = (end - warm) / warm * 100 if warm else 0.0
    report = Report(f"soak: {rooms} rooms x {seats} bots, {minutes:g} min, 2 nodes")
    violations = (
        c["acked_lost"] + c["applied_twice"] + c["views_unequal"] + c["forks"] + c["stat_gaps"]
    )
    report.add("acked actions checked", c["acked_checked"], "> 0", c["acked_checked"] > 0)
    report.add("games finished", c["games_finished"])
    report.add("seat sockets dropped", dropped)
    report.add(
        "invariant violations (lost, doubled, unequal views, forks, gaps)",
        violations,
        "0",
        violations == 0,
    )
    report.add("sockets wedged", c["stat_wedged"], "0", c["stat_wedged"] == 0)
    report.add("sockets late (a change 6-16 s after another socket of the room)", c["stat_late"])
    report.add("latest catch-up (s after the first socket)", c["stat_late_max_s"])
    exceptions = c["log_traceback"] + c["log_asgi_exception"] + c["log_future_never_retrieved"]
    report.add("exceptions in server logs", exceptions, "0", exceptions == 0)
    report.add("RSS after warm-up (MB, both nodes)", round(warm / 1024, 1))
    report.add("RSS at the end (MB, both nodes)", round(end / 1024, 1))
    report.add("RSS growth after warm-up", f"{growth:.1f} %", "< 10 %", growth < 10)
    report.add("seconds", c["seconds"])
    report.add("latest wake-up of this script's loop (s)", round(lag, 2))
    warm_gauges = next((g for at, g in gauges if at >= seconds / 5), gauges[0][1] if gauges else {})
    end_gauges = gauges[-1][1] if gauges else {}
    for name in ("uno_sockets", "uno_rooms", "uno_frames_queued", "uno_commands_waiting"):
        most = max((g.get(name, 0.0) for _, g in gauges), default=0.0)
        report.add(
            f"{name} (both nodes): after warm-up / at the end / most",
            f"{warm_gauges.get(name, 0):g} / {end_gauges.get(name, 0):g} / {most:g}",
        )
    for table in outcome.cluster.tables:
        report.notes += [f"wedged in room {table.room_id}: {why}" for why in table.wedges]
        report.notes += [f"unequal view in room {table.room_id}: {why}" for why in table.unequal]
    report.notes += [f"log: {line}" for line in outcome.cluster.excerpts]
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m reliability.soak", description=__doc__)
    parser.add_argument("--rooms", type=int, default=200)
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--think", type=float, default=0.5, help="seconds per move, on average")
    parser.add_argument("--drop", type=float, default=0.01, help="share of seats dropped a minute")
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args(argv)
    report = asyncio.run(
        run(args.rooms, args.minutes, args.seats, args.think, args.drop, args.seed)
    )
    return print_report(report)


if __name__ == "__main__":
    sys.exit(main())
