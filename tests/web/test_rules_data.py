"""web/js/rules-data.js is the rules editor's copy of the engine's options and presets."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_generated_rules_data_matches_the_engine():
    result = subprocess.run(
        [sys.executable, "scripts/gen_rules_js.py", "--check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
