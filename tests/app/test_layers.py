"""The app's layers import downwards only: api and ws above rooms above store and db, the
socket messages' shapes (wire) below rooms, and engine below them all
(docs/architecture.md)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

APP = Path(__file__).resolve().parents[2] / "app"

# Each package, and the app packages it must not import.
BELOW = {
    "accounts": ("app.api", "app.ws", "app.rooms", "app.store", "app.db", "app.tournaments"),
    "rooms": ("app.api", "app.ws", "app.tournaments"),
    "wire": ("app.api", "app.ws", "app.rooms", "app.store", "app.db", "app.tournaments"),
    "store": ("app.api", "app.ws", "app.rooms", "app.db", "app.tournaments"),
    "db": ("app.api", "app.ws", "app.rooms", "app.store", "app.tournaments"),
}


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


@pytest.mark.parametrize("package", sorted(BELOW))
def test_a_layer_imports_nothing_above_it(package: str) -> None:
    wrong = [
        f"{path.relative_to(APP.parent)} imports {name}"
        for path in sorted((APP / package).rglob("*.py"))
        for name in sorted(_imports(path))
        if any(name == up or name.startswith(up + ".") for up in BELOW[package])
    ]
    assert wrong == []


def test_every_app_file_the_architecture_names_exists() -> None:
    # "Where is X" points at one file each: a file renamed or split must take it along.
    text = (APP.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`(app/[\w/]+\.py)`", text))
    assert named and sorted(p for p in named if not (APP.parent / p).is_file()) == []


def test_routes_take_their_dependencies_from_deps() -> None:
    # app/api/deps.py names each dependency once; a route reading app.state itself
    # would be a second way to reach it.
    readers = [
        str(path.relative_to(APP.parent))
        for path in sorted((APP / "api").glob("*.py"))
        if path.name != "deps.py" and "app.state" in path.read_text(encoding="utf-8")
    ]
    assert readers == []
