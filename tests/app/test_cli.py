"""``python -m app`` (README.md, docs/deploy.md): options, environment, a real process."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from app.__main__ import parse_args, settings_from

ROOT = Path(__file__).resolve().parents[2]


def test_defaults_are_localhost_8000_memory_store_and_a_local_sqlite(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("UNO_REDIS_URL", raising=False)
    monkeypatch.delenv("UNO_DATABASE_URL", raising=False)
    settings = settings_from(parse_args([]))
    assert (settings.host, settings.port) == ("127.0.0.1", 8000)
    assert settings.redis_url is None
    assert settings.database_url == "sqlite+aiosqlite:///./uno.db"


def test_the_environment_names_redis_and_the_database(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("UNO_REDIS_URL", "redis://example:6379/1")
    monkeypatch.setenv("UNO_DATABASE_URL", "postgresql+asyncpg://u@h/db")
    settings = settings_from(parse_args([]))
    assert settings.redis_url == "redis://example:6379/1"
    assert settings.database_url == "postgresql+asyncpg://u@h/db"


def test_options_beat_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("UNO_REDIS_URL", "redis://example:6379/1")
    args = parse_args(["--host", "0.0.0.0", "--port", "9", "--redis", "redis://r/2"])
    settings = settings_from(args)
    assert (settings.host, settings.port, settings.redis_url) == ("0.0.0.0", 9, "redis://r/2")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_python_m_app_serves_health_and_the_client_then_stops_on_sigterm(tmp_path: Path) -> None:
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("UNO_")}
    process = subprocess.Popen(
        [sys.executable, "-m", "app", "--port", str(port)],
        cwd=tmp_path,
        env={**env, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                health = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1)
                break
            except httpx.HTTPError:
                assert time.monotonic() < deadline, "the server did not come up"
                assert process.poll() is None, "the server exited"
                time.sleep(0.1)
        assert health.status_code == 200
        assert (tmp_path / "uno.db").exists()  # the embedded SQLite, in the working dir
        page = httpx.get(f"http://127.0.0.1:{port}/", timeout=5)
        if (ROOT / "web" / "index.html").exists():
            assert page.status_code == 200 and "text/html" in page.headers["content-type"]
            # The import map's modules (uno-client and its dependency) are served too,
            # from the repository: the browser client needs no npm install.
            found = re.search(r'<script type="importmap">(.*?)</script>', page.text, re.S)
            assert found is not None
            imports = json.loads(found.group(1))["imports"]
            assert set(imports) == {"uno-client", "fast-json-patch"}
            for url in imports.values():
                module = httpx.get(f"http://127.0.0.1:{port}/{url.removeprefix('./')}", timeout=5)
                assert module.status_code == 200, url
                assert "javascript" in module.headers["content-type"], url
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)


def test_allowed_origins_come_from_a_json_list(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("UNO_ALLOWED_ORIGINS", '["https://uno.example"]')
    monkeypatch.setenv("UNO_RATE_PER_SECOND", "5")
    settings = settings_from(parse_args([]))
    assert settings.allowed_origins == ["https://uno.example"]
    assert settings.rate_per_second == 5.0
