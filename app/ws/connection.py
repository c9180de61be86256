"""One client socket's delivery: its outbox, its place in the room's seq, resync.

Changes arrive already serialised per audience (``app.rooms.writer``); a connection picks
its audience's message, checks that it follows the last ``seq`` it delivered, and queues
it. A gap (a lost publication, a reconnect of the pub/sub link) is repaired by a fresh
snapshot. While a snapshot or resume is being prepared, arriving changes are buffered so
that nothing is sent out of order.

A seat's socket in a room with ``fairRaces`` on has its round trip measured (timed
pings, from the node's app.pinger): the room's snapshot says whether it is on, and a
change that turns it on or off says so (``fair``, app.rooms.writer). Spectators never
race, and are never measured.

On a socket opened with ``ack=patch``, the ack of an action it sent rides on the patch of
the change that action made (one frame fewer per action); when the answer comes first (a
duplicate, a writer on another node), it is a frame of its own.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import itertools
import logging
import socket
import struct
import time
from collections.abc import Callable
from typing import Any

import orjson
from starlette.websockets import WebSocket, WebSocketState

import engine
from app.pinger import Pinger
from app.rooms import commands
from app.rooms.clock import now_ms
from app.rooms.races import credited_delay
from app.rooms.service import CLOSE_UNAVAILABLE, RoomService
from app.rooms.views import SPECTATOR, build_view
from app.wire.messages import AckMessage, PatchMessage, ServerPing, SnapshotMessage, error
from app.ws.chat import reaches
from app.ws.transport import text_frame

log = logging.getLogger(__name__)

# Close codes of our own (4000-4999 are the application's).
CLOSE_REMOVED = 4001  # the seat was given up or the host removed the player
CLOSE_ENDED = 4002  # the room ended (nobody there for too long): it is gone
CLOSE_SLOW = 4008  # the client does not read its messages fast enough
_STOP = object()
_PING = "\x00ping"  # a queued ping: its text is made (and timed) as it is written
_SENT_KEPT = 16  # positions whose send time a connection remembers
_RTT_KEPT = 5  # a connection's round trip is the least of its last this many samples
_TCP_INFO_RTT = 68  # offset of tcpi_rtt (microseconds) in Linux's struct tcp_info


def _wall_ms() -> float:
    return time.time() * 1000


def protocol_of(websocket: WebSocket) -> Any:
    """The server's protocol object under this socket (uvicorn's, app.ws.transport)."""
    return getattr(getattr(websocket, "_receive", None), "__self__", None)


def tcp_rtt_ms(websocket: WebSocket) -> float | None:
    """The kernel's smoothed round trip of this socket's TCP connection (Linux TCP_INFO),
    or None where it cannot be read (another OS, a transport without a socket). Behind a
    proxy it measures the proxy's leg only, so it is used as a floor, never a ceiling."""
    transport = getattr(protocol_of(websocket), "transport", None)
    sock = transport.get_extra_info("socket") if transport is not None else None
    option = getattr(socket, "TCP_INFO", None)
    if sock is None or option is None:
        return None
    try:
        info = sock.getsockopt(socket.IPPROTO_TCP, option, 104)
        (rtt_us,) = struct.unpack_from("I", info, _TCP_INFO_RTT)
    except (OSError, struct.error):
        return None
    return float(rtt_us) / 1000


def _least(samples: collections.deque[float], sample: float) -> float:
    """The round trip of a connection: the least of its last few samples. A stall of
    either end (a busy event loop, a retransmission) only ever adds to a sample, and one
    such sample must not stretch the credit, nor shorten the windows it opens."""
    samples.append(sample)
    return min(samples)


def _ms(value: float | None) -> int | None:
    return None if value is None else round(value)


def message_for(change: dict[str, Any], audience: str) -> str | None:
    """``audience``'s message of a published change (app.rooms.writer): its own, or the
    public one (``p``) where ``m`` names it None; None if the change does not know the
    audience (a seat taken since: it resyncs from a snapshot)."""
    messages = change["m"]
    if audience not in messages:
        return None
    message: str | None = messages[audience]
    return change["p"] if message is None else message


class _PublicFrame:
    """The public message (``p``) of the change being handed to this node's sockets, made
    a WebSocket frame once and written as it is by every socket that sends it (a room's
    spectators, and each seat whose own part did not change). Only the latest change's
    is kept; a change is never altered once published."""

    __slots__ = ("change", "frame")

    def __init__(self) -> None:
        self.change: dict[str, Any] | None = None
        self.frame = b""

    def of(self, change: dict[str, Any]) -> bytes:
        if change is not self.change:
            self.frame = text_frame(change["p"].encode())
            self.change = change
        return self.frame


_public = _PublicFrame()


# A resync snapshot is tried this often, waiting 0.1 s, 0.2 s, ... in between (~3 s).
RESYNC_ATTEMPTS = 6
RESYNC_FIRST_DELAY = 0.1


class Connection:
    def __init__(
        self,
        websocket: WebSocket,
        service: RoomService,
        room_id: str,
        pid: str | None,
        *,
        max_queue: int = 512,
        delay_cap_ms: int = 250,
        ws_slack_ms: int = 15,
        report_step_ms: int = 10,
        ack_in_patch: bool = False,
        pinger: Pinger | None = None,
    ) -> None:
        self.websocket = websocket
        self.service = service
        self.room_id = room_id
        self.pid = pid
        self.audience = pid if pid is not None else SPECTATOR
        self.seq = -1
        self.ended = False  # the room ended while this socket was open
        self._ready = False
        self._buffer: list[dict[str, Any]] = []
        self._queue: asyncio.Queue[Any] = asyncio.Queue()
        self._max_queue = max_queue
        self._close_code = 1000
        self._closing = False
        self._resync: asyncio.Task[None] | None = None
        # ``ack=patch``: the refs of actions sent here whose ack may still ride on their
        # change's patch, and those whose ack has ridden (no ack frame for them then).
        self.ack_in_patch = ack_in_patch
        self._riding: set[str] = set()
        self._rode: set[str] = set()
        # Claim timing (app.rooms.races): when each position was written to this socket
        # (wall ms, this node's clock), and this connection's measured round trips.
        self.sent: dict[int, float] = {}
        self.latest: int | None = None
        self.app_rtt: float | None = None
        self.ws_rtt: float | None = None
        self._app_samples: collections.deque[float] = collections.deque(maxlen=_RTT_KEPT)
        self._ws_samples: collections.deque[float] = collections.deque(maxlen=_RTT_KEPT)
        self.tcp_rtt: float | None = None
        self.rtt_samples = 0
        self._pings: dict[int, float] = {}
        self._ping_ids = itertools.count(1)
        self._pinger = pinger  # None: never measured
        self._cap = delay_cap_ms
        self._slack = ws_slack_ms
        # The room's writer is told this seat's credited delay (it sizes claim windows by
        # the claimants' distances) when it first is known and whenever it moves this far.
        self._report_step = report_step_ms
        self._reported: int | None = None
        self._reports: set[asyncio.Task[None]] = set()
        self._protocol = protocol_of(websocket)
        if hasattr(self._protocol, "measure"):
            self._protocol.on_rtt = self._on_ws_rtt
        # Our transport's direct write (app.ws.transport), used while the sender waits for
        # its queue; None under another server (every frame goes through the queue).
        self._write: Callable[[str], bool] | None = getattr(self._protocol, "write_text", None)
        self._write_frame: Callable[[bytes], bool] | None = getattr(
            self._protocol, "write_frame", None
        )
        self._idle = False

    # Outgoing

    @property
    def queued(self) -> int:
        """Frames queued for this socket and not yet written to it."""
        return self._queue.qsize()

    def send(self, message: dict[str, Any] | str, moves: int | None = None) -> None:
        """Queue ``message``; ``moves``: the position its view shows, timed when written."""
        if self._closing:
            return
        if self._queue.qsize() >= self._max_queue:
            self.close(CLOSE_SLOW)
            return
        text = message if isinstance(message, str) else orjson.dumps(message).decode()
        # Straight onto the socket when nothing is queued before it and the sender is
        # idle (it is not in the middle of writing): one task switch fewer per frame.
        if self._idle and self._write is not None and self._queue.empty() and self._write(text):
            if moves is not None:
                self._mark_sent(moves)
            return
        self._queue.put_nowait(text if moves is None else (text, moves))

    def ping(self) -> None:
        """Send an app-level ping, its ``pong`` a round-trip sample: straight onto the
        socket when nothing is queued before it and the sender is idle, as :meth:`send`
        does (every socket of a fair room is pinged every second: no task switch, and
        nothing left behind for the cycle collector), else queued."""
        if self._closing or self._queue.qsize() >= self._max_queue:
            return
        n = next(self._ping_ids)
        if self._idle and self._write is not None and self._queue.empty():
            if self._write(self._ping_text(n)):
                self._measure()
                return
        self._queue.put_nowait((_PING, n))

    def _ping_text(self, n: int) -> str:
        """Ping ``n``'s message, its round trip timed from now."""
        self._pings[n] = _wall_ms()
        if len(self._pings) > 8:  # pings never answered are forgotten
            del self._pings[min(self._pings)]
        return orjson.dumps(ServerPing.build(n)).decode()

    def _measure(self) -> None:
        # With each ping, a ping frame: the round trip the client's code cannot stretch
        # (app.rooms.races).
        if hasattr(self._protocol, "measure"):
            self._protocol.measure()

    def on_pong(self, n: int) -> bool:
        """A ``pong`` for ping ``n``: one round-trip sample (False: no such ping pending)."""
        sent = self._pings.pop(n, None)
        if sent is None:
            return False
        sample = _wall_ms() - sent
        self.rtt_samples += 1
        self.app_rtt = _least(self._app_samples, sample)
        self.tcp_rtt = tcp_rtt_ms(self.websocket)
        self._report()
        return True

    def _on_ws_rtt(self, sample: float) -> None:
        """A WebSocket pong frame answered one of our timed ping frames."""
        self.ws_rtt = _least(self._ws_samples, sample)
        self._report()

    def credited(self) -> int:
        """This connection's credited network delay now (app.rooms.races)."""
        return credited_delay(self.app_rtt, self.tcp_rtt, self._cap, self.ws_rtt, self._slack)

    def _report(self) -> None:
        if self.pid is None or self._closing:
            return  # a spectator never claims
        delay = self.credited()
        if self._reported is not None and abs(delay - self._reported) < self._report_step:
            return
        self._reported = delay
        task = asyncio.ensure_future(self._send_report(delay))
        self._reports.add(task)
        task.add_done_callback(self._reports.discard)

    async def _send_report(self, delay: int) -> None:
        assert self.pid is not None  # (see _report: a spectator reports nothing)
        told = False
        with contextlib.suppress(Exception):
            told = await self.service.tell(self.room_id, commands.Delay(pid=self.pid, ms=delay))
        if not told and self._reported == delay:
            self._reported = None  # no writer heard it: the next measurement tells again

    def _fair_races(self, on: bool) -> None:
        """Follow the room's ``fairRaces``: a seat's round trip is measured while it is on."""
        pinger = self._pinger
        if pinger is None:
            return
        if on and self.pid is not None and not self._closing:
            pinger.add(self)
        else:
            pinger.discard(self)

    def _follow(self, change: dict[str, Any]) -> None:
        fair = change.get("fair")
        if fair is not None:
            self._fair_races(bool(fair))

    def timing(self, at: object, reported: int | None) -> dict[str, Any]:
        """The claim timing of an action arriving now: ``raw`` (ms from writing the
        position it answers to its arrival; None if that position was never sent here),
        ``delay`` (the credited network delay), the round trips it came from (``rtt``)
        and the client's ``reported`` time."""
        position = at if isinstance(at, int) and not isinstance(at, bool) else self.latest
        sent = None if position is None else self.sent.get(position)
        raw = None if sent is None else round(_wall_ms() - sent)
        rtt = {"app": _ms(self.app_rtt), "ws": _ms(self.ws_rtt), "tcp": _ms(self.tcp_rtt)}
        return {"raw": raw, "delay": self.credited(), "rtt": rtt, "reported": reported}

    def _mark_sent(self, moves: int) -> None:
        if self.latest is not None and moves < self.latest:
            self.sent.clear()  # a new match counts its moves from 0 again
        if moves not in self.sent:
            self.sent[moves] = time.time() * 1000  # (_wall_ms, one call fewer per socket)
            if len(self.sent) > _SENT_KEPT:
                # Positions only grow (a new match clears them): the first is the oldest.
                del self.sent[next(iter(self.sent))]
        self.latest = moves

    def close(self, code: int = 1000) -> None:
        if not self._closing:
            self._closing = True
            self._fair_races(False)
            self._close_code = code
            self._queue.put_nowait(_STOP)

    async def run_sender(self) -> None:
        """Write queued messages in order until closed; then close the socket."""
        websocket = self.websocket
        try:
            while True:
                self._idle = True
                try:
                    item = await self._queue.get()
                finally:
                    self._idle = False
                if item is _STOP:
                    break
                if type(item) is tuple:
                    text, moves = item
                    if text is _PING:
                        await websocket.send_text(self._ping_text(moves))
                        self._measure()
                        continue
                    if moves is not None:
                        self._mark_sent(moves)
                    item = text
                await websocket.send_text(item)
        except Exception:
            # The peer went away mid-send; the receive loop notices and cleans up.
            return
        if websocket.client_state == WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await websocket.close(self._close_code)

    # Acks

    def sending(self, ref: str) -> None:
        """An action ``ref`` is on its way to the room (before it can be applied)."""
        if self.ack_in_patch:
            self._riding.add(ref)

    def accepted(self, ref: str, seq: int) -> None:
        """The action ``ref`` was accepted as change ``seq``: its ack, unless it rode."""
        if ref in self._rode:
            self._rode.discard(ref)
            return
        self._riding.discard(ref)
        self.send(AckMessage.build(ref, seq))

    def unanswered(self, ref: str) -> bool:
        """The action ``ref`` was refused, or its answer lost: True if its ack rode on a
        patch already (it was accepted: there is nothing to refuse)."""
        self._riding.discard(ref)
        if ref in self._rode:
            self._rode.discard(ref)
            return True
        return False

    # Chat (app.ws.chat): relayed as it comes, outside the changes' order

    def on_say(self, message: dict[str, Any]) -> None:
        if reaches(message, self.pid is None):
            self.send(message)

    # Changes

    def on_change(self, change: dict[str, Any]) -> None:
        """A published change (app.rooms.service): this socket's message of it, written
        at once where nothing waits before it; held while a snapshot or resume is being
        prepared. It runs for every socket of the room on this node, hence in one piece."""
        if not self._ready:
            self._buffer.append(change)
            return
        seq = change["seq"]
        if seq <= self.seq:
            return
        pid = self.pid
        if pid is not None and pid in change.get("removed", ()):
            self.close(CLOSE_REMOVED)
            return
        messages = change["m"]  # (message_for)
        audience = self.audience
        if seq != self.seq + 1 or audience not in messages:
            # A gap, or an audience this change does not know: start again from a snapshot.
            self._ready = False
            self._buffer.append(change)
            if self._resync is None or self._resync.done():
                self._resync = asyncio.create_task(self._resnapshot())
            return
        self.seq = seq
        if "fair" in change:
            self._follow(change)
        own: str | None = messages[audience]
        text: str = change["p"] if own is None else own
        riding = self._riding
        ack = change.get("ack") if riding else None
        if ack is not None and ack[0] == pid and ack[1] in riding:
            riding.discard(ack[1])
            self._rode.add(ack[1])
            text = PatchMessage.with_ack(text, ack[1])
            own = text
        moves = change.get("mv")
        queue = self._queue
        write = self._write_frame
        if self._idle and write is not None and not self._closing and queue.qsize() == 0:
            # Straight onto the socket (see send); the public message's frame made once.
            frame = _public.of(change) if own is None else text_frame(own.encode())
            if write(frame):
                if moves is not None and moves != self.latest:
                    self._mark_sent(moves)  # (the latest position is marked already)
            else:
                queue.put_nowait(text if moves is None else (text, moves))
        else:
            self.send(text, moves)
        if change.get("end"):
            self.ended = True  # nothing to disconnect from: the room is gone
            self.close(CLOSE_ENDED)

    def _flush(self) -> None:
        self._ready = True
        buffered, self._buffer = self._buffer, []
        for index, change in enumerate(buffered):
            if not self._ready:
                self._buffer.extend(buffered[index:])
                return
            self.on_change(change)

    async def _resnapshot(self) -> None:
        """The snapshot that repairs a gap, retried while reading the room fails (every
        change meanwhile waits in the buffer); if it keeps failing, the socket is closed
        with 1013 so that its client reconnects rather than wait for patches forever."""
        delay = RESYNC_FIRST_DELAY
        attempt = 0
        while not self._closing:
            attempt += 1
            try:
                await self.snapshot()
            except Exception as err:
                log.warning(
                    "room %s: resync snapshot failed (attempt %d): %r", self.room_id, attempt, err
                )
                if attempt == RESYNC_ATTEMPTS:
                    self.send(error("unavailable", "the room could not be read; reconnect"))
                    self.close(CLOSE_UNAVAILABLE)
                    return
                await asyncio.sleep(delay)
                delay *= 2
                continue
            if self._ready:
                return
            # What the snapshot's buffer held had a gap of its own: once more, now.
            if attempt == RESYNC_ATTEMPTS:
                self.close(CLOSE_UNAVAILABLE)
                return

    async def snapshot(self) -> None:
        """Send the whole view as of the latest commit, then whatever arrived meanwhile."""
        self._ready = False
        record = await self.service.load(self.room_id)
        doc = record.doc
        view = build_view(doc, engine.final_state(record.deal), self.audience, record.seq)
        ts = doc.get("ts") or now_ms()
        moves = view.get("moves")
        message = SnapshotMessage.build(record.seq, ts, view)
        self.send(message, moves if isinstance(moves, int) else None)
        self.seq = record.seq
        self._fair_races(bool(doc.get("fairRaces", True)))
        self._flush()

    async def resume(self, last_seq: int) -> None:
        """Replay the patches after ``last_seq`` from the room's history, or snapshot."""
        if self._ready and last_seq == self.seq:
            return
        self._ready = False
        entries = None
        if last_seq <= self.seq:
            entries = await self.service.store.history(self.room_id, last_seq)
        changes = [orjson.loads(e) for e in entries] if entries is not None else None
        if not changes or any(self.audience not in c["m"] for c in changes):
            if changes == [] and last_seq == self.seq:
                self._flush()
                return
            await self.snapshot()
            return
        for change in changes:
            message = message_for(change, self.audience)
            assert message is not None  # (every change knows the audience: checked above)
            self.send(message, change.get("mv"))
            self._follow(change)
        self.seq = max(self.seq, changes[-1]["seq"])
        self._flush()
