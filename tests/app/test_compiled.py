"""The compiled hot path (app.compiled): served only while its build matches the
sources, all together or not at all, and the same answers as the source."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from app import compiled

ROOT = Path(__file__).resolve().parents[2]


def _fake_build(tmp_path: Path) -> tuple[Path, Path]:
    """A source tree with the set's sources and a build of them (empty files standing in
    for the libraries: ``check`` reads digests and names, never the code)."""
    root, build = tmp_path / "src", tmp_path / "build"
    modules = {}
    for module in compiled.MODULES:
        source = compiled.source_of(module, root)
        source.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(compiled.source_of(module), source)
        file = module.replace(".", "/") + ".so"
        (build / file).parent.mkdir(parents=True, exist_ok=True)
        (build / file).touch()
        modules[module] = [file, compiled.digest(source)]
    lib = f"{compiled.GROUP}__mypyc.so"
    (build / lib).touch()
    manifest = {"tag": compiled.build_tag(), "lib": lib, "modules": modules}
    (build / compiled.MANIFEST).write_text(json.dumps(manifest))
    return root, build


def test_a_build_matching_every_source_is_served(tmp_path: Path) -> None:
    root, build = _fake_build(tmp_path)
    files, state = compiled.check(build, root)
    assert state == "compiled"
    assert set(files) == {*compiled.MODULES, f"{compiled.GROUP}__mypyc"}


def test_one_edited_source_sends_the_whole_set_back_to_source(tmp_path: Path) -> None:
    root, build = _fake_build(tmp_path)
    edited = compiled.source_of(compiled.MODULES[-1], root)
    edited.write_text(edited.read_text() + "\n# edited\n")
    files, state = compiled.check(build, root)
    assert files == {}
    assert state == f"source: {edited.relative_to(root)} changed since the build"


def test_a_build_for_another_interpreter_or_set_is_not_served(tmp_path: Path) -> None:
    root, build = _fake_build(tmp_path)
    manifest = json.loads((build / compiled.MANIFEST).read_text())
    (build / compiled.MANIFEST).write_text(json.dumps({**manifest, "tag": "cpython-39-x"}))
    assert compiled.check(build, root)[0] == {}
    manifest["modules"].popitem()
    (build / compiled.MANIFEST).write_text(json.dumps(manifest))
    assert compiled.check(build, root) == ({}, "source: the build holds another set of modules")


def test_no_build_or_a_half_written_one_runs_from_source(tmp_path: Path) -> None:
    root, build = _fake_build(tmp_path)
    (build / f"{compiled.GROUP}__mypyc.so").unlink()
    assert compiled.check(build, root) == ({}, "source: the build is incomplete")
    (build / compiled.MANIFEST).unlink()
    assert compiled.check(build, root)[0] == {}


def test_a_damaged_manifest_runs_from_source_and_says_so(tmp_path: Path) -> None:
    root, build = _fake_build(tmp_path)
    manifest = json.loads((build / compiled.MANIFEST).read_text())
    for damaged in ("{", json.dumps({**manifest, "lib": None}), json.dumps([1])):
        (build / compiled.MANIFEST).write_text(damaged)
        files, state = compiled.check(build, root)
        assert files == {} and state.startswith("source: the build's manifest cannot be read")


def _where(env: dict[str, str]) -> tuple[str, str]:
    probe = "import app, app.compiled as c, app.rooms.views as v; print(c.state); print(v.__file__)"
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    state, file = done.stdout.splitlines()
    return state, file


def test_the_server_runs_the_set_compiled_when_built_and_from_source_when_asked() -> None:
    if not compiled.check()[0]:
        pytest.skip(f"no current build here ({compiled.check()[1]}): ./dev test builds one")
    state, file = _where(dict(os.environ))
    assert state == "compiled" and file.startswith(str(compiled.BUILD_DIR))
    state, file = _where({**os.environ, "UNO_COMPILED": "0"})
    assert state == "source: UNO_COMPILED=0" and file.endswith("views.py")


def test_the_compiled_deltas_are_the_sources_byte_for_byte(tmp_path: Path) -> None:
    # The same recorded games through the set compiled and from source: every audience's
    # messages of every change, as published.
    if not compiled.check()[0]:
        pytest.skip(f"no current build here ({compiled.check()[1]}): ./dev test builds one")
    script = ROOT / "tests" / "app" / "compiled_probe.py"
    outputs = [
        subprocess.run(
            [sys.executable, str(script), str(tmp_path / "games")],
            cwd=ROOT,
            env={**os.environ, "UNO_COMPILED": flag},
            capture_output=True,
            check=True,
        ).stdout
        for flag in ("0", "1")
    ]
    assert outputs[0] == outputs[1] and len(outputs[0]) > 10_000
