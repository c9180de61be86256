"""The attacks of ``reliability/`` in short versions: a few kills, a few thousand frames.

Each starts its own redis-server on a free port (never the shared one) and server
processes; without redis-server these tests skip, except in CI, where they fail.
"""

from __future__ import annotations

import os
import shutil

import pytest


@pytest.fixture(autouse=True)
def _redis_server() -> None:
    if shutil.which("redis-server") is None:
        if os.environ.get("CI", "").lower() in {"1", "true", "yes"}:
            pytest.fail("CI=true but redis-server is not installed")
        pytest.skip("redis-server is not installed")
