"""Another revision's code beside this checkout's, in one process: the benches that time
the old code and the new alternating on the same inputs load the old one from here.

Two ways: a whole other checkout's ``app`` package (:func:`app_of`), or single modules
as a git revision holds them, the rest of the code being this checkout's
(:func:`modules_at`)."""

from __future__ import annotations

import importlib
import subprocess
import sys
import types
from collections.abc import Mapping, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def app_of(checkout: Path, *names: str) -> list[types.ModuleType]:
    """The modules ``names`` (``app.…``) of the ``app`` package at ``checkout``, imported
    apart from this checkout's: each side keeps its own modules."""

    def of_app() -> list[str]:
        return [name for name in sys.modules if name == "app" or name.startswith("app.")]

    others = {name: sys.modules.pop(name) for name in of_app()}
    sys.path.insert(0, str(checkout))
    try:
        return [importlib.import_module(name) for name in names]
    finally:
        sys.path.remove(str(checkout))
        for name in of_app():
            del sys.modules[name]
        sys.modules.update(others)


def source_at(revision: str, path: str) -> str:
    """The text of ``path`` (from the repository's root) at git ``revision``."""
    show = ["git", "show", f"{revision}:{path}"]
    return subprocess.run(show, cwd=ROOT, check=True, capture_output=True, text=True).stdout


def module_at(name: str, revision: str) -> types.ModuleType:
    """Module ``name`` as ``revision`` holds it, run on its own (its imports are this
    checkout's modules)."""
    module = types.ModuleType(name)
    path = name.replace(".", "/") + ".py"
    module.__file__ = f"{revision}:{path}"
    exec(compile(source_at(revision, path), module.__file__, "exec"), module.__dict__)
    return module


def modules_at(
    revision: str,
    names: Sequence[str],
    instead: Mapping[str, types.ModuleType] | None = None,
) -> dict[str, types.ModuleType]:
    """The modules ``names`` as ``revision`` holds them, each importing the ones before it
    in ``names`` as of ``revision`` too (list them in that order), the modules ``instead``
    maps as given, and everything else as this checkout has it."""
    swapped = [*names, *(instead or {})]
    saved = {name: sys.modules[name] for name in swapped if name in sys.modules}
    # ``from package import module`` reads the package's attribute, not sys.modules.
    packages = {name: sys.modules.get(name.rpartition(".")[0]) for name in swapped}
    attributes = {
        name: getattr(package, name.rpartition(".")[2], None)
        for name, package in packages.items()
        if package is not None
    }
    loaded: dict[str, types.ModuleType] = {}

    def place(name: str, module: types.ModuleType) -> None:
        sys.modules[name] = module
        package = packages[name]
        if package is not None:
            setattr(package, name.rpartition(".")[2], module)

    try:
        for name, module in (instead or {}).items():
            place(name, module)
        for name in names:
            # Placed before it runs: the next ones' imports pick it up.
            module = types.ModuleType(name)
            place(name, module)
            path = name.replace(".", "/") + ".py"
            module.__file__ = f"{revision}:{path}"
            exec(compile(source_at(revision, path), module.__file__, "exec"), module.__dict__)
            loaded[name] = module
    finally:
        for name in swapped:
            if name in saved:
                sys.modules[name] = saved[name]
            else:
                sys.modules.pop(name, None)
        for name, value in attributes.items():
            package, attribute = packages[name], name.rpartition(".")[2]
            if value is not None:
                setattr(package, attribute, value)
            elif hasattr(package, attribute):
                delattr(package, attribute)
    return loaded
