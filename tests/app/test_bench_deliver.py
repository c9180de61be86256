"""The short version of ``bench/deliver.py``: a change's delivery measured against another
checkout of the app runs through, every frame written straight (none queued), spectators
too."""

from __future__ import annotations

import subprocess
import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_delivery_bench_runs_against_another_checkout(tmp_path: Path) -> None:
    # "Another" checkout: this one's app, copied, as ``git archive <commit> app`` gives it.
    with tarfile.open(tmp_path / "app.tar", "w") as archive:
        archive.add(ROOT / "app", arcname="app")
    with tarfile.open(tmp_path / "app.tar") as archive:
        archive.extractall(tmp_path / "other", filter="data")
    command = [sys.executable, "bench/deliver.py", "--against", str(tmp_path / "other")]
    command += ["--rounds", "2", "--changes", "12", "--spectators", "2"]
    done = subprocess.run(command, cwd=ROOT, check=True, timeout=120, capture_output=True)
    out = done.stdout.decode()
    assert "6 sockets; 12 changes" in out
    assert "now/before:" in out
    assert "us of metrics per commit" in out
