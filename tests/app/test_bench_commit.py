"""The short version of ``bench/commit.py``: the commit path's Redis commands per commit
(a count, not a time), on a Redis of the bench's own."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.redis


def test_a_commit_costs_about_nine_redis_commands(tmp_path: Path) -> None:
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")
    out = tmp_path / "commit.json"
    command = [sys.executable, "bench/commit.py", "--rooms", "3", "--commits", "40"]
    subprocess.run(command + ["--json", str(out)], cwd=ROOT, check=True, timeout=120)
    figures = orjson.loads(out.read_text())
    # EVALSHA, GET lease, HMGET, XRANGE, TIME, HSET, 2 RPUSH, PUBLISH; now and then a
    # lease PEXPIRE or an LTRIM of the history (TTLs are not due within the run).
    assert 9 <= figures["commit"]["commands"] <= 10
    assert figures["reference"]["commands"] == 4
    assert figures["arguments"]["commands"] == 1
    assert figures["commit"]["redis_cpu_us"] > 0
