"""The short version of ``bench/tournament.py``: a 16-player, 2-round tournament of bot
sockets beside plain rooms on one server process runs to its standings and reports its
figures (the full run's are in docs/performance.md)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parents[2]


def test_the_tournament_bench_runs_every_round_and_times_every_table(tmp_path: Path) -> None:
    out = tmp_path / "tournament.json"
    command = [sys.executable, "bench/tournament.py", "--quick", "--json", str(out)]
    subprocess.run(command, cwd=ROOT, check=True, timeout=240, capture_output=True)
    figures = orjson.loads(out.read_text())
    assert figures["players"] == 16 and figures["ranked"] == 16
    assert figures["withdrawn"] == 0  # every bot came to each of its tables
    assert len(figures["perRound"]) == 2
    assert all(r["actions"] > 0 and r["cpu"] >= 0 for r in figures["perRound"])
    assert all(r["actions"] > 0 for r in figures["reference"])
    # Four tables a round, each table's standings push seen on the watcher socket.
    assert figures["tables"] == 8
    assert figures["watchers"] == 2 and len(figures["latencies"]) == 8 * 2
