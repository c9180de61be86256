"""docs/engine-api.md's "where is the rule for X" points at files that exist."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_engine_file_the_rule_table_names_exists() -> None:
    # One file per rule: a module renamed or split must take the table along.
    text = (ROOT / "docs" / "engine-api.md").read_text(encoding="utf-8")
    table = text.split("## Where is the rule for X", 1)[1].split("\n## ", 1)[0]
    named = set(re.findall(r"`(engine/[\w/]+\.py)`", table))
    assert len(named) > 10
    assert sorted(p for p in named if not (ROOT / p).is_file()) == []
