"""The short version of ``bench/engine.py``: every workload runs to its report (a match to
500 deals on to its end), and with RLCard installed both ratio lines follow."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_engine_bench_reports_every_workload() -> None:
    done = subprocess.run(
        [sys.executable, "bench/engine.py", "--seconds", "0.05", "--rounds", "3"],
        cwd=ROOT,
        check=True,
        timeout=120,
        capture_output=True,
        text=True,
    )
    lines = done.stdout.splitlines()
    for name in ("ours (one deal, classic)", "ours (match to 500)", "ours (any legal action)"):
        assert any(line.startswith(name) and "games/s" in line for line in lines), done.stdout
    if importlib.util.find_spec("rlcard") is not None:
        ratios = [line for line in lines if line.startswith("ratio ours / rlcard")]
        assert len(ratios) == 2 and all("median of 3 rounds" in r for r in ratios), done.stdout
