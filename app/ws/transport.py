"""The WebSocket transport under the endpoint: uvicorn's, with the project's settings and
a close code of our own for a peer that stopped answering pings.

uvicorn closes such a socket with 1011 ("internal error"), which tells a client that the
server failed; a client that was only unreachable for a while should instead learn that
its heartbeat ran out (and reconnect, then ``resume``).
"""

from __future__ import annotations

from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from app.settings import Settings

CLOSE_HEARTBEAT = 4408  # no pong within the heartbeat timeout


class HeartbeatProtocol(WebSocketsSansIOProtocol):
    def keepalive_timeout(self) -> None:
        self.pong_timer = None
        self.pending_ping_payload = None
        if self.close_sent or self.transport.is_closing():
            return
        self.conn.fail(CLOSE_HEARTBEAT, "heartbeat timeout")
        self.transport.write(b"".join(self.conn.data_to_send()))
        self.close_sent = True
        self.transport.close()


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    """The WebSocket options of ``uvicorn.run``/``uvicorn.Config`` for these settings."""
    return {
        "ws": HeartbeatProtocol,
        # Compression costs ~30 % of throughput for messages of a few hundred bytes.
        "ws_per_message_deflate": False,
        "ws_max_size": settings.max_frame_bytes,
        "ws_ping_interval": settings.heartbeat_interval_seconds,
        "ws_ping_timeout": settings.heartbeat_timeout_seconds,
    }
