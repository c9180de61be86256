"""The handshake every socket of the server shares (room, lobby, tournament, quick play):
the browser's ``Origin`` against the public origins, then the protocol version the client
offers as its subprotocol. A refused origin closes before accept (the client sees HTTP
403); an unknown version is answered 400 ``unsupported_protocol`` before accept. What a
socket checks after that (a seat's token, a tournament's id, a ticket) is its own."""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import WebSocket
from starlette.responses import JSONResponse

from app.errors import RoomError
from app.settings import Settings
from app.wire.messages import error
from app.ws.origins import allowed_origins, origin_allowed
from app.ws.protocol import SUBPROTOCOLS

CLOSE_ORIGIN = 1008  # the origin is not one of the server's


@dataclass(frozen=True, slots=True)
class Agreed:
    """A handshake that passed: the subprotocol to accept the socket with (None when the
    client offered none: it is taken to speak ``uno.v1``)."""

    subprotocol: str | None


def negotiate(websocket: WebSocket) -> tuple[bool, str | None]:
    """Whether the client speaks a version this server does, and the subprotocol to accept
    with (None when the client asked for none)."""
    offered = websocket.scope.get("subprotocols") or []
    if not offered:
        return True, None
    for name in offered:
        if name in SUBPROTOCOLS:
            return True, name
    return False, None


def origin_ok(websocket: WebSocket, settings: Settings) -> bool:
    """The browser's ``Origin`` against the public origins (see app.ws.origins); the port
    the server listens on is the one this connection came in on."""
    local = websocket.scope.get("server") or (None, settings.port)
    allowed = allowed_origins(
        settings.public_origins, settings.allowed_origins, settings.host, local[1], local[0]
    )
    return origin_allowed(websocket.headers.get("origin"), allowed)


async def agree(websocket: WebSocket, settings: Settings) -> Agreed | None:
    """The shared handshake; None when it refused the socket (the refusal is sent)."""
    if not origin_ok(websocket, settings):
        await websocket.close(CLOSE_ORIGIN)  # before accept: the client sees HTTP 403
        return None
    known, subprotocol = negotiate(websocket)
    if not known:
        offered = ", ".join(websocket.scope.get("subprotocols") or [])
        message = f"this server speaks {', '.join(SUBPROTOCOLS)}, not {offered}"
        await deny(websocket, RoomError(400, "unsupported_protocol", message))
        return None
    return Agreed(subprotocol)


async def deny(websocket: WebSocket, err: RoomError) -> None:
    """Refuse before accept: an HTTP answer with the refusal's status and body."""
    body = {"code": err.code, "message": err.message}
    await websocket.send_denial_response(JSONResponse(body, status_code=err.status))


async def refuse_open(
    websocket: WebSocket, agreed: Agreed, err: RoomError, close_code: int
) -> None:
    """Refuse after accept: the refusal as an ``error`` message, then the close code that
    names it (for clients that read no HTTP answer of a handshake)."""
    await websocket.accept(subprotocol=agreed.subprotocol)
    await websocket.send_json(error(err.code, err.message))
    await websocket.close(close_code)
