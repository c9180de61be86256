"""The repository stands alone: no doc, code or comment points at anything outside it, and
every file the docs link to exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]
OUTSIDE = re.compile(r"CONTRACT(\.md)?\b|RULES\.md|DESIGN\.md|STYLE\.md|\.\./shared|seeds/")
# Every file of the project's own: its code, tests, benchmarks, clients, scripts and pages.
CODE_DIRS = (
    "app",
    "engine",
    "tests",
    "bench",
    "reliability",
    "clients",
    "scripts",
    "web",
    "tools",
    "migrations",
    "deploy",
    ".ci",
)
CODE_SUFFIXES = {".py", ".js", ".mjs", ".ts", ".html", ".css", ".md", ".json", ".sh", ".yml", ""}
SKIPPED = ("node_modules", "vendor", "__pycache__")
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


def _project_files() -> list[Path]:
    found = [ROOT / name for name in ("dev", "pyproject.toml", "docker-compose.yml", "Dockerfile")]
    for top in CODE_DIRS:
        for path in sorted((ROOT / top).rglob("*")):
            if not path.is_file() or path.suffix not in CODE_SUFFIXES:
                continue
            if any(part in SKIPPED for part in path.relative_to(ROOT).parts):
                continue
            found.append(path)
    return [p for p in found if p.is_file() and p != Path(__file__).resolve()]


def test_the_code_refers_to_nothing_outside_the_repository() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in _project_files()
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
        if OUTSIDE.search(line)
    ]
    assert found == []
