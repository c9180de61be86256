"""The engine stays pure: standard library only, no clock, no asyncio, no global random
state, and nothing from app/ (the arrow points one way)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "engine"
MODULES = sorted(ENGINE.rglob("*.py"))
FORBIDDEN = {"asyncio", "time", "datetime", "os", "socket", "secrets", "threading", "app"}
# Only the command-line runners read files and standard streams.
RUNNERS = {"scenario.py", "scoresheet.py", "verify.py"}


def imported_roots(tree: ast.AST) -> set[str]:
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ENGINE)))
def test_engine_modules_import_only_the_standard_library_and_the_engine(path: Path) -> None:
    roots = imported_roots(ast.parse(path.read_text()))
    outside = {r for r in roots if r != "engine" and r not in sys.stdlib_module_names}
    assert outside == set()
    assert roots & FORBIDDEN == set()
    if path.name not in RUNNERS:
        assert "sys" not in roots and "json" not in roots


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ENGINE)))
def test_engine_randomness_comes_only_from_seeded_generators(path: Path) -> None:
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if node.value.id == "random":
                assert node.attr == "Random", f"random.{node.attr} uses global random state"
        if isinstance(node, ast.ImportFrom) and node.module == "random":
            assert [a.name for a in node.names] == ["Random"]
