"""A network link with latency, in user space: a TCP proxy on loopback that holds every
chunk of bytes for half a round trip in each direction.

Unlike a delay inside a client, it delays everything on the wire: WebSocket ping frames
and their pongs (answered by the client's WebSocket library) as much as the application's
messages, as a distant network does. ``extra_pong_s`` holds the client's *pong frames*
longer still (a client that stretches even its WebSocket stack's answers).

    link = await DelayedLink.start(("127.0.0.1", server_port), rtt=0.2)
    ws = await websockets.connect(f"ws://127.0.0.1:{link.port}/ws/...")
    ...
    await link.close()

Used by tests/app/test_fair_races.py and bench/races.py (no kernel netem needed).
"""

from __future__ import annotations

import asyncio
import contextlib
import time

_PONG = 0xA


class DelayedLink:
    """One listening port; every connection to it is forwarded to ``target``."""

    def __init__(self, target: tuple[str, int], rtt: float, extra_pong_s: float) -> None:
        self.target = target
        self.half = rtt / 2
        self.extra_pong = extra_pong_s
        self.port = 0
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._writers: set[asyncio.StreamWriter] = set()

    @classmethod
    async def start(
        cls, target: tuple[str, int], rtt: float, extra_pong_s: float = 0.0
    ) -> DelayedLink:
        link = cls(target, rtt, extra_pong_s)
        link._server = await asyncio.start_server(link._accept, "127.0.0.1", 0)
        link.port = link._server.sockets[0].getsockname()[1]
        return link

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.close()
            return
        self._writers |= {writer, up_writer}
        frames = _FrameSplitter() if self.extra_pong else None
        for task in (
            asyncio.create_task(self._pump(reader, up_writer, frames)),
            asyncio.create_task(self._pump(up_reader, writer, None)),
        ):
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _pump(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        frames: _FrameSplitter | None,
    ) -> None:
        """Forward what ``reader`` reads, each piece ``half`` s after it was read (pong
        frames of a splitting direction ``extra_pong`` s later still), in due order."""
        queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()
        held: list[tuple[float, int, bytes]] = []  # pongs held past the stream's order
        order = 0

        async def forward() -> None:
            while True:
                wait = None if not held else max(0.0, held[0][0] - time.monotonic())
                try:
                    due, data = await asyncio.wait_for(queue.get(), wait)
                except TimeoutError:
                    writer.write(held.pop(0)[2])  # a held pong is due, nothing before it
                    continue
                if not data:
                    break
                while held and held[0][0] <= due:
                    await _wait_until(held[0][0])
                    writer.write(held.pop(0)[2])
                await _wait_until(due)
                writer.write(data)
                await writer.drain()
            with contextlib.suppress(Exception):
                writer.close()

        sender = asyncio.create_task(forward())
        try:
            while True:
                data = await reader.read(65536)
                now = time.monotonic()
                if not data:
                    break
                pieces = [(data, False)] if frames is None else frames.feed(data)
                for piece, is_pong in pieces:
                    if is_pong:
                        order += 1
                        held.append((now + self.half + self.extra_pong, order, piece))
                        held.sort()
                    else:
                        queue.put_nowait((now + self.half, piece))
        except (ConnectionError, OSError):
            pass
        finally:
            queue.put_nowait((time.monotonic() + self.half, b""))
            with contextlib.suppress(Exception):
                await sender

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
        for writer in self._writers:
            writer.close()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task


async def _wait_until(due: float) -> None:
    wait = due - time.monotonic()
    if wait > 0:
        await asyncio.sleep(wait)


class _FrameSplitter:
    """Cuts a client's byte stream (after the HTTP upgrade) into WebSocket frames, so that
    pong frames can be held apart: [(bytes, is_pong)]."""

    def __init__(self) -> None:
        self.buffer = b""
        self.upgraded = False

    def feed(self, data: bytes) -> list[tuple[bytes, bool]]:
        self.buffer += data
        out: list[tuple[bytes, bool]] = []
        if not self.upgraded:
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return out
            out.append((self.buffer[: end + 4], False))
            self.buffer = self.buffer[end + 4 :]
            self.upgraded = True
        while len(self.buffer) >= 2:
            length = self.buffer[1] & 0x7F
            offset = 2
            if length == 126:
                if len(self.buffer) < 4:
                    break
                length, offset = int.from_bytes(self.buffer[2:4], "big"), 4
            elif length == 127:
                if len(self.buffer) < 10:
                    break
                length, offset = int.from_bytes(self.buffer[2:10], "big"), 10
            if self.buffer[1] & 0x80:
                offset += 4  # the client's mask
            size = offset + length
            if len(self.buffer) < size:
                break
            frame, self.buffer = self.buffer[:size], self.buffer[size:]
            out.append((frame, frame[0] & 0x0F == _PONG))
        return out
