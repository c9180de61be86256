"""The short version of ``bench/idle.py``: an idle socket holds no timer of its own (the
node's heartbeat and round-trip pings are one timer each), with fair races or without."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import orjson
import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("fair", ["on", "off"])
def test_an_idle_socket_holds_no_timer_of_its_own(tmp_path: Path, fair: str) -> None:
    out = tmp_path / "idle.json"
    command = [sys.executable, "bench/idle.py", "--sockets", "40", "--fair", fair]
    command += ["--seconds", "0.5", "--json", str(out)]
    subprocess.run(command, cwd=ROOT, check=True, timeout=120, capture_output=True)
    figures = orjson.loads(out.read_text())
    # A room of four has its writer (a task, a timer): a quarter of each per socket.
    # Each socket has its handler and its sender task (and had a pinger task), and no
    # timer (it had two: uvicorn's keepalive and its pinger's); a few tasks of the moment
    # (a delay report on its way) may come on top.
    assert figures["timers_per_socket"] < 0.5
    assert 2.25 <= figures["tasks_per_socket"] < 2.75
