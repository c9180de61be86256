"""The WebSocket transport under the endpoint: uvicorn's, with the project's settings,
one heartbeat per node instead of uvicorn's timers per socket (app.ws.heartbeat), and a
close code of our own for a peer that stopped answering pings.

uvicorn closes such a socket with 1011 ("internal error"), which tells a client that the
server failed; a client that was only unreachable for a while should instead learn that
its heartbeat ran out (and reconnect, then ``resume``).
"""

from __future__ import annotations

import itertools
import random
import struct
import weakref
from collections.abc import Callable
from typing import Any

from uvicorn.config import Config
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import Frame
from websockets.protocol import State

from app.settings import Settings
from app.ws.heartbeat import Heartbeat

CLOSE_HEARTBEAT = 4408  # no pong within the heartbeat timeout

# Each server's (node's) heartbeat, by its configuration: servers sharing an event loop
# (a test's nodes) keep their own intervals.
_HEARTBEATS: weakref.WeakKeyDictionary[Config, Heartbeat] = weakref.WeakKeyDictionary()


def heartbeat_of(config: Config) -> Heartbeat | None:
    """The heartbeat of the server of ``config`` (None before its first socket)."""
    return _HEARTBEATS.get(config)


class HeartbeatProtocol(WebSocketsSansIOProtocol):
    """uvicorn's protocol kept by its node's heartbeat (app.ws.heartbeat), with the
    heartbeat's own close code, and round-trip pings of its own (:meth:`measure`):
    WebSocket ping frames, answered by the peer's WebSocket stack (a browser's, out of
    the page's reach), timed for claim windows (app.rooms.races)."""

    _rtt_ids = itertools.count(1)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.on_rtt: Callable[[float], None] | None = None  # each measured round trip (ms)
        # The endpoint's reading of a text message in this callback (see
        # send_receive_event_to_app); None: every message goes the ASGI way.
        self.on_text: Callable[[str], bool] | None = None
        self._rtt_pings: dict[bytes, float] = {}

    def measure(self) -> bool:
        """Send one timed ping frame (False: the socket is not open)."""
        if self.close_sent or self.transport.is_closing() or self.conn.state is not State.OPEN:
            return False
        pings = self._rtt_pings
        payload = b"rtt" + struct.pack("!Q", next(self._rtt_ids))
        pings[payload] = self.loop.time()
        if len(pings) > 8:  # pings never answered are forgotten
            del pings[min(pings, key=pings.__getitem__)]
        self.conn.send_ping(payload)
        self.transport.write(b"".join(self.conn.data_to_send()))
        return True

    def write_text(self, text: str) -> bool:
        """Write one text frame at once, as uvicorn's ``send`` of a ``websocket.send``
        would, without its ASGI round (a task switch and a message dict per frame, a
        fifth of a send's cost). False, nothing written, when the socket is not open or
        its transport asked to pause: the frame then goes the ASGI way, in order."""
        return self.write_frame(text_frame(text.encode()))

    def write_frame(self, frame: bytes) -> bool:
        """:meth:`write_text` of a frame already made (:func:`text_frame`): one frame
        built once for every socket that sends the same message."""
        if (
            self.close_sent
            or self.disconnected
            or not self.writable.is_set()
            or self.conn.state is not State.OPEN
            or self.transport.is_closing()
        ):
            return False
        self.transport.write(frame)
        return True

    def send_receive_event_to_app(self) -> None:
        """A whole message in. A text message is first offered to ``on_text``, which reads
        it here and now (True: a task switch, the ASGI queue and the middleware fewer per
        message) or leaves it (False) to the ASGI queue, as uvicorn queues it. Offered
        only while the queue is empty: a message queued before it is read first."""
        hook = self.on_text
        if (
            hook is not None
            and self.curr_msg_data_type == "text"
            and not self.close_sent
            and self.queue.empty()
        ):
            frames = self.frames
            data = frames[0] if len(frames) == 1 else b"".join(frames)
            try:
                text = data.decode()
            except UnicodeDecodeError:
                text = None  # refused by uvicorn's own reading below
            if text is not None and hook(text):
                self.frames = []
                return
        super().send_receive_event_to_app()

    def handle_pong(self, event: Frame) -> None:
        sent = self._rtt_pings.pop(bytes(event.data), None)
        if sent is None:
            super().handle_pong(event)
        elif self.on_rtt is not None:
            self.on_rtt((self.loop.time() - sent) * 1000)

    def _heartbeat(self) -> Heartbeat:
        beat = heartbeat_of(self.config)
        if beat is None:
            beat = Heartbeat(self.loop, self.ping_interval or 0.0, self.ping_timeout)
            _HEARTBEATS[self.config] = beat
        return beat

    def start_keepalive(self) -> None:
        """At the handshake: into the node's heartbeat (no timer of its own)."""
        if self.ping_interval is not None and self.ping_interval > 0:
            self._heartbeat().add(self)

    def stop_keepalive(self) -> None:
        """Closed or shutting down: out of the node's heartbeat."""
        super().stop_keepalive()
        beat = heartbeat_of(self.config)
        if beat is not None:
            beat.discard(self)

    def waiting_since(self) -> float | None:
        return None if self.pending_ping_payload is None else self.ping_sent_at

    def beat(self) -> None:
        """The heartbeat's ping frame, as uvicorn's keepalive sends it (its pong is
        matched by uvicorn's ``handle_pong``), without a timer of its own."""
        if self.close_sent or self.transport.is_closing() or self.conn.state is not State.OPEN:
            return
        self.pending_ping_payload = struct.pack("!I", random.getrandbits(32))
        self.ping_sent_at = self.loop.time()
        self.conn.send_ping(self.pending_ping_payload)
        self.transport.write(b"".join(self.conn.data_to_send()))

    def keepalive_timeout(self) -> None:
        self.pong_timer = None
        self.pending_ping_payload = None
        if self.close_sent or self.transport.is_closing():
            return
        self.conn.fail(CLOSE_HEARTBEAT, "heartbeat timeout")
        self.transport.write(b"".join(self.conn.data_to_send()))
        self.close_sent = True
        self.transport.close()


class HttpProtocol(HttpToolsProtocol):
    """uvicorn's HTTP protocol (httptools), done with once its socket is upgraded to a
    WebSocket.

    Its parser holds the protocol's callbacks, a reference cycle that uvicorn breaks when
    the connection is lost. An upgraded socket's connection is lost to the WebSocket
    protocol instead, so every WebSocket opened would leave this protocol to the cycle
    collector, whose pauses every room on the node waits through. Dropped here, it goes
    as soon as the upgrade is done."""

    def handle_websocket_upgrade(self) -> None:
        super().handle_websocket_upgrade()
        self.parser = None  # type: ignore[assignment]


def text_frame(data: bytes) -> bytes:
    """A whole, unmasked WebSocket text frame (RFC 6455 section 5.2) of UTF-8 ``data``,
    as a server sends it: no extension is negotiated (``permessage-deflate`` is off), so
    the frame is its header and the payload as it is."""
    size = len(data)
    if size < 126:
        return bytes((0x81, size)) + data
    if size < 0x10000:
        return struct.pack("!BBH", 0x81, 126, size) + data
    return struct.pack("!BBQ", 0x81, 127, size) + data


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    """The WebSocket options of ``uvicorn.run``/``uvicorn.Config`` for these settings."""
    return {
        # libuv's event loop and the C HTTP parser (uvicorn[standard]): less CPU per
        # socket frame and per request than asyncio's own loop and h11 (docs/performance.md).
        "loop": "uvloop",
        "http": HttpProtocol,
        "ws": HeartbeatProtocol,
        # Compression costs ~30 % of throughput for messages of a few hundred bytes.
        "ws_per_message_deflate": False,
        "ws_max_size": settings.max_frame_bytes,
        "ws_ping_interval": settings.heartbeat_interval_seconds,
        "ws_ping_timeout": settings.heartbeat_timeout_seconds,
        # A closing socket logs its closing with its room's writer, which a store outage
        # can hold up for a command timeout or a lease: the sockets still open after 10 s
        # of a shutdown are cut, so that a node always stops.
        "timeout_graceful_shutdown": 10,
    }
