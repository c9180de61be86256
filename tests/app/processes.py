"""Real server processes (``python -m app``) on free ports, for tests of what only whole
processes show: a rolling restart, a proxy in front of replicas, signals."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import websockets
from live import Client
from own_redis import free_port

ROOT = Path(__file__).resolve().parents[2]


class AppProcess:
    """One ``python -m app`` with its own port and log file."""

    def __init__(self, workdir: Path, *args: str, env: dict[str, str] | None = None) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        workdir.mkdir(parents=True, exist_ok=True)
        self.log_path = workdir / f"server-{self.port}.log"
        clean = {k: v for k, v in os.environ.items() if not k.startswith("UNO_")}
        self._log = self.log_path.open("w")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "app", "--port", str(self.port), *args],
            cwd=workdir,
            env={**clean, "PYTHONPATH": str(ROOT), **(env or {})},
            stdout=self._log,
            stderr=subprocess.STDOUT,
        )

    async def healthy(self, timeout: float = 30) -> str:
        """Wait for /healthz to answer 200; returns the node id."""
        async with httpx.AsyncClient(timeout=1) as http, asyncio.timeout(timeout):
            while True:
                assert self.process.poll() is None, self.log()
                try:
                    r = await http.get(f"{self.base}/healthz")
                    if r.status_code == 200:
                        node: str = r.json()["node"]
                        return node
                except httpx.HTTPError:
                    pass
                await asyncio.sleep(0.1)

    def terminate(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)

    async def exited(self, timeout: float = 30) -> int:
        async with asyncio.timeout(timeout):
            while self.process.poll() is None:
                await asyncio.sleep(0.05)
        self._log.close()
        return self.process.returncode

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
        self._log.close()

    def log(self) -> str:
        if not self._log.closed:
            self._log.flush()
        return self.log_path.read_text()


async def connect(ws_base: str, room_id: str, token: str, **kw: Any) -> Client:
    """A protocol client (``live.Client``) on ``ws_base``, after its snapshot."""
    ws = await websockets.connect(f"{ws_base}/ws/rooms/{room_id}?token={token}", **kw)
    client = Client(ws)
    await client.expect("snapshot", timeout=10)
    return client


async def table(http: httpx.AsyncClient, players: int = 2) -> tuple[str, list[str]]:
    """A started room made over REST; its id and the seats' tokens."""
    r = await http.post("/api/rooms", json={"name": "table", "seats": players})
    assert r.status_code == 201, r.text
    room = r.json()
    tokens = []
    for i in range(players):
        joined = await http.post(f"/api/rooms/{room['roomId']}/join", json={"name": f"p{i}"})
        assert joined.status_code in (200, 201), joined.text
        tokens.append(joined.json()["token"])
    started = await http.post(
        f"/api/rooms/{room['roomId']}/start",
        headers={"Authorization": f"Bearer {room['hostToken']}"},
    )
    assert started.status_code in (200, 204), started.text
    return room["roomId"], tokens
