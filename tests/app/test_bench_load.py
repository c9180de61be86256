"""``bench/load.py``'s comparison counts the server's whole process tree and prints the
summary line other programs read (counts and formats, not times)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import load  # noqa: E402

# A parent that starts a child burning CPU and waits for it, then burns none itself.
BURN = (
    "import subprocess, sys; "
    "subprocess.run([sys.executable, '-c', 'sum(range(30_000_000))']); "
    "import time; time.sleep(30)"
)


def test_the_cpu_of_a_server_counts_the_processes_under_it() -> None:
    parent = subprocess.Popen([sys.executable, "-c", BURN])
    try:
        # Until the child has run and been waited for: its time is then the parent's.
        for _ in range(600):
            stat = load._stat(parent.pid)
            if int(stat[13]) + int(stat[14]) > 0:
                break
            subprocess.run(["sleep", "0.1"])
        own = load.tree_cpu_seconds(parent.pid)
        stat = load._stat(parent.pid)
        own_only = (int(stat[11]) + int(stat[12])) / os.sysconf("SC_CLK_TCK")
        assert own > own_only
    finally:
        parent.kill()
        parent.wait()


def test_the_summary_names_both_sides_and_their_ratio() -> None:
    rounds = [
        {
            "ours": {"per_cpu_second": 2000.0, "half_p99": 10.0, "max": 900.0},
            "theirs abc123": {"per_cpu_second": 1000.0, "half_p99": 20.0, "max": 800.0},
            "reference": {"per_cpu_second": 8000.0, "half_p99": 5.0, "max": 4000.0},
        }
    ]
    lines = load.compare_summary(rounds, "ours", "theirs abc123")
    assert lines[0] == "actions per CPU-second: 2000 vs 1000 (2.00 x)"
    assert lines[1] == "half-load p99: 10.0 ms vs 20.0 ms"
    assert any(line.startswith("reference: 8000 actions per CPU-second") for line in lines)


def test_rounds_run_on_a_busy_machine_are_marked_as_no_evidence() -> None:
    rounds = [
        {
            "ours": {"per_cpu_second": 2000.0, "cpu_us": 500.0, "half_p99": 10.0, "max": 9.0},
            "theirs abc123": {"per_cpu_second": 1e3, "cpu_us": 1e3, "half_p99": 20.0, "max": 8.0},
        }
    ] * 3
    quiet = load.compare_summary(rounds, "ours", "theirs abc123", [0.4, 1.9, 0.1])
    assert not any("BUSY" in line for line in quiet)
    busy = load.compare_summary(rounds, "ours", "theirs abc123", [0.4, 2.0, 7.5])
    assert busy[-1].startswith("BUSY: rounds 2, 3 ran at a load average >= 2 (highest 7.5)")
    assert load.busy_mark(1.99) == ""
    assert "BUSY" in load.round_line(1, rounds[0], 2.5)


def test_the_bench_waits_for_a_quiet_machine_and_says_what_it_got(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    readings = iter([6.0, 3.0, 1.5])
    monkeypatch.setattr(load, "load_average", lambda: next(readings))
    monkeypatch.setattr(load, "_QUIET_POLL_SECONDS", 0.0)
    assert asyncio.run(load.wait_quiet(1.0, "round 1")) == 1.5
    assert "round 1: load average 1.50 before it (quiet)" in capsys.readouterr().out
    # Given no time to wait, it reports the machine as it is.
    monkeypatch.setattr(load, "load_average", lambda: 4.0)
    assert asyncio.run(load.wait_quiet(0.0, "round 2")) == 4.0
    assert "NOT quiet after 0 min" in capsys.readouterr().out


def test_a_routed_target_sends_all_of_a_rooms_requests_to_one_node() -> None:
    assert (load.nodes_of("redis-2r"), load.routed("redis-2r")) == (2, True)
    assert (load.nodes_of("redis-2"), load.routed("redis-2")) == (2, False)
    bases = ["http://127.0.0.1:1", "http://127.0.0.1:2"]
    spread = load.Target("redis-2", bases[0], "ws://x", True, None, {}, bases=bases)  # type: ignore[arg-type]
    routed = load.Target("redis-2r", bases[0], "ws://x", True, None, {}, bases=bases, routed=True)  # type: ignore[arg-type]
    assert spread.home("r1") is None and spread.rest("r1") == ""
    homes = {room: routed.home(room) for room in (f"room{i}" for i in range(20))}
    assert set(homes.values()) == {0, 1}  # both nodes get rooms
    assert all(routed.rest(room) == bases[home] for room, home in homes.items())  # type: ignore[index]
