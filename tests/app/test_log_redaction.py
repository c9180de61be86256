"""Seat tokens never reach the server's log: uvicorn's request lines show them masked."""

from __future__ import annotations

from pathlib import Path

import httpx
from processes import AppProcess, connect, table

from app.logs import redact


def test_redact_masks_every_token_value() -> None:
    line = '"WebSocket /ws/rooms/r1?token=abc123&x=1" [accepted]; GET /?token=zz HTTP/1.1'
    assert (
        redact(line)
        == '"WebSocket /ws/rooms/r1?token=***&x=1" [accepted]; GET /?token=*** HTTP/1.1'
    )


async def test_a_seat_token_in_a_socket_url_is_not_in_the_server_log(tmp_path: Path) -> None:
    server = AppProcess(tmp_path, "--log-level", "info")
    try:
        await server.healthy()
        async with httpx.AsyncClient(base_url=server.base, timeout=10) as http:
            room_id, tokens = await table(http)
            client = await connect(server.base.replace("http", "ws"), room_id, tokens[0])
            await client.ws.close()
            await http.get(f"/api/rooms/{room_id}", params={"token": tokens[1]})
        server.terminate()
        await server.exited()
        log = server.log()
        assert f"/ws/rooms/{room_id}?token=***" in log  # the line is there, masked
        for token in tokens:
            assert token not in log
    finally:
        server.kill()
