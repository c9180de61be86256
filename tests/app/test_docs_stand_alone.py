"""The documentation stands alone: it points at nothing outside the repository, and every
file it links to exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]
OUTSIDE = re.compile(r"CONTRACT(\.md)?\b|RULES\.md|DESIGN\.md|STYLE\.md|\.\./shared|seeds/")
LINK = re.compile(r"\]\(([^)#\s]+)(#[^)]*)?\)")


def test_the_docs_refer_to_nothing_outside_the_repository() -> None:
    found = [
        f"{doc.relative_to(ROOT)}:{n}: {line.strip()}"
        for doc in DOCS
        for n, line in enumerate(doc.read_text().splitlines(), 1)
        if OUTSIDE.search(line)
    ]
    assert found == []


def test_every_relative_link_in_the_docs_exists() -> None:
    missing = []
    for doc in DOCS:
        for target, _ in LINK.findall(doc.read_text()):
            if "://" in target or target.startswith("mailto:"):
                continue
            if not (doc.parent / target).exists():
                missing.append(f"{doc.relative_to(ROOT)} -> {target}")
    assert missing == []
