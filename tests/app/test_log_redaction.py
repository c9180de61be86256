"""Seat tokens never reach the server's log: uvicorn's request lines show them masked.
The client's static files are left out of the access log at info."""

from __future__ import annotations

from pathlib import Path

import httpx
from processes import AppProcess, connect, table

from app.logs import is_static, redact


def test_redact_masks_every_token_value() -> None:
    line = '"WebSocket /ws/rooms/r1?token=abc123&x=1" [accepted]; GET /?token=zz HTTP/1.1'
    assert (
        redact(line)
        == '"WebSocket /ws/rooms/r1?token=***&x=1" [accepted]; GET /?token=*** HTTP/1.1'
    )


def test_only_the_clients_files_count_as_static() -> None:
    for path in (
        "/",
        "/?lang=da",
        "/account.html",
        "/js/lobby.js",
        "/css/app.css",
        "/uno-client/index.js",
        "/vendor/fast-json-patch/index.mjs",
    ):
        assert is_static(path), path
    for path in (
        "/api/rooms",
        "/api/rooms/r1?token=x",
        "/ws/lobby",
        "/metrics",
        "/openapi.json",
        "/api/x.js",
    ):
        assert not is_static(path), path


async def test_a_seat_token_in_a_socket_url_is_not_in_the_server_log(tmp_path: Path) -> None:
    server = AppProcess(tmp_path, "--log-level", "info")
    try:
        await server.healthy()
        async with httpx.AsyncClient(base_url=server.base, timeout=10) as http:
            room_id, tokens = await table(http)
            client = await connect(server.base.replace("http", "ws"), room_id, tokens[0])
            await client.ws.close()
            await http.get(f"/api/rooms/{room_id}", params={"token": tokens[1]})
            for path in ("/", "/js/lobby.js", "/css/app.css"):
                assert (await http.get(path)).status_code == 200
        server.terminate()
        await server.exited()
        log = server.log()
        assert f"/ws/rooms/{room_id}?token=***" in log  # the line is there, masked
        for token in tokens:
            assert token not in log
        # The page's files are debug lines, left out at info; the API's calls stay.
        assert f"GET /api/rooms/{room_id}?token=***" in log
        assert "/js/lobby.js" not in log and "/css/app.css" not in log
        assert '"GET / HTTP' not in log
    finally:
        server.kill()
