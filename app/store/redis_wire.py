"""The single-Redis store's batches on a lean wire: each loop turn's commands packed into
RESP bytes as they are issued (hiredis's ``pack_command``), written at once on a
connection of the batcher's own, and their replies parsed by a ``hiredis.Reader`` and
handed to the callers' futures in the order the commands were written.

What redis-py's pipeline costs per batch and per command (a pipeline object, a pooled
connection's checkout, its packing and its generic reply reading) is left out; what each
caller sees is the same: its own reply (parsed by redis-py's response callback for that
command, as a pipeline does), an error reply as the exception redis-py raises for it
(NOSCRIPT as ``NoScriptError``, Redis out of memory as :class:`StoreFull`), and the
connection failing as a ``redis.ConnectionError`` for every command written on it and
not answered yet. The next batch connects again.

The lean wire speaks RESP2 over TCP or a unix socket, with AUTH and SELECT as the URL
says; a URL it does not serve (TLS, Sentinel, RESP3, read timeouts) keeps redis-py's
pipeline (:func:`batcher_for`).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

import hiredis
from redis._parsers.base import BaseParser
from redis.asyncio.connection import Connection, UnixDomainSocketConnection
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import InvalidResponse
from redis.exceptions import TimeoutError as RedisTimeoutError

from app.store.redis_common import Batcher, settle

# A reply's parser: redis-py's response callback for its command (None: as it came).
Callback = Callable[[Any], Any] | None

# Connection options of a URL the lean wire serves as redis-py would (or ignores, as
# redis-py's own pipeline does for the store: they are for other clients' features).
_SERVED = frozenset(
    (
        "host",
        "port",
        "path",
        "db",
        "username",
        "password",
        "client_name",
        "socket_connect_timeout",
        "himport_registry",
        "maint_notifications_pool_handler",
        "maint_notifications_config",
        "orig_host_address",
        "orig_socket_timeout",
        "orig_socket_connect_timeout",
    )
)


@dataclass(frozen=True, slots=True)
class Address:
    """Where and how the lean wire connects (from the URL, as redis-py parsed it)."""

    host: str = "localhost"
    port: int = 6379
    path: str | None = None  # a unix socket
    db: int = 0
    username: str | None = None
    password: str | None = None
    client_name: str | None = None
    connect_timeout: float | None = None


def address_of(client: Any) -> Address | None:
    """How the lean wire reaches ``client``'s Redis, or None when it cannot do it as
    redis-py does (TLS, Sentinel, RESP3, a read timeout, a credential provider...)."""
    pool = client.connection_pool
    kind = pool.connection_class
    options: dict[str, Any] = pool.connection_kwargs
    if kind not in (Connection, UnixDomainSocketConnection) or not options.keys() <= _SERVED:
        return None
    return Address(
        host=options.get("host", "localhost"),
        port=int(options.get("port", 6379)),
        path=options.get("path") if kind is UnixDomainSocketConnection else None,
        db=int(options.get("db") or 0),
        username=options.get("username"),
        password=options.get("password"),
        client_name=options.get("client_name"),
        connect_timeout=options.get("socket_connect_timeout"),
    )


def batcher_for(client: Any) -> Batcher:
    """The lean wire's batcher for ``client``'s Redis, or redis-py's pipeline for a URL
    the lean wire does not serve."""
    address = address_of(client)
    return Batcher(client) if address is None else LeanBatcher(client, address)


class _Wire(asyncio.Protocol):
    """One connection to Redis: commands written in batches, replies handed over in order."""

    def __init__(self) -> None:
        # Error replies become the exceptions redis-py raises for them.
        self._reader = hiredis.Reader(
            protocolError=InvalidResponse, replyError=BaseParser.parse_error
        )
        self._waiting: deque[tuple[asyncio.Future[Any], Callback]] = deque()
        self._transport: asyncio.Transport | None = None
        self._closed = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = cast(asyncio.Transport, transport)

    @property
    def usable(self) -> bool:
        """Whether a batch written now would reach Redis (a transport closing drops it)."""
        return not self._closed and self._transport is not None and not self._transport.is_closing()

    def send(
        self, packed: list[bytes], waiting: list[tuple[asyncio.Future[Any], Callback]]
    ) -> None:
        if not self.usable or self._transport is None:  # lost since: no reply would come
            lost = RedisConnectionError("connection to Redis lost")
            for future, _ in waiting:
                settle(future, lost)
            return
        self._transport.write(b"".join(packed))
        self._waiting.extend(waiting)

    def data_received(self, data: bytes) -> None:
        self._reader.feed(data)
        try:
            while (reply := self._reader.gets()) is not False:
                future, callback = self._waiting.popleft()
                if callback is not None and not isinstance(reply, Exception):
                    try:
                        reply = callback(reply)
                    except Exception as err:  # as redis-py would raise it to its caller
                        reply = err
                settle(future, reply)
        except (InvalidResponse, IndexError) as err:  # nothing after this can be read
            self._fail(RedisConnectionError(f"unreadable reply from Redis: {err!r}"))
            self.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self._fail(RedisConnectionError(f"connection to Redis lost: {exc!r}"))

    def _fail(self, err: Exception) -> None:
        self._closed = True
        while self._waiting:
            settle(self._waiting.popleft()[0], err)

    def close(self) -> None:
        self._closed = True
        if self._transport is not None:
            self._transport.close()


class LeanBatcher(Batcher):
    """:class:`Batcher`'s batches on the lean wire (see the module's docstring)."""

    def __init__(self, client: Any, address: Address) -> None:
        super().__init__(client)
        self._address = address
        self._callbacks: dict[str, Callable[..., Any]] = dict(client.response_callbacks)
        self._packed: list[bytes] = []
        self._waiting: list[tuple[asyncio.Future[Any], Callback]] = []
        self._wire: _Wire | None = None
        self._connecting: asyncio.Task[_Wire] | None = None

    def _queue(self, args: tuple[Any, ...], future: asyncio.Future[Any]) -> None:
        # Packed now: arguments Redis cannot be sent (None, a bool) fail their caller alone.
        self._packed.append(hiredis.pack_command(args))
        self._waiting.append((future, self._callbacks.get(args[0])))

    def _flush(self) -> None:
        self._scheduled = False
        packed, waiting = self._packed, self._waiting
        self._packed, self._waiting = [], []
        wire = self._wire
        if wire is not None and wire.usable:
            wire.send(packed, waiting)
        elif packed:
            self._spawn(self._send_later(packed, waiting))

    async def _send_later(
        self, packed: list[bytes], waiting: list[tuple[asyncio.Future[Any], Callback]]
    ) -> None:
        """Send a batch once the wire is connected (again)."""
        try:
            wire = await self._connected()
        except asyncio.CancelledError:
            for future, _ in waiting:
                future.cancel()
            raise
        except Exception as err:  # Redis cannot be reached: every command failed
            for future, _ in waiting:
                settle(future, err)
            return
        wire.send(packed, waiting)

    async def _connected(self) -> _Wire:
        """The live wire, connected now if need be (by one batch for all that wait)."""
        wire = self._wire
        if wire is not None and wire.usable:
            return wire
        if self._connecting is None or self._connecting.done():
            self._connecting = asyncio.create_task(self._connect(), name="redis-wire-connect")
        # Shielded: a waiter cancelled does not cancel the connection the others await.
        return await asyncio.shield(self._connecting)

    async def _connect(self) -> _Wire:
        address = self._address
        loop = asyncio.get_running_loop()
        try:
            async with asyncio.timeout(address.connect_timeout):
                if address.path is not None:
                    _, wire = await loop.create_unix_connection(_Wire, address.path)
                else:
                    _, wire = await loop.create_connection(_Wire, address.host, address.port)
        except TimeoutError:
            raise RedisTimeoutError("timed out connecting to Redis") from None
        except OSError as err:
            raise RedisConnectionError(f"cannot connect to Redis: {err!r}") from None
        try:
            await self._handshake(wire)
        except BaseException:
            wire.close()
            raise
        self._wire = wire
        return wire

    async def _handshake(self, wire: _Wire) -> None:
        """AUTH, SELECT and CLIENT SETNAME as the URL says, before any batch is sent."""
        address = self._address
        commands: list[tuple[Any, ...]] = []
        if address.password is not None:
            user = () if address.username is None else (address.username,)
            commands.append(("AUTH", *user, address.password))
        if address.db:
            commands.append(("SELECT", address.db))
        if address.client_name:
            commands.append(("CLIENT", "SETNAME", address.client_name))
        if not commands:
            return
        loop = asyncio.get_running_loop()
        futures = [loop.create_future() for _ in commands]
        wire.send(
            [hiredis.pack_command(command) for command in commands],
            [(future, None) for future in futures],
        )
        for future in futures:
            await future

    async def close(self) -> None:
        if self._connecting is not None:
            self._connecting.cancel()
            with contextlib.suppress(BaseException):
                await self._connecting
        if self._wire is not None:
            self._wire.close()
            self._wire = None
