"""What a client needs to know about the protocol before it connects: the version, the
socket's limits and heartbeat."""

from __future__ import annotations

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from app.settings import Settings
from app.ws.protocol import SUBPROTOCOLS, VERSION
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
    heartbeat: Heartbeat
    limits: Limits


@router.get("/protocol", response_model=ProtocolInfo)
async def protocol(request: Request) -> ProtocolInfo:
    """The protocol version this server speaks, the socket's limits and heartbeat."""
    settings: Settings = request.app.state.settings
    return ProtocolInfo(
        version=VERSION,
        subprotocols=list(SUBPROTOCOLS),
        socket="/ws/rooms/{roomId}",
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
