"""``python -m app --workers 2`` on real processes and a real Redis: two server processes
on one port (each a node), an archive process beside them, rooms served across both; a
worker killed mid-game is started again, and no acknowledged action is lost."""

from __future__ import annotations

import asyncio
import os
import random
import signal
from pathlib import Path
from typing import Any

import httpx
import pytest
from live import Client
from own_redis import own_redis
from processes import AppProcess, connect, table
from test_rolling_restart import DURABLE, play, settle

pytestmark = pytest.mark.redis


def workers_of(pid: int) -> list[int]:
    """The server processes the supervisor ``pid`` runs (Linux /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            command = (entry / "cmdline").read_bytes().split(b"\0")
        except (OSError, IndexError):
            continue
        if parent == pid and b"--worker" in command:
            found.append(int(entry.name))
    return sorted(found)


async def nodes_behind(base: str, tries: int = 200) -> set[str]:
    """The node ids that answer on the port, one new connection per request."""
    seen: set[str] = set()
    for _ in range(tries):
        async with httpx.AsyncClient(timeout=5) as http:
            seen.add((await http.get(f"{base}/healthz")).json()["node"])
        if len(seen) == 2:
            break
    return seen


async def test_two_workers_serve_one_port_and_a_killed_one_loses_nothing(tmp_path: Path) -> None:
    with own_redis(tmp_path / "redis", *DURABLE) as url:
        server = AppProcess(
            tmp_path / "server",
            "--redis",
            url,
            "--workers",
            "2",
            "--archiver",
            "process",
            "--database",
            f"sqlite+aiosqlite:///{tmp_path}/uno.db",
            "--log-level",
            "info",
        )
        clients: list[Client] = []
        try:
            await server.healthy(timeout=120)
            assert len(await nodes_behind(server.base)) == 2
            ws_base = server.base.replace("http", "ws")
            rng = random.Random(5)
            tables: list[tuple[str, list[str], dict[str, tuple[int, dict[str, Any], int]]]] = []
            async with httpx.AsyncClient(base_url=server.base, timeout=10) as http:
                for _ in range(4):
                    room_id, tokens = await table(http)
                    seats = [await connect(ws_base, room_id, t) for t in tokens]
                    clients += seats
                    acked: dict[str, tuple[int, dict[str, Any], int]] = {}
                    await play(seats, 3, rng, acked)
                    tables.append((room_id, tokens, acked))
            log = server.log()
            assert log.count("event loop: uvloop") == 2, log
            assert "archiving the outboxes" in log, log

            killed = workers_of(server.process.pid)[0]
            os.kill(killed, signal.SIGKILL)
            async with asyncio.timeout(120):  # started again by the supervisor
                while killed in workers_of(server.process.pid) or (
                    len(workers_of(server.process.pid)) < 2
                ):
                    await asyncio.sleep(0.1)
            await server.healthy(timeout=120)
            for client in clients:
                await client.ws.close()
            clients = []
            for room_id, tokens, acked in tables:
                # Each room answers on the port whichever worker serves it, with every
                # acknowledged action; one sent again with its id is answered with its
                # first ack, not applied twice; and the game goes on.
                seats = [await connect(ws_base, room_id, t) for t in tokens]
                clients += seats
                await settle(seats)
                assert all(c.seq >= max(s for _, _, s in acked.values()) for c in seats)
                seq_now = seats[0].seq
                ref, (seat, action, seq) = next(iter(acked.items()))
                again = await seats[seat].outcome(await seats[seat].act(action, ref))
                assert (again["type"], again["seq"]) == ("ack", seq), again
                assert seats[0].seq == seq_now
                await play(seats, 2, rng, acked)
            assert len(await nodes_behind(server.base)) == 2
        finally:
            for client in clients:
                await client.ws.close()
            server.terminate()
            assert await server.exited(90) == 0
            server.kill()


def test_more_than_one_worker_needs_a_redis_store(tmp_path: Path) -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "app", "--workers", "2"],
        cwd=tmp_path,
        env={k: v for k, v in os.environ.items() if not k.startswith("UNO_")},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert "--workers needs --redis or --redis-cluster" in done.stderr
