"""Fixtures for the browser tests: the real server on a free port, and Debian's Chromium.

The server is started exactly as users start it (``python -m app``), with the in-process
room store and a throwaway SQLite database, so these tests exercise the same static files,
REST routes and sockets a player's browser does. Playwright cannot download its own
browser here, so it drives the system Chromium through ``executable_path``.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parents[2]

# Assertions wait as long as actions do: on a busy 2-core machine a render can take more
# than Playwright's default 5 s for `expect`.
expect.set_options(timeout=10_000)
ARTIFACTS = ROOT / "test-artifacts" / "web"
CHROMIUM = os.environ.get("UNO_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_healthy(url: str, proc: subprocess.Popen[bytes], log: Path) -> None:
    # A loaded machine (the suite runs on several workers) can take long to start one.
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited early:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=1) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"the server did not become healthy:\n{log.read_text()[-3000:]}")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Keep the browser tests together on workers of their own under pytest-xdist (``--dist
    loadgroup``): Playwright's sync API runs an event loop of its own while the browser is
    open, and an asyncio test on the same worker in that time could not start its loop."""
    here = Path(__file__).parent
    for item in items:
        if here in item.path.parents:
            # Three groups of about equal length, each on a worker of its own.
            group = _GROUPS.get(item.name, _GROUPS.get(item.path.name, "browser-c"))
            item.add_marker(pytest.mark.xdist_group(group))


# Each module's group (or a single long test's, by its name), so that the three take
# about as long: about 100 s each by the sums of the tests' --durations (two runs of
# tests/web in one process, averaged; a deal played through the page lasts as long as
# its shuffle makes it). A module not named here joins browser-c.
# test_table_flow's lobby must still fit its games to watch on one screen: the modules
# before it in its group leave few games running on the group's server.
_GROUPS = {
    "test_play.py": "browser-a",
    "test_two_players_play_a_deal_to_the_end": "browser-c",
    "test_accessibility.py": "browser-a",
    "test_tournament_pages.py": "browser-a",
    "test_tournament_table_pages.py": "browser-a",
    "test_resilience.py": "browser-a",
    "test_accounts_pages.py": "browser-a",
    "test_table_talk.py": "browser-a",
    "test_table_flow.py": "browser-b",
    "test_layout.py": "browser-b",
    "test_tables_in_browser.py": "browser-b",
    "test_party_games.py": "browser-b",
    "test_table.py": "browser-c",
    "test_components.py": "browser-c",
    "test_returning_table.py": "browser-c",
    "test_account_seats.py": "browser-c",
    "test_replay_page.py": "browser-b",
}


# Package scope: the browser and its server close as soon as the worker leaves tests/web.
@pytest.fixture(scope="package")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Base URL of a real server (memory store, temporary SQLite database)."""
    tmp = tmp_path_factory.mktemp("web-server")
    port = _free_port()
    log = tmp / "server.log"
    env = {k: v for k, v in os.environ.items() if k not in ("UNO_REDIS_URL", "UNO_DATABASE_URL")}
    # Bots pause briefly, as people would, but not for long: tests play whole deals.
    env.setdefault("UNO_BOT_DELAY_MS", "150")
    # Every test's rooms come from this one address, and many stay open lobbies.
    env.setdefault("UNO_MAX_OPEN_LOBBIES_PER_ADDRESS", "100000")
    env.setdefault("UNO_MAX_SPECTATORS_PER_ADDRESS", "100000")
    # ...and every account: no sign-up limit.
    env.setdefault("UNO_SIGN_UP_RATE", "")
    # Quick play fills a lone guest's table with bots after 6 s, not 20: the test that
    # waits for it still sees the wait, and cancels well before.
    env.setdefault("UNO_QUICKPLAY_FILL_SECONDS", "6")
    cmd = [sys.executable, "-m", "app", "--port", str(port)]
    cmd += ["--database", f"sqlite+aiosqlite:///{tmp}/t.db", "--log-level", "warning"]
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(url, proc, log)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture(scope="package")
def browser() -> Iterator[object]:
    """One headless Chromium for the whole session; each test opens its own contexts."""
    if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
        if os.environ.get("CI"):
            pytest.fail(f"Chromium is missing at {CHROMIUM}: apt-get install -y chromium")
        pytest.skip(f"Chromium is missing at {CHROMIUM} (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def new_page(browser: object, server_url: str) -> Iterator[Callable[..., object]]:
    """Open a page in a fresh browser context (its own localStorage: its own player).

    Console errors and failed requests to anything but the server are collected and
    make the test fail, so the client never quietly breaks or phones out.
    """
    contexts = []
    problems: list[str] = []

    def open_page(lang: str = "en", **context_options: object) -> object:
        options = {"locale": "en-US", "viewport": {"width": 1280, "height": 900}}
        options.update(context_options)
        context = browser.new_context(**options)  # type: ignore[attr-defined]
        context.set_default_timeout(10_000)
        # The language is the user's choice, kept in localStorage: start each test in one.
        context.add_init_script(
            f"try {{ if (!localStorage.getItem('uno.lang')) "
            f"localStorage.setItem('uno.lang', '{lang}') }} catch (e) {{}}"
        )
        contexts.append(context)
        page = context.new_page()

        def on_request(request: object) -> None:
            url = request.url  # type: ignore[attr-defined]
            if not url.startswith((server_url, server_url.replace("http", "ws"), "data:")):
                problems.append(f"request outside the server: {url}")

        page.on("request", on_request)
        page.on("websocket", lambda ws: on_request(ws))
        page.on(
            "console",
            lambda msg: (
                problems.append(f"console {msg.type}: {msg.text}") if msg.type == "error" else None
            ),
        )
        page.on("pageerror", lambda err: problems.append(f"page error: {err}"))
        return page

    yield open_page
    for context in contexts:
        context.close()
    # A refused REST call shows as a console "Failed to load resource" line; those are
    # expected where a test provokes them, so only script errors and outside requests fail.
    real = [p for p in problems if "Failed to load resource" not in p]
    assert not real, "\n".join(real)


AXE = ROOT / "tests" / "web" / "vendor" / "axe.min.js"  # see tests/web/vendor/README.md


@pytest.fixture
def axe() -> Callable[..., list[dict[str, object]]]:
    """Run axe-core (vendored: tests/web/vendor) in a page; returns the violations of
    impact serious or critical."""

    def run(page: object, context: str = "body") -> list[dict[str, object]]:
        page.add_script_tag(path=str(AXE))  # type: ignore[attr-defined]
        found: list[dict[str, object]] = page.evaluate(  # type: ignore[attr-defined]
            """async (context) => {
              const result = await axe.run(context, { resultTypes: ['violations'] });
              return result.violations
                .filter((v) => v.impact === 'serious' || v.impact === 'critical')
                .map((v) => ({ id: v.id, impact: v.impact, help: v.help,
                               nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
            }""",
            context,
        )
        return found

    return run


@pytest.fixture
def shot() -> Callable[..., Path]:
    """Save a screenshot (the whole page by default) under test-artifacts/web/."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)

    def save(page: object, name: str, full_page: bool = True) -> Path:
        path = ARTIFACTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=full_page)  # type: ignore[attr-defined]
        return path

    return save
