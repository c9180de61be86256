"""The short version of ``bench/spectators.py``: spectators cost a frame each, not a
frame per socket each."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parents[2]


def test_the_spectators_bench_counts_one_frame_per_spectator(tmp_path: Path) -> None:
    out = tmp_path / "spectators.json"
    command = [sys.executable, "bench/spectators.py", "--spectators", "30"]
    command += ["--targets", "reference,memory", "--json", str(out)]
    subprocess.run(command, cwd=ROOT, check=True, timeout=120, capture_output=True)
    figures = orjson.loads(out.read_text())
    memory = figures["memory"]
    # 30 snapshots, and at most one refresh of the count to each socket open then
    # (per 5 s): far below the 30 * 31 / 2 patches of a change per connect.
    assert 30 <= memory["connect_frames"] <= 30 + 32
    assert memory["leave_frames"] <= 2 + 30
    assert memory["spectators_current"] == 30
    assert memory["action_frames"] == 2 + 30 + 1  # a patch to every socket, and the ack
    assert figures["reference"]["connect_cpu"] >= 0
