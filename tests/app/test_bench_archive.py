"""The short version of ``bench/archive.py``: real deals stored one per transaction and in
batches, both ways landing in SQL (the figures are CPU times: printed, not checked)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parents[2]


def test_the_archive_bench_stores_real_deals_both_ways(tmp_path: Path) -> None:
    out = tmp_path / "archive.json"
    command = [sys.executable, "bench/archive.py", "--deals", "12", "--batch", "5"]
    command += ["--rounds", "1", "--json", str(out)]
    subprocess.run(command, cwd=ROOT, check=True, timeout=300)
    figures = orjson.loads(out.read_text())
    assert set(figures["us_per_deal"]) == {"one_at_a_time", "batched"}
    assert all(us > 0 for us in figures["us_per_deal"].values())
