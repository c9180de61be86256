"""A room session: one socket for one seat (or a spectator), kept alive.

It holds the seat's ``view``, current as of ``seq``: the snapshot on connect, then every
patch applied in order (RFC 6902, with ``jsonpatch``). A patch that skips a ``seq`` asks
the server to ``resume`` from the last one applied. A dropped socket is reopened with
backoff (its first message, a snapshot, is the view again), and actions not yet answered
are sent again with their ids, which the server applies at most once.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import secrets
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import Any

import jsonpatch
import websockets
from websockets.typing import Subprotocol

PROTOCOL = "uno.v1"
# Closes after which reconnecting cannot help: origin refused, removed from the room, bad
# token, no spectators, no such room.
FATAL = {1008, 4001, 4401, 4403, 4404}
_ids = itertools.count(1)


class ActionRefused(Exception):
    """The server refused an action (or a connection): its ``code`` and ``message``."""

    def __init__(self, code: str, message: str, ref: str | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.ref = ref


def complete(
    entry: dict[str, Any], choose: Callable[[Sequence[Any]], Any] = random.choice
) -> dict[str, Any]:
    """An entry of ``view["legal"]`` as an action to send: what it ``needs`` chosen from
    the ``colors`` or ``targets`` it lists, and nothing else."""
    action = {k: v for k, v in entry.items() if k not in ("needs", "colors", "targets")}
    for need in entry.get("needs", ()):
        action[need] = choose(entry["colors" if need == "color" else "targets"])
    return action


class RoomSession:
    """``async with RoomSession(ws_base, room_id, token) as room:`` then ``room.view``,
    ``await room.act({...})``, ``await room.changed()``."""

    def __init__(
        self,
        ws_base: str,
        room_id: str,
        token: str | None,
        *,
        backoff: Sequence[float] = (0.1, 0.3, 1.0, 2.0, 5.0),
        action_timeout: float = 15.0,
        rate_pause: float = 1.0,
    ) -> None:
        self.url = f"{ws_base.rstrip('/')}/ws/rooms/{room_id}"
        if token is not None:
            # The ack of this seat's action rides on the patch of its change (one frame
            # fewer for the server to send); it still comes as a frame when it cannot.
            self.url += f"?token={token}&ack=patch"
        self.view: dict[str, Any] | None = None
        self.seq = -1
        self.events: list[dict[str, Any]] = []
        self.reconnects = 0
        self._backoff = list(backoff)
        self._timeout = action_timeout
        # A socket's messages are rate-limited (docs/protocol.md): one over the limit is
        # dropped unread, and the pending actions go again after this pause.
        self._rate_pause = rate_pause
        self._resend: asyncio.Task[None] | None = None
        self._ws: Any = None
        self._pending: dict[str, tuple[str, asyncio.Future[dict[str, Any]]]] = {}
        self._changed = asyncio.Event()
        self._ready = asyncio.Event()
        self._closed = False
        self._failure: ActionRefused | None = None
        self._task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> RoomSession:
        await self.connect()
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, err: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    # Connection

    async def connect(self, timeout: float = 10.0) -> None:
        """Open the socket and wait for the first snapshot."""
        self._task = asyncio.create_task(self._run())
        async with asyncio.timeout(timeout):
            while not self._ready.is_set():
                self._raise_failure()
                await asyncio.sleep(0.005)

    async def close(self) -> None:
        self._closed = True
        if self._ws is not None:
            with contextlib.suppress(Exception):
                await self._ws.close()
        if self._resend is not None:
            self._resend.cancel()
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(self._task, 5)

    async def drop(self) -> None:
        """Close the socket as a network would (the session reconnects): for tests."""
        if self._ws is not None:
            self._ws.transport.abort()

    def _raise_failure(self) -> None:
        if self._failure is not None:
            raise self._failure
        if self._task is not None and self._task.done() and not self._task.cancelled():
            error = self._task.exception()
            if error is not None:
                raise error

    async def _run(self) -> None:
        attempt = 0
        while not self._closed:
            try:
                async with websockets.connect(
                    self.url,
                    subprotocols=[Subprotocol(PROTOCOL)],
                    compression=None,
                ) as ws:
                    self._ws = ws
                    attempt = 0
                    for text, _ in list(self._pending.values()):
                        await ws.send(text)  # the same ids: applied at most once
                    async for raw in ws:
                        await self._receive(ws, json.loads(raw))
            except websockets.ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd is not None else 1006
                if code in FATAL:
                    self._failure = self._failure or ActionRefused(f"closed_{code}", "closed")
                    return
            except (OSError, websockets.InvalidHandshake) as err:
                if isinstance(err, websockets.InvalidStatus) and err.response.status_code < 500:
                    body = err.response.body or b"{}"
                    data = json.loads(body) if body.startswith(b"{") else {}
                    self._failure = ActionRefused(
                        data.get("code", "refused"), data.get("message", str(err))
                    )
                    return
            finally:
                self._ws = None
            if self._closed:
                return
            self.reconnects += 1
            await asyncio.sleep(self._backoff[min(attempt, len(self._backoff) - 1)])
            attempt += 1

    async def _receive(self, ws: Any, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "snapshot":
            self.view, self.seq = message["view"], message["seq"]
            self._ready.set()
            self._notify()
        elif kind == "patch":
            seq = message["seq"]
            if "ack" in message:
                # Settled as it arrives, even if this patch is not applied (a repeat, or
                # a gap): the copy a resume replays carries no ack.
                ack = {"type": "ack", "ref": message["ack"], "seq": seq}
                self._settle(message["ack"], ack, None)
            if self.view is None or seq <= self.seq:
                return  # included already
            if seq != self.seq + 1:
                # A gap: the server replays what is missing from its history (or snapshots).
                await ws.send(json.dumps({"type": "resume", "lastSeq": self.seq}))
                return
            self.view = jsonpatch.apply_patch(self.view, message["ops"])
            self.seq = seq
            self.events.extend(message["events"])
            self._notify()
        elif kind == "ack":
            self._settle(message["ref"], message, None)
        elif kind == "error":
            ref = message.get("ref")
            refused = ActionRefused(message["code"], message["message"], ref)
            if ref is None and message["code"] == "rate_limited":
                # Dropped unread, so no ref says which: every unanswered action goes again
                # (the same ids, applied at most once), or one of them is never answered.
                self._resend_later()
            elif ref is None and self.view is None:
                self._failure = refused  # refused at connect: the socket closes next
            elif ref is not None:
                self._settle(ref, None, refused)
        elif kind == "ping" and "n" in message:
            # The server measuring the connection: answer at once.
            await ws.send(json.dumps({"type": "pong", "n": message["n"]}))
        # Other types (pong, and any a later v1 adds) need nothing.

    def _resend_later(self) -> None:
        if self._resend is None or self._resend.done():
            self._resend = asyncio.create_task(self._resend_pending())

    async def _resend_pending(self) -> None:
        await asyncio.sleep(self._rate_pause)
        ws = self._ws
        if ws is None:
            return  # reconnecting: the new socket sends them all
        for text, _ in list(self._pending.values()):
            with contextlib.suppress(websockets.ConnectionClosed):
                await ws.send(text)

    def _notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    def _settle(self, ref: str, ack: dict[str, Any] | None, err: Exception | None) -> None:
        entry = self._pending.pop(ref, None)
        if entry is None or entry[1].done():
            return
        if err is not None:
            entry[1].set_exception(err)
        else:
            entry[1].set_result(ack or {})

    # Use

    @property
    def me(self) -> int | None:
        return None if self.view is None else self.view.get("you")

    @property
    def legal(self) -> list[dict[str, Any]]:
        return [] if self.view is None else list(self.view.get("legal") or [])

    async def act(
        self, action: dict[str, Any], action_id: str | None = None, *, wait: bool = True
    ) -> dict[str, Any]:
        """Send ``action``; its ``ack`` (``{ref, seq}``), once the view includes it when
        ``wait``. Raises :class:`ActionRefused` when the server refuses it. Sent again
        with the same id after a reconnect until answered."""
        ref = action_id or f"c{secrets.token_hex(4)}-{next(_ids)}"
        text = json.dumps({"type": "action", "id": ref, "action": action})
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[ref] = (text, future)
        if self._ws is not None:
            with contextlib.suppress(websockets.ConnectionClosed):
                await self._ws.send(text)
        try:
            ack = await asyncio.wait_for(future, self._timeout)
        finally:
            self._pending.pop(ref, None)
        if wait:
            await self.wait_seq(ack["seq"])
        return ack

    async def wait_seq(self, seq: int, timeout: float = 15.0) -> None:
        """Until the view includes the change ``seq``."""
        async with asyncio.timeout(timeout):
            while self.seq < seq:
                self._raise_failure()
                await self.changed()

    async def changed(self, timeout: float | None = None) -> None:
        """Until the view changes next."""
        event = self._changed
        await asyncio.wait_for(event.wait(), timeout)
