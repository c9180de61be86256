"""The server's hot path, compiled with mypyc when a build of it matches the sources.

``python tools/compile.py`` (``./dev`` runs it whenever the sources changed) compiles the
modules of :data:`MODULES` into ``.compiled/`` beside the packages, with a manifest of
the digests of the sources it compiled. When ``app`` is imported, :func:`install` serves
those modules from there, and only when every digest matches the sources as they are
now: one edited source and the whole set runs as Python until the next build (compiled
modules call each other directly, so the set is compiled all together or not at all).
``UNO_COMPILED=0`` runs everything from source. docs/performance.md says what it buys.

The modules are the same source either way: mypyc compiles the typed Python as written
(``mypy --strict`` holds for it), so no rule, limit or check exists twice.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

# A change's views, parts and deltas (a quarter of a node's CPU per action, and most of
# it Python: docs/performance.md), and the room rules they and the writer read on every
# action. Modules of functions only: a compiled class cannot be subclassed or have
# its methods replaced from Python, which tests and the other stores do to the writer,
# the service, the connection and the Redis store. Not the engine either: it stays
# pure Python, imported on its own by bots and tools.
MODULES = (
    "app.rooms.claims",
    "app.rooms.deltas",
    "app.rooms.diff",
    "app.rooms.doc",
    "app.rooms.timers",
    "app.rooms.views",
)
# mypyc's shared library of the set (its name: the group's, "<GROUP>__mypyc").
GROUP = "uno_hot"
ROOT = Path(__file__).resolve().parent.parent
BUILD_DIR = ROOT / ".compiled"
MANIFEST = "manifest.json"

# How this process runs them: "compiled", or why not ("source: ...").
state = "source: not installed yet"


def source_of(module: str, root: Path = ROOT) -> Path:
    return root.joinpath(*module.split(".")).with_suffix(".py")


def digest(path: Path) -> str:
    return hashlib.blake2b(path.read_bytes(), digest_size=16).hexdigest()


def build_tag() -> str:
    """What a build is only good for: this interpreter's ABI."""
    return f"{sys.implementation.cache_tag}-{sys.platform}"


def check(build_dir: Path = BUILD_DIR, root: Path = ROOT) -> tuple[dict[str, Path], str]:
    """The compiled files to serve (module name: file), and the state that says why
    (empty files: run from source)."""
    try:
        return _check(build_dir, root)
    except FileNotFoundError:
        return {}, "source: not compiled (python tools/compile.py)"
    except (OSError, ValueError, LookupError, TypeError, AttributeError) as err:
        # Whatever a damaged build holds, the server starts, from source.
        return {}, f"source: the build's manifest cannot be read ({err!r})"


def _check(build_dir: Path, root: Path) -> tuple[dict[str, Path], str]:
    manifest = json.loads((build_dir / MANIFEST).read_text())
    if manifest.get("tag") != build_tag():
        return {}, f"source: compiled for {manifest.get('tag')}, not {build_tag()}"
    built: dict[str, list[str]] = manifest.get("modules", {})
    if sorted(built) != sorted(MODULES):
        return {}, "source: the build holds another set of modules"
    files: dict[str, Path] = {}
    for module, (file, sha) in built.items():
        source = source_of(module, root)
        if not source.is_file() or digest(source) != sha:
            return {}, f"source: {source.relative_to(root)} changed since the build"
        files[module] = build_dir / file
    files[f"{GROUP}__mypyc"] = build_dir / manifest["lib"]
    if not all(f.is_file() for f in files.values()):
        return {}, "source: the build is incomplete"
    return files, "compiled"


class _Finder(importlib.abc.MetaPathFinder):
    """Finds the compiled set's modules in the build directory, and nothing else."""

    def __init__(self, files: dict[str, Path]) -> None:
        self.files = files

    def find_spec(
        self, name: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        file = self.files.get(name)
        if file is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(name, str(file))
        return importlib.util.spec_from_file_location(name, file, loader=loader)


def install() -> None:
    """Serve the compiled set, where it matches the sources (see the module's doc)."""
    global state
    if os.environ.get("UNO_COMPILED", "1") == "0":
        state = "source: UNO_COMPILED=0"
        return
    loaded = [m for m in MODULES if m in sys.modules]
    if loaded:
        state = f"source: {loaded[0]} was imported first"
        return
    files, state = check()
    if files:
        sys.meta_path.insert(0, _Finder(files))
