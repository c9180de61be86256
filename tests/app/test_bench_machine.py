"""The short version of ``bench/machine.py``: recorded games replayed through the room
machine as of now and as of a revision (this one), to the ratio line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_machine_bench_reports_both_sides_and_their_ratio() -> None:
    args = ["--games", "1", "--rounds", "1", "--passes", "1", "--against", "HEAD"]
    done = subprocess.run(
        [sys.executable, "bench/machine.py", *args, "--every-kind", "--turn-seconds", "30"],
        cwd=ROOT,
        check=True,
        timeout=120,
        capture_output=True,
        text=True,
    )
    lines = done.stdout.splitlines()
    for side in ("now:", "at HEAD:", "now, engine live:", "at HEAD, engine live:"):
        assert any(line.startswith(side) and "us per action" in line for line in lines), lines
    assert any(line.startswith("at HEAD / now:") for line in lines), done.stdout
    assert lines[-1].startswith("load average:"), done.stdout
