"""The processes an attack runs: a Redis server of its own, and server nodes.

Redis is started on a free port with its append-only file in a temporary directory, so
it can be killed with SIGKILL and restarted from what it had written. Nodes are
``python -m app`` processes with that Redis and an SQLite archive in the same directory;
their output goes to a log file that is scanned for tracebacks afterwards.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parent.parent

# What a server log shows when something failed that nobody handled.
PROBLEMS = {
    "traceback": re.compile(r"^Traceback \(most recent call last\)", re.M),
    "asgi_exception": re.compile(r"Exception in ASGI application"),
    "future_never_retrieved": re.compile(r"(Future|Task) exception was never retrieved"),
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait(check: object, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(Exception):
            if check():  # type: ignore[operator]
                return
        time.sleep(0.05)
    raise RuntimeError(f"{what} did not come up within {timeout} s")


class RedisServer:
    """redis-server on a free port, persisting to an append-only file in ``directory``."""

    def __init__(self, directory: Path, fsync: str = "always") -> None:
        self.directory = directory
        self.fsync = fsync
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        cmd = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
        cmd += ["--dir", str(self.directory), "--appendonly", "yes"]
        cmd += ["--appendfsync", self.fsync, "--save", "", "--protected-mode", "no"]
        cmd += ["--logfile", str(self.directory / "redis.log")]
        self.process = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _wait(self.ping, 20, "redis-server")

    def ping(self) -> bool:
        with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")

    def kill(self) -> None:
        """SIGKILL: whatever Redis had not written to its file is gone."""
        if self.process is not None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()
            self.process = None

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
            self.process = None


class Node:
    """One server process; restarted on the same port after a kill."""

    def __init__(
        self,
        name: str,
        directory: Path,
        redis_url: str | None,
        database_url: str,
        env: dict[str, str] | None = None,
    ) -> None:
        self.name = name
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}"
        self.redis_url = redis_url
        self.database_url = database_url
        self.log_path = directory / f"{name}.log"
        self.env = {**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})}
        self.process: subprocess.Popen[bytes] | None = None
        self.node_id: str | None = None
        self.starts = 0

    def start(self, timeout: float = 60) -> None:
        cmd = [sys.executable, "-m", "app", "--port", str(self.port), "--log-level", "warning"]
        cmd += ["--database", self.database_url]
        if self.redis_url:
            cmd += ["--redis", self.redis_url]
        with self.log_path.open("ab") as log:
            log.write(f"--- start {self.starts + 1}\n".encode())
            log.flush()
            self.process = subprocess.Popen(
                cmd, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT
            )
        self.starts += 1
        _wait(self._healthy, timeout, f"node {self.name}")

    def _healthy(self) -> bool:
        if self.process is None or self.process.poll() is not None:
            raise RuntimeError(f"node {self.name} exited; see {self.log_path}")
        with urllib.request.urlopen(self.base + "/healthz", timeout=2) as answer:
            body = orjson.loads(answer.read())
        self.node_id = body.get("node")
        return True

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def kill(self) -> None:
        """SIGKILL: no shutdown, no disconnects, the lease and heartbeat left to run out."""
        if self.process is not None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()
            self.process = None

    def pause(self) -> None:
        os.kill(self.pid, signal.SIGSTOP)

    def resume(self) -> None:
        os.kill(self.pid, signal.SIGCONT)

    def stop(self) -> None:
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGCONT)
        self.process.terminate()
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.kill()
        self.process = None

    def gauges(self) -> dict[str, float]:
        """This node's ``uno_*`` gauges from ``/metrics`` (empty if it does not answer)."""
        try:
            with urllib.request.urlopen(self.base + "/metrics", timeout=5) as answer:
                text = answer.read().decode()
        except OSError:
            return {}
        out = {}
        for line in text.splitlines():
            name, _, value = line.partition(" ")
            if name.startswith("uno_") and "{" not in name:
                with contextlib.suppress(ValueError):
                    out[name] = float(value)
        return out

    def rss_kb(self) -> int:
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return 0

    def problems(self) -> Counter[str]:
        """How often each kind of unhandled failure shows in this node's log."""
        text = self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
        return Counter({name: len(rx.findall(text)) for name, rx in PROBLEMS.items()})

    def log_excerpt(self, limit: int = 3) -> list[str]:
        """The first lines of the first few tracebacks, for the report."""
        if not self.log_path.exists():
            return []
        lines = self.log_path.read_text(errors="replace").splitlines()
        out = []
        for i, line in enumerate(lines):
            if line.startswith("Traceback"):
                tail = next(
                    (
                        lines[j]
                        for j in range(i + 1, min(i + 200, len(lines)))
                        if lines[j][:1] not in " \t"
                    ),
                    "",
                )
                out.append(f"{self.name}: {tail}")
                if len(out) >= limit:
                    break
        return out


def node_env(lease_ms: int = 2000, **extra: str) -> dict[str, str]:
    """Settings for attack nodes: a short lease so that a dead node's rooms move on soon."""
    env = {"UNO_LEASE_TTL_MS": str(lease_ms), "UNO_REDIS_PREFIX": "rel"}
    # Bots retry an unanswered action (same id) sooner than the default 10 s.
    env["UNO_COMMAND_TIMEOUT_SECONDS"] = "5"
    # Every table is opened from one address: no per-address REST limits.
    env["UNO_REST_WRITE_RATE"] = ""
    env["UNO_ROOM_CREATE_RATE"] = ""
    env["UNO_MAX_OPEN_LOBBIES_PER_ADDRESS"] = "100000"
    env["UNO_MAX_SPECTATORS_PER_ADDRESS"] = "100000"
    env.update(extra)
    return env
