"""The socket's origin check, over real handshakes: a browser's ``Origin`` must be one of
the server's public origins, scheme included; the ``Host`` a request names proves nothing
(whoever sends the request chooses it)."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any
from urllib.parse import urlsplit

import pytest
from live import Server, running_server

from app.__main__ import parse_args, settings_from
from app.ws.origins import normal_origin


async def handshake(server: Server, room_id: str, origin: str, host: str | None = None) -> int:
    """The HTTP status answering a WebSocket upgrade with these headers (101: accepted)."""
    address = urlsplit(server.base)
    reader, writer = await asyncio.open_connection(address.hostname, address.port)
    request = (
        f"GET /ws/rooms/{room_id} HTTP/1.1\r\n"
        f"Host: {host or address.netloc}\r\n"
        f"Origin: {origin}\r\n"
        "Upgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    writer.write(request.encode())
    await writer.drain()
    status = int((await reader.readline()).split()[1])
    writer.close()
    return status


async def test_a_host_header_naming_the_origin_does_not_let_it_in(server: Server) -> None:
    room = await server.create()
    assert await handshake(server, room["roomId"], "http://evil.example", "evil.example") == 403
    assert await handshake(server, room["roomId"], "http://evil.example:80", "evil.example") == 403


async def test_the_default_public_origin_is_the_one_started_with_scheme_included(
    server: Server,
) -> None:
    room = await server.create()
    port = urlsplit(server.base).port
    for own in (server.base, f"http://localhost:{port}", f"HTTP://127.0.0.1:{port}/"):
        assert await handshake(server, room["roomId"], own) == 101, own
    for other in (
        f"https://127.0.0.1:{port}",  # another scheme is another origin
        f"http://127.0.0.1:{port + 1}",
        "http://127.0.0.1",
        "null",
        f"http://127.0.0.1:{port}.evil.example",
    ):
        assert await handshake(server, room["roomId"], other) == 403, other


async def test_configured_public_origins_replace_the_default(tmp_path: Any) -> None:
    async with running_server(
        "memory", tmp_path, public_origins=["https://uno.example", "http://lan.example:8080"]
    ) as server:
        room = await server.create()
        for allowed in (
            "https://uno.example",
            "https://uno.example:443",
            "http://lan.example:8080",
        ):
            assert await handshake(server, room["roomId"], allowed, "x") == 101, allowed
        for refused in ("http://uno.example", "https://lan.example:8080", server.base):
            assert await handshake(server, room["roomId"], refused) == 403, refused


def test_public_origins_come_from_the_command_line_or_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    args = ["--public-origin", "https://a.example", "--public-origin", "https://b.example"]
    assert settings_from(parse_args(args)).public_origins == [
        "https://a.example",
        "https://b.example",
    ]
    monkeypatch.setenv("UNO_PUBLIC_ORIGINS", '["https://uno.example"]')
    assert settings_from(parse_args([])).public_origins == ["https://uno.example"]


@pytest.mark.parametrize(
    ("origin", "normal"),
    [
        ("https://Uno.Example", "https://uno.example"),
        ("https://uno.example:443", "https://uno.example"),
        ("http://uno.example:80/", "http://uno.example"),
        ("http://[::1]:8000", "http://[::1]:8000"),
        ("null", None),
        ("https://uno.example/path", None),
        ("ftp://uno.example", None),
        ("http://a@uno.example", None),
        ("http://uno.example:99999", None),
    ],
)
def test_origins_are_compared_in_one_normal_form(origin: str, normal: str | None) -> None:
    assert normal_origin(origin) == normal


async def _upgrade(server: Server, path: str, headers: str) -> tuple[int, bytes]:
    """The status and body answering a WebSocket upgrade of ``path`` with extra headers."""
    address = urlsplit(server.base)
    reader, writer = await asyncio.open_connection(address.hostname, address.port)
    request = (
        f"GET {path} HTTP/1.1\r\nHost: {address.netloc}\r\n{headers}"
        "Upgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    writer.write(request.encode())
    await writer.drain()
    status = int((await reader.readline()).split()[1])
    body = b""
    if status != 101:
        with contextlib.suppress(asyncio.TimeoutError):
            body = await asyncio.wait_for(reader.read(4096), 2)
    writer.close()
    return status, body


@pytest.mark.parametrize(
    "path",
    ["/ws/rooms/{room}", "/ws/lobby", "/ws/tournaments/t-none", "/ws/quickplay?ticket=none"],
)
async def test_every_socket_shares_one_handshake(server: Server, path: str) -> None:
    # The same origin check and the same version check, however the socket goes on.
    room = await server.create()
    target = path.format(room=room["roomId"])
    status, _ = await _upgrade(server, target, "Origin: http://evil.example\r\n")
    assert status == 403
    status, body = await _upgrade(server, target, "Sec-WebSocket-Protocol: uno.v0\r\n")
    assert status == 400
    assert b"unsupported_protocol" in body
