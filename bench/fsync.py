"""What Redis's append-only file costs the server: the load of ``bench/load.py`` (rooms of
4 bot sockets, flat out, then at half load for latency) against the Redis store, in one
run, on three Redis servers this script starts on free ports with their files on the
same disk:

- **reference**: nothing on disk (``--appendonly no --save ""``), the setting that loses
  every room on a Redis restart;
- **everysec**: ``--appendonly yes --appendfsync everysec``, the compose file's default;
- **always**: ``--appendonly yes --appendfsync always``.

    python bench/fsync.py [--rooms 50] [--seconds 10] [--latency-rooms 200] [--dir DIR]

``--dir`` holds the Redis files (default: a temporary folder; put it on the disk Redis
would use in production). Prints a table; docs/performance.md has a run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import redis
from prometheus_client.parser import text_string_to_metric_families

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load import (  # noqa: E402
    Target,
    close_rooms,
    free_port,
    open_rooms,
    percentile,
    run_load,
    start_target,
)

MODES = {
    "reference": ("--appendonly", "no", "--save", ""),
    "everysec": ("--appendonly", "yes", "--appendfsync", "everysec", "--save", ""),
    "always": ("--appendonly", "yes", "--appendfsync", "always", "--save", ""),
}


@contextlib.contextmanager
def redis_server(directory: Path, options: tuple[str, ...]) -> Iterator[str]:
    binary = shutil.which("redis-server")
    if binary is None:
        raise SystemExit("redis-server is not installed")
    directory.mkdir(parents=True)
    port = free_port()
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(directory)]
        + ["--maxmemory-policy", "noeviction", *options],
        stdout=subprocess.DEVNULL,
    )
    client = redis.Redis(port=port)
    try:
        for _ in range(200):
            with contextlib.suppress(redis.ConnectionError):
                client.ping()
                break
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        client.close()
        process.terminate()
        process.wait(10)


async def commit_buckets(http: httpx.AsyncClient) -> dict[float, float]:
    """The server's ``uno_commit_seconds`` histogram: upper bound -> cumulative count."""
    text = (await http.get("/metrics")).text
    buckets = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == "uno_commit_seconds_bucket":
                buckets[float(sample.labels["le"])] = sample.value
    return buckets


def quantile(before: dict[float, float], after: dict[float, float], q: float) -> float:
    """The bucket bound (ms) under which a share ``q`` of the commits between two scrapes
    fell (an upper estimate: the histogram's resolution)."""
    counts = {le: after[le] - before.get(le, 0.0) for le in sorted(after)}
    total = counts[float("inf")]
    for le, count in counts.items():
        if total and count >= q * total:
            return le * 1000
    return float("nan")


async def load_phase(
    target: Target, http: httpx.AsyncClient, rooms: int, seconds: float, rate: float | None
) -> dict[str, float]:
    opened = await open_rooms(target, http, rooms)
    try:
        await run_load(target, opened, http, 1.0, rate)  # warm up
        before = await commit_buckets(http)
        achieved, latencies, ended = await run_load(target, opened, http, seconds, rate)
        after = await commit_buckets(http)
    finally:
        await close_rooms(opened)
    return {
        "rate": achieved,
        "p50": percentile(latencies + ended, 0.5),
        "p99": percentile(latencies + ended, 0.99),
        "commit_p50": quantile(before, after, 0.5),
        "commit_p99": quantile(before, after, 0.99),
    }


async def measure_mode(mode: str, url: str, args: argparse.Namespace, tmp: str) -> dict[str, Any]:
    target = await start_target("redis", url, tmp, args.database)
    try:
        async with httpx.AsyncClient(base_url=target.base, timeout=30) as http:
            flat_out = await load_phase(target, http, args.rooms, args.seconds, None)
            half = await load_phase(
                target, http, args.latency_rooms, args.seconds, flat_out["rate"] / 2
            )
    finally:
        target.process.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            target.process.wait(15)
        if target.process.poll() is None:
            target.process.kill()
    return {"mode": mode, "max": flat_out, "half": half}


def report(results: list[dict[str, Any]], args: argparse.Namespace) -> str:
    ref = results[0]["max"]["rate"]
    lines = [
        f"Redis store; {args.rooms} rooms x 4 sockets flat out, then {args.latency_rooms} "
        f"rooms at half of each one's maximum; {args.seconds:g} s each; one server worker. "
        "Action: sent to the last seat's patch; commit: the server's uno_commit_seconds "
        "(bucket bounds).",
        "",
        "| Redis | max actions/s | vs reference | at max: action p50 / p99, commit p50 / p99 "
        "(ms) | at half load: action p50 / p99, commit p50 / p99 (ms) |",
        "|---|---|---|---|---|",
    ]
    for r in results:
        m, h = r["max"], r["half"]
        lines.append(
            f"| {r['mode']} | {m['rate']:.0f} | {m['rate'] / ref:.0%} "
            f"| {m['p50']:.1f} / {m['p99']:.1f}, {m['commit_p50']:g} / {m['commit_p99']:g} "
            f"| {h['p50']:.1f} / {h['p99']:.1f}, {h['commit_p50']:g} / {h['commit_p99']:g} |"
        )
    return "\n".join(lines)


async def main_async(args: argparse.Namespace) -> None:
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 5, 100)
    results = []
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        for mode, options in MODES.items():
            print(f"measuring {mode} ...", file=sys.stderr, flush=True)
            with redis_server(Path(tmp) / mode, options) as url:
                results.append(await measure_mode(mode, url, args, tmp))
    print(report(results, args))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=50)
    parser.add_argument("--latency-rooms", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--dir", default=None, help="where the Redis files go")
    parser.add_argument("--database", default=None)
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
