"""The short version of ``bench/races.py``: every kind and mode runs and reports figures."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parents[2]


def test_the_races_bench_runs_every_kind_and_mode(tmp_path: Path) -> None:
    out = tmp_path / "races.json"
    subprocess.run(
        [sys.executable, "bench/races.py", "--races", "2", "--parallel", "4", "--json", str(out)],
        cwd=ROOT,
        check=True,
        timeout=120,
        capture_output=True,
    )
    figures = orjson.loads(out.read_text())
    rows = {(r["kind"], r["mode"]): r for r in figures["results"]}
    assert set(rows) == {
        (k, m) for k in ("jump-in", "call-catch") for m in ("off", "on", "slow-pong", "slow-frames")
    }
    for row in rows.values():
        assert row["races"] == 2 and row["failures"] == 0, row
    # A window holds every claim on the position: the race event reports how long.
    assert rows["jump-in", "on"]["window_max"] > 0
    assert rows["jump-in", "off"]["window_max"] == 0
