"""The app's layers import downwards only: api and ws above rooms above store and db, the
socket messages' shapes (wire) below rooms, and engine below them all
(docs/architecture.md)."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

from app import compiled

APP = Path(__file__).resolve().parents[2] / "app"

# Each package of app/, and the app parts it must not import. api and ws are the top
# (api may read ws's protocol constants, never the other way round); the dependency aliases
# (app.deps) and the app's assembly (app.main) sit above both.
TOP = ("app.main", "app.__main__")
BELOW = {
    "api": TOP,
    "ws": ("app.api", *TOP),
    "tournaments": ("app.api", "app.ws", "app.deps", "app.quickplay", *TOP),
    "quickplay": ("app.api", "app.ws", "app.deps", "app.tournaments", *TOP),
    "rooms": ("app.api", "app.ws", "app.tournaments", "app.quickplay", "app.deps", *TOP),
    "wire": (
        "app.api",
        "app.ws",
        "app.rooms",
        "app.store",
        "app.db",
        "app.tournaments",
        "app.deps",
        *TOP,
    ),
    "store": ("app.api", "app.ws", "app.rooms", "app.db", "app.tournaments", "app.deps", *TOP),
    "db": ("app.api", "app.ws", "app.rooms", "app.store", "app.tournaments", "app.deps", *TOP),
    "accounts": (
        "app.api",
        "app.ws",
        "app.rooms",
        "app.store",
        "app.db",
        "app.tournaments",
        "app.deps",
        *TOP,
    ),
}


def _imports(path: Path) -> set[str]:
    # Every import, a function's own included: an import moved into a function still ties
    # the two modules together.
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
    # app/deps.py names each dependency once; a route reading app.state itself
    # would be a second way to reach it.
    readers = [
        str(path.relative_to(APP.parent))
        for path in sorted((APP / "api").glob("*.py"))
        if "app.state" in path.read_text(encoding="utf-8")
    ]
    assert readers == []


def test_every_package_of_the_app_has_its_layer() -> None:
    packages = sorted(p.name for p in APP.iterdir() if (p / "__init__.py").is_file())
    assert [p for p in packages if p not in BELOW] == []


def _part(module: str) -> str | None:
    """The app part a module belongs to: its package, or the top-level module itself."""
    if module != "app" and not module.startswith("app."):
        return None
    parts = module.split(".")
    return ".".join(parts[:2]) if len(parts) > 1 else None


def test_no_two_parts_of_the_app_import_each_other() -> None:
    edges: dict[str, set[str]] = {}
    for path in sorted(APP.rglob("*.py")):
        rel = path.relative_to(APP.parent).with_suffix("")
        source = _part(".".join(rel.parts))
        if source is None:
            continue
        for name in _imports(path):
            target = _part(name)
            if target is not None and target != source:
                edges.setdefault(source, set()).add(target)

    def reaches(start: str, goal: str) -> bool:
        seen, todo = set(), [start]
        while todo:
            here = todo.pop()
            if here == goal:
                return True
            if here not in seen:
                seen.add(here)
                todo.extend(edges.get(here, ()))
        return False

    circles = sorted(f"{a} <-> {b}" for a in edges for b in edges[a] if a < b and reaches(b, a))
    assert circles == []


def _modules(top: Path) -> dict[str, Path]:
    """Every module under ``top`` by its dotted name (a package by its ``__init__``)."""
    found = {}
    for path in top.rglob("*.py"):
        parts = path.relative_to(top.parent).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _module_edges(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Which of ``modules`` each one imports: ``from a.b import c`` names the module
    ``a.b.c`` where there is one, ``a.b`` otherwise; TYPE_CHECKING imports count."""
    edges: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets = edges.setdefault(name, set())
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets.update(a.name for a in node.names if a.name in modules)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:
                    inner = f"{node.module}.{alias.name}"
                    if inner in modules:
                        targets.add(inner)
                    elif node.module in modules:
                        targets.add(node.module)
        targets.discard(name)
    return edges


def _circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The import circles: each strongly connected group of more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(here: str) -> None:
        index[here] = low[here] = len(index)
        stack.append(here)
        for there in sorted(edges[here]):
            if there not in index:
                visit(there)
                low[here] = min(low[here], low[there])
            elif there in stack:
                low[here] = min(low[here], index[there])
        if low[here] == index[here]:
            group = []
            while not group or group[-1] != here:
                group.append(stack.pop())
            if len(group) > 1:
                found.append(sorted(group))

    for name in sorted(edges):
        if name not in index:
            visit(name)
    return sorted(found)


# The engine's rules and their clash checks still import each other (the one known circle,
# type-only on one side); it goes when the clash checks take what they need of the rules.
KNOWN_CIRCLES = [["engine.clashes", "engine.rules"]]


@pytest.mark.parametrize("top", ["app", "engine"])
def test_no_two_modules_import_each_other(top: str) -> None:
    # Modules inside one package too, and an import made only for type checking: a circle
    # of types is still two modules that cannot be read (or moved) one without the other.
    circles = _circles(_module_edges(_modules(APP.parent / top)))
    assert [c for c in circles if c not in KNOWN_CIRCLES] == []


def test_the_room_machine_loads_no_outside_package() -> None:
    # The machine is the writer's pure part: loading it loads the standard library, the
    # engine and app modules of its own kind, never SQLAlchemy, Redis or FastAPI.
    probe = (
        "import sys, app.rooms.machine; "
        "print(' '.join(sorted({m.split('.')[0] for m in sys.modules if m[0] != '_'}"
        " - set(sys.stdlib_module_names))))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", probe], cwd=APP.parent, capture_output=True, text=True, check=True
    ).stdout.split()
    # The compiled hot path's shared library (app.compiled) is app code of its own kind.
    assert [m for m in loaded if m != f"{compiled.GROUP}__mypyc"] == ["app", "engine"]


def _builds_a_refusal(handler: ast.ExceptHandler) -> bool:
    return any(
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "RoomError"
        for node in ast.walk(handler)
    )


def test_only_app_errors_turns_an_engine_error_into_a_refusal() -> None:
    # RoomError.from_engine is the one conversion (the engine's code kept, the status the
    # caller's): a RoomError built by hand in an ``except EngineError`` is a second one.
    found = [
        f"{path.relative_to(APP.parent)}:{node.lineno}"
        for path in sorted(APP.rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ExceptHandler)
        and node.type is not None
        and ast.unparse(node.type).endswith("EngineError")
        and _builds_a_refusal(node)
    ]
    assert found == []


def test_names_is_a_leaf_module() -> None:
    # app.names is read by rooms, tournaments and accounts alike: it imports no layer.
    imported = _imports(APP / "names.py") | _imports(APP / "confusables.py")
    assert sorted(n for n in imported if n.startswith("app.") and n != "app.confusables") == []


LONG = 800  # lines: past this a module holds more than one idea; split it


def test_no_hand_written_module_is_long() -> None:
    long = [
        str(path.relative_to(APP.parent))
        for path in sorted(APP.rglob("*.py"))
        if (text := path.read_text(encoding="utf-8")).count("\n") > LONG
        and "generated" not in (ast.get_docstring(ast.parse(text)) or "")
    ]
    assert long == []
