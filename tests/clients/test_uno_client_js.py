"""The JavaScript client's own tests (``clients/js/test``, node's test runner against a real
server of this checkout), one pytest test per test file, so that the suite's workers run
them beside the Python tests instead of before them. ``./dev test`` installs the package's
dev dependencies first (``npm ci``)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "clients" / "js"
FILES = sorted(p.name for p in (PACKAGE / "test").glob("*.test.js"))


def test_every_test_file_of_the_package_is_run_here() -> None:
    assert FILES, "clients/js/test holds no *.test.js"
    assert "test/*.test.js" in (PACKAGE / "package.json").read_text()


@pytest.mark.parametrize("name", FILES)
def test_uno_client_js(name: str) -> None:
    node = shutil.which("node")
    if node is None or not (PACKAGE / "node_modules").is_dir():
        if os.environ.get("CI", "").lower() in {"1", "true", "yes"}:
            pytest.fail("CI=true but node or clients/js/node_modules is missing (./dev test-js)")
        pytest.skip("node or clients/js/node_modules is missing (./dev test-js installs them)")
    env = {**os.environ, "UNO_PYTHON": sys.executable}
    done = subprocess.run(
        [node, "--test", "--test-reporter=tap", f"test/{name}"],
        cwd=PACKAGE,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    output = f"{done.stdout[-6000:]}\n{done.stderr[-3000:]}"
    assert done.returncode == 0, f"node --test test/{name}:\n{output}"
