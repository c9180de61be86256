"""What a client needs to know about the protocol before it connects: the version, the
socket's limits and heartbeat."""

from __future__ import annotations

from functools import cache
from typing import Any

from fastapi import APIRouter, Path
from pydantic import BaseModel, Field

from app.api.errors import responses
from app.deps import AppSettings
from app.errors import RoomError
from app.wire.messages import VERSION
from app.ws import schemas as wire_schemas
from app.ws.protocol import SUBPROTOCOLS
from app.ws.transport import CLOSE_HEARTBEAT

router = APIRouter(prefix="/api", tags=["protocol"])


class Heartbeat(BaseModel):
    intervalSeconds: float = Field(description="the server pings each socket this often")
    timeoutSeconds: float = Field(description="a socket whose pong is this late is closed")
    closeCode: int = Field(description="the close code of a socket whose heartbeat ran out")


class Limits(BaseModel):
    maxMessageBytes: int = Field(description="larger messages: error too_large, close 1009")
    maxFrameBytes: int = Field(description="larger frames: close 1009 without a message")
    ratePerSecond: float = Field(description="messages a second on average per socket")
    rateBurst: int = Field(description="messages in a burst per socket")
    historySize: int = Field(description="changes kept per room for resume")
    historySeconds: int = Field(description="how long an idle room's changes are kept")


class ProtocolInfo(BaseModel):
    version: str = Field(description="the protocol version, also the WebSocket subprotocol")
    subprotocols: list[str] = Field(description="every version this server speaks")
    socket: str = Field(description="the room socket's path")
    schemas: str = Field(description="where the JSON Schemas are")
    heartbeat: Heartbeat
    limits: Limits


@router.get("/protocol", response_model=ProtocolInfo)
async def protocol(settings: AppSettings) -> ProtocolInfo:
    """The protocol version this server speaks, the socket's limits and heartbeat."""
    return ProtocolInfo(
        version=VERSION,
        subprotocols=list(SUBPROTOCOLS),
        socket="/ws/rooms/{roomId}",
        schemas="/api/schemas",
        heartbeat=Heartbeat(
            intervalSeconds=settings.heartbeat_interval_seconds,
            timeoutSeconds=settings.heartbeat_timeout_seconds,
            closeCode=CLOSE_HEARTBEAT,
        ),
        limits=Limits(
            maxMessageBytes=settings.max_message_bytes,
            maxFrameBytes=settings.max_frame_bytes,
            ratePerSecond=settings.rate_per_second,
            rateBurst=settings.rate_burst,
            historySize=settings.history_size,
            historySeconds=settings.history_ttl_seconds,
        ),
    )


@cache
def _published() -> dict[str, dict[str, Any]]:
    out = wire_schemas.schemas()
    out["asyncapi"] = wire_schemas.asyncapi()
    return out


class SchemaIndex(BaseModel):
    version: str
    schemas: dict[str, str] = Field(description="name -> its path")


@router.get("/schemas", response_model=SchemaIndex)
async def schema_index() -> SchemaIndex:
    """The JSON Schemas (draft 2020-12) of every socket message, view, action and event,
    and the AsyncAPI 3.0 document of the socket (``asyncapi``)."""
    return SchemaIndex(
        version=VERSION, schemas={name: f"/api/schemas/{name}" for name in _published()}
    )


@router.get(
    "/schemas/{name}",
    response_model=dict[str, Any],
    responses=responses({404: ("schema_not_found",)}),
)
async def schema(name: str = Path(max_length=64)) -> dict[str, Any]:
    """One schema by name (as listed at ``/api/schemas``)."""
    found = _published().get(name.removesuffix(".json"))
    if found is None:
        raise RoomError(404, "schema_not_found", f"no schema {name!r}; see /api/schemas")
    return found
