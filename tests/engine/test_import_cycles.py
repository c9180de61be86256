"""The engine's modules import one another without a cycle, read from their source.

Every import counts, a function's own included (an import moved into a function hides a
cycle without cutting it) and one for type checking alone (``if TYPE_CHECKING:``): it
never runs, but the two modules still lean on each other.
"""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"


def _module_name(path: Path) -> str:
    parts = path.relative_to(ENGINE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(tree: ast.Module, known: set[str]) -> set[str]:
    """The engine modules ``tree`` imports (``from engine import x`` names engine.x when
    x is a module of its own)."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name in known}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            subs = {f"{node.module}.{alias.name}" for alias in node.names} & known
            if subs:
                found |= subs
            elif node.module in known:
                found.add(node.module)
    return found


def import_graph() -> dict[str, set[str]]:
    paths = {_module_name(p): p for p in ENGINE.rglob("*.py")}
    known = set(paths)
    return {
        name: _imports(ast.parse(path.read_text(encoding="utf-8")), known)
        for name, path in paths.items()
    }


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module, and modules importing
    themselves (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            step = next(edges, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(graph[step]))))
                elif step in on_stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1 or node in graph[node]:
                    found.append(sorted(group))
    return found


def test_the_engine_modules_import_one_another_without_a_cycle() -> None:
    graph = import_graph()
    assert len(graph) > 40
    assert cycles(graph) == []


def test_the_cycle_finder_sees_a_cycle_closed_in_a_function_or_for_type_checking() -> None:
    source = "from engine.b import x\n"
    inner = "def f():\n    from engine.a import y\n"
    hidden = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from engine.a import z\n"
    known = {"engine.a", "engine.b"}
    a = _imports(ast.parse(source), known)
    for b in (inner, hidden):
        assert cycles({"engine.a": a, "engine.b": _imports(ast.parse(b), known)}) == [
            ["engine.a", "engine.b"]
        ]
