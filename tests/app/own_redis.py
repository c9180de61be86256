"""A Redis server of the test's own, on a free port, for what the shared one must not be
used for: other persistence or memory settings, being filled up, stopped or killed."""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from live import in_ci


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def own_redis(directory: Path, *options: str) -> Iterator[str]:
    """``redis-server`` with ``options`` (default: nothing on disk), working in
    ``directory``; yields its URL and stops it at the end."""
    binary = shutil.which("redis-server")
    if binary is None:
        if in_ci():
            pytest.fail("CI=true but redis-server is not installed")
        pytest.skip("redis-server is not installed")
    port = free_port()
    directory.mkdir(parents=True, exist_ok=True)
    defaults = ("--save", "", "--appendonly", "no") if not options else ()
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(directory)]
        + list(defaults + options),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    client = redis.Redis(port=port)
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                assert process.poll() is None, "redis-server exited"
                assert time.monotonic() < deadline, "redis-server did not come up"
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        client.close()
        process.terminate()
        process.wait(timeout=10)
