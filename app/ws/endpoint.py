"""The socket endpoint ``/ws/rooms/{roomId}?token=``: handshake, receive loop, cleanup.

Handshake (app.ws.handshake, shared by every socket): the Origin must be allowed (else
HTTP 403 before accepting) and the protocol version one this server speaks (else HTTP 400
with an ``{"code", "message"}`` body; a client asking for no subprotocol speaks
``uno.v1``); then the room and token are checked after accepting, so that the client can
read why it is turned away (an ``error`` message, then a close with a 44xx code). A
seat's socket first commits its connection (``connect``, one seq) and then gets a
snapshot that already includes it.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import logging
import secrets
from typing import Any, assert_never

import orjson
from fastapi import APIRouter, WebSocket

import engine
from app.deps import AppSettings, Limits, Pinging, Rooms, Spectating
from app.errors import RoomError, not_found
from app.limits import RestLimits
from app.pinger import Pinger
from app.rooms import commands
from app.rooms.doc import player_by_token
from app.rooms.presence import connection_nodes
from app.rooms.service import CLOSE_UNAVAILABLE, RoomService, answer
from app.settings import Settings
from app.store import OUTAGE
from app.wire.messages import ErrorMessage, PongMessage, error
from app.ws.chat import ChatLimits, chat_message, reaction_message, speaker
from app.ws.connection import Connection, protocol_of
from app.ws.handshake import Agreed, agree, deny, refuse_open
from app.ws.limits import TokenBucket
from app.ws.protocol import (
    ACK_MODES,
    ActionFrame,
    ChatMessage,
    EntropyMessage,
    Parsed,
    PingMessage,
    PongReply,
    ReactMessage,
    ResumeMessage,
    parse,
)

log = logging.getLogger(__name__)
router = APIRouter()
# A command the room refused, or the store did not answer.
REFUSED: tuple[type[Exception], ...] = (RoomError, *OUTAGE)

UNAVAILABLE = "the room store cannot be reached; reconnect in a moment"
CLOSE_NOT_FOUND = 4404
CLOSE_BAD_TOKEN = 4401
CLOSE_NO_SPECTATORS = 4403
CLOSE_TOO_LARGE = 1009
CLOSE_TOO_MANY = 4429  # the seat's sockets, or the room's spectators, are at their cap
# A flood's drops are answered with this one string (the message is not read: no ref).
_RATE_LIMITED = orjson.dumps(error("rate_limited", "too many messages; slow down")).decode()


@router.websocket("/ws/rooms/{room_id}")
async def room_socket(
    websocket: WebSocket,
    room_id: str,
    settings: AppSettings,
    service: Rooms,
    limits: Limits,
    spectating: Spectating,
    pinger: Pinging,
    token: str | None = None,
    ack: str | None = None,
) -> None:
    agreed = await agree(websocket, settings)
    if agreed is None:
        return
    if ack is not None and ack not in ACK_MODES:
        message = f"ack must be one of {list(ACK_MODES)}"
        await deny(websocket, RoomError(400, "invalid_request", message))
        return
    subprotocol = agreed.subprotocol
    admitted, pid = await _admit(websocket, service, room_id, token, agreed)
    if not admitted:
        return
    address = _address(websocket)
    if pid is None and not spectating.take(room_id, address, settings.max_spectators_per_address):
        cap = settings.max_spectators_per_address
        message = f"this address holds {cap} spectator sockets of this room already"
        await refuse_open(
            websocket, agreed, RoomError(429, "too_many_sockets", message), CLOSE_TOO_MANY
        )
        return
    try:
        await _serve(
            websocket, settings, service, limits, pinger, room_id, pid, address, ack, subprotocol
        )
    finally:
        if pid is None:
            spectating.give_back(room_id, address)


def _address(websocket: WebSocket) -> str:
    """The client's address (the real client's behind a trusted proxy: uvicorn's
    ``--proxy-headers`` put it in the scope)."""
    client = websocket.client
    return client.host if client is not None else "unknown"


async def _serve(
    websocket: WebSocket,
    settings: Settings,
    service: RoomService,
    limits: RestLimits,
    pinger: Pinger,
    room_id: str,
    pid: str | None,
    address: str,
    ack: str | None,
    subprotocol: str | None,
) -> None:
    """The admitted socket's life: its connection committed, its snapshot, its messages,
    and its closing undone in the room."""
    await websocket.accept(subprotocol=subprotocol)
    conn = Connection(
        websocket,
        service,
        room_id,
        pid,
        delay_cap_ms=settings.race_delay_cap_ms,
        ws_slack_ms=settings.race_ws_slack_ms,
        ack_in_patch=ack == "patch",
        pinger=pinger,
    )
    sender = asyncio.create_task(conn.run_sender())
    connected = False
    # The socket's id in its seat's record: its connect and disconnect count once however
    # often they are sent (a commit whose answer an outage lost may have landed).
    sock = secrets.token_hex(8)
    try:
        await service.listen(room_id, conn)
        # A seat's connection is a change of the room (a spectator's is counted quietly);
        # the snapshot below already includes it.
        opening = (
            commands.Connect(pid=pid, max=settings.max_sockets_per_seat, sock=sock)
            if pid is not None
            else commands.Watch(max=settings.max_spectators)
        )
        try:
            await service.submit(room_id, opening)
        except REFUSED as err:
            if pid is not None and _uncertain(err):
                # Unanswered, yet perhaps committed: counted off once the store is back
                # (a no-op if it never landed), or the seat counts a socket nobody holds.
                service.disconnect_later(room_id, commands.Disconnect(pid=pid, sock=sock))
            raise
        connected = True
        # Its round trip is measured from here on where the room races (fairRaces).
        await conn.snapshot()
        talk = ChatLimits(limits, settings.chat_rate, settings.spectator_chat_rate)
        await _receive(websocket, settings, service, conn, talk, address)
    except RoomError as err:
        conn.send(error(err.code, err.message))
        if err.status == 429:
            conn.close(CLOSE_TOO_MANY)
        elif err.code in ("unavailable", "timeout"):
            conn.close(CLOSE_UNAVAILABLE)  # the store's outage: reconnect in a moment
        else:
            conn.close(1011 if err.status >= 500 else CLOSE_BAD_TOKEN)
    except OUTAGE as err:
        # The store went away: the client reconnects (and resumes) once it is back.
        log.warning("room %s: the store cannot be reached: %r", room_id, err)
        conn.send(error("unavailable", UNAVAILABLE))
        conn.close(CLOSE_UNAVAILABLE)
    except Exception:
        log.exception("room %s: socket handler failed", room_id)
        conn.close(1011)
    finally:
        try:
            await service.unlisten(room_id, conn)
        except OUTAGE:
            pass  # resubscribed or dropped with the store's connection when it is back
        if connected and not conn.ended:
            # Only a committed connection is undone (another device may hold the seat).
            # Shielded: the handler may be cancelled at shutdown, the seat must still go
            # offline in the room's view.
            closing = (
                commands.Disconnect(pid=pid, sock=sock) if pid is not None else commands.Unwatch()
            )
            with contextlib.suppress(Exception):
                await asyncio.shield(_disconnect(service, room_id, closing))
        conn.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(sender, timeout=1)


async def _admit(
    websocket: WebSocket,
    service: RoomService,
    room_id: str,
    token: str | None,
    agreed: Agreed,
) -> tuple[bool, str | None]:
    """Whether the room lets this socket in (refused with its code if not), and the seat's
    player id (None: a spectator). The room is loaded here, not in the handler: a socket
    lives for hours, and the room as it was at the handshake (its document and deal log)
    would stay in memory with it."""
    try:
        record = await service.store.load(room_id) if _plausible(room_id, 64) else None
    except OUTAGE as err:
        log.warning("room %s: the store cannot be reached at a handshake: %r", room_id, err)
        await refuse_open(
            websocket, agreed, RoomError(503, "unavailable", UNAVAILABLE), CLOSE_UNAVAILABLE
        )
        return False, None
    if record is None:
        await refuse_open(websocket, agreed, not_found(room_id), CLOSE_NOT_FOUND)
        return False, None
    if token is not None:
        # An empty token is a token that holds no seat, not a spectator's missing one.
        player = player_by_token(record.doc, token) if _plausible(token, 128) else None
        if player is None:
            refused = RoomError(401, "bad_token", "this token holds no seat")
            await refuse_open(websocket, agreed, refused, CLOSE_BAD_TOKEN)
            return False, None
        pid: str = player["pid"]
        return True, pid
    if not record.doc["spectators"]:
        refused = RoomError(403, "no_spectators", "this room has no spectators")
        await refuse_open(websocket, agreed, refused, CLOSE_NO_SPECTATORS)
        return False, None
    return True, None


def _plausible(text: str, longest: int) -> bool:
    """Ids and tokens are short and printable; anything else names nothing."""
    return len(text) <= longest and text.isprintable()


def _uncertain(err: BaseException) -> bool:
    """Whether a command that failed with ``err`` may be sent again: refused by the store
    (in no log), or unanswered (its writer's commit failed mid-outage, or it did not answer
    in time: it may have landed, which a socket's id makes harmless)."""
    if isinstance(err, RoomError):
        return err.code in ("unavailable", "timeout")
    return isinstance(err, OUTAGE)


async def _disconnect(
    service: RoomService, room_id: str, command: commands.Disconnect | commands.Unwatch
) -> None:
    """Log a socket's closing. Refused by the store or unanswered (an outage): offered
    again until it is answered, or the seat keeps counting this socket and refuses its
    client's reconnects (too_many_sockets). A seat's socket closes by its id, so a closing
    sent twice counts once; a spectator's is sent again only when refused (in no log)."""
    try:
        await service.submit(room_id, command)
    except REFUSED as err:
        if _uncertain(err) and (
            commands.closes_by_id(command)
            or not (isinstance(err, RoomError) and err.code == "timeout")
        ):
            service.disconnect_later(room_id, command)


async def _receive(
    websocket: WebSocket,
    settings: Settings,
    service: RoomService,
    conn: Connection,
    talk: ChatLimits,
    address: str,
) -> None:
    """Read the socket's messages until it closes: each in the frame callback of our
    transport (app.ws.transport) where it can be, else here, in the order they came."""
    reader = _Reader(settings, service, conn, talk, address)
    protocol = protocol_of(websocket)
    hooked = hasattr(protocol, "on_text")  # None under another server: all read here
    if hooked:
        protocol.on_text = reader.now
    try:
        await reader.run(websocket)
    finally:
        if hooked:
            protocol.on_text = None


class _Ended:
    """The socket is closing: the receive loop stops."""


_ENDED = _Ended()


@dataclasses.dataclass(slots=True)
class _Placing:
    """An action's command, checked and timed, to be placed in its room's order."""

    ref: str
    command: commands.Command


# What the frame callback left to the receive loop of the message it let through to the
# ASGI queue, read already: the message itself (it needs waiting), an action's command
# (its room's writer is elsewhere), the socket's end, or the error it raised.
_Left = Parsed | _Placing | _Ended | Exception


class _Reader:
    """A room socket's incoming messages, each read once, in arrival order.

    Most are read in the protocol's frame callback (:meth:`now`): a ping, a pong, any
    refusal, an action for a room whose writer runs on this node; a task switch, the
    ASGI queue and the middleware fewer per message. Anything that must wait (a chat
    line, a resume, entropy, an action for a writer elsewhere) goes on to the receive
    loop (:meth:`run`), and so does every later message until the loop has read it:
    one client's actions are never reordered."""

    def __init__(
        self,
        settings: Settings,
        service: RoomService,
        conn: Connection,
        talk: ChatLimits,
        address: str,
    ) -> None:
        self.service = service
        self.conn = conn
        self.talk = talk
        self.address = address
        self.bucket = TokenBucket(settings.rate_per_second, settings.rate_burst)
        self.limit = settings.max_message_bytes
        # The loop waits for the next message with every earlier one read: only then may
        # the callback read one (else it would pass a message still on its way).
        self._caught_up = False
        self._left: _Left | None = None

    def now(self, raw: str) -> bool:
        """Read a text message as it arrives. False: it goes the ASGI way (its transport
        queues it, next), to the receive loop, carrying on from :attr:`_left`."""
        if not self._caught_up:
            return False
        try:
            left = self._read_now(raw)
        except Exception as err:
            left = err  # raised in the loop, as if it had been read there
        if left is None:
            return True
        self._left = left
        self._caught_up = False
        return False

    def _read_now(self, raw: str) -> _Left | None:
        """What of ``raw`` is left once read here (None: all of it)."""
        checked = self._check(raw)
        if checked is None or isinstance(checked, _Ended):
            return checked
        if isinstance(checked, ActionFrame):
            placing = _prepare(self.conn, checked)
            if placing is None or _place_now(self.service, self.conn, placing):
                return None
            return placing
        return None if self._answer(checked) else checked

    async def run(self, websocket: WebSocket) -> None:
        """The receive loop: the messages the callback left, until the socket closes."""
        while True:
            self._caught_up = True
            message = await websocket.receive()
            self._caught_up = False
            if message["type"] == "websocket.disconnect":
                return
            left, self._left = self._left, None
            if left is None:
                left = self._check(message.get("text"))
            if left is None:
                continue
            if isinstance(left, _Ended):
                return
            if isinstance(left, Exception):
                raise left
            await self._dispatch(left)

    def _check(self, raw: str | None) -> Parsed | _Ended | None:
        """A message's checks before it is acted on: the rate, text, size, its parse.
        None: refused (answered); _ENDED: the socket closes."""
        conn = self.conn
        if not self.bucket.allow():
            # Before anything is read of the message: a flood costs a token check each.
            # Dropped, but answered, so that the client learns why (its pending actions
            # may be sent again with the same id: applied at most once).
            conn.send(_RATE_LIMITED)
            return None
        if raw is None:
            conn.send(error("text_only", "messages are JSON in text frames, not binary"))
            return None
        limit = self.limit
        # A character is 1-4 bytes in UTF-8: encode only when the length could be over.
        if len(raw) * 4 > limit and len(raw.encode()) > limit:
            conn.send(error("too_large", f"messages are limited to {limit} bytes"))
            conn.close(CLOSE_TOO_LARGE)
            return _ENDED
        try:
            return parse(raw)
        except RoomError as err:
            conn.send(error(err.code, err.message, err.ref))
            return None

    def _answer(self, message: Parsed) -> bool:
        """Answer a message that needs no waiting (a ping, a pong): False if it does."""
        if isinstance(message, PingMessage):
            self.conn.send(PongMessage.build(self.service.now_ms()))
        elif isinstance(message, PongReply):
            self.conn.on_pong(message.n)
        else:
            return False
        return True

    async def _dispatch(self, left: Parsed | _Placing) -> None:
        service, conn = self.service, self.conn
        if isinstance(left, _Placing):
            await _place(service, conn, left)
        elif isinstance(left, ActionFrame):
            await _action(service, conn, left)
        elif self._answer(left):
            pass
        elif isinstance(left, EntropyMessage):
            await _entropy(service, conn, left)
        elif isinstance(left, (ChatMessage, ReactMessage)):
            await _talk(service, conn, left, self.talk, self.address)
        elif isinstance(left, ResumeMessage):
            await conn.resume(left.lastSeq)
        else:
            assert not isinstance(left, (PingMessage, PongReply))  # (answered above)
            assert_never(left)


async def _talk(
    service: RoomService,
    conn: Connection,
    message: ChatMessage | ReactMessage,
    limits: ChatLimits,
    address: str,
) -> None:
    """A chat line or reaction: checked, then relayed to the room's sockets (app.ws.chat)."""
    refused = await limits.refusal(conn.room_id, conn.pid, address)
    if refused is not None:
        conn.send(error(refused.code, refused.message))
        return
    record = await service.load(conn.room_id)
    try:
        who = speaker(record.doc, conn.pid)
        if isinstance(message, ChatMessage):
            said = chat_message(who, message.text, service.now_ms())
        else:
            said = reaction_message(who, message.emote, service.now_ms())
    except RoomError as err:
        conn.send(error(err.code, err.message))
        return
    await service.say(conn.room_id, said, connection_nodes(record.doc))


async def _action(
    service: RoomService,
    conn: Connection,
    message: ActionFrame,
) -> None:
    placing = _prepare(conn, message)
    if placing is not None:
        await _place(service, conn, placing)


def _prepare(conn: Connection, message: ActionFrame) -> _Placing | None:
    """An action's command, timed at its arrival (None: refused, and answered)."""
    # Timed first: the claim's arrival is now, not after parsing.
    timing = conn.timing(message.action.get("at"), message.react)
    ref = message.id
    if conn.pid is None:
        conn.send(error("spectator", "spectators cannot act", ref))
        return None
    command: commands.Command
    if message.action.get("type") == "back":
        # "I'm back": a room command, not a move (no engine action, no ack of a move).
        command = commands.Back(pid=conn.pid, ref=ref)
    else:
        try:
            # Parsed once, here: the room and the engine take the Action as it is.
            action = engine.parse_action(message.action)
        except engine.EngineError as err:
            conn.send(error(err.code, err.message, ref))
            return None
        command = commands.Action(pid=conn.pid, ref=ref, action=action, timing=timing)
    conn.sending(ref)  # before it can be applied: its change may come before the answer
    return _Placing(ref, command)


async def _place(service: RoomService, conn: Connection, placing: _Placing) -> None:
    """Place an action's command in its room's order, through the log if need be."""
    try:
        # Appended here, in the receive loop, so one client's actions keep their order;
        # the answer is sent when it comes, while the next message is read meanwhile.
        future = await service.enqueue(conn.room_id, placing.command)
    except RoomError as err:
        _refused(conn, placing.ref, err)
        return
    _await_answer(conn, placing.ref, future)


def _place_now(service: RoomService, conn: Connection, placing: _Placing) -> bool:
    """Place an action's command without waiting: False if its room's writer is not
    here to take it (nothing done: :func:`_place` it)."""
    try:
        future = service.try_local(conn.room_id, placing.command)
    except RoomError as err:
        _refused(conn, placing.ref, err)
        return True
    if future is None:
        return False
    _await_answer(conn, placing.ref, future)
    return True


def _refused(conn: Connection, ref: str, err: RoomError) -> None:
    conn.unanswered(ref)
    conn.send(error(err.code, err.message, ref))


def _await_answer(conn: Connection, ref: str, future: asyncio.Future[dict[str, Any]]) -> None:
    # A callback, not a task per action: the answer needs no waiting of its own.
    future.add_done_callback(functools.partial(_answer, conn, ref))


async def _entropy(service: RoomService, conn: Connection, message: EntropyMessage) -> None:
    """Into the room's log like an action; refusals come back as ``error`` (no ``ref``),
    acceptance as the ``entropy`` event of the change it makes."""
    if conn.pid is None:
        conn.send(error("spectator", "spectators do not shuffle"))
        return
    command = commands.Entropy(pid=conn.pid, deal=message.deal, value=message.value)
    try:
        future = await service.enqueue(conn.room_id, command)
    except RoomError as err:
        conn.send(error(err.code, err.message))
        return
    future.add_done_callback(functools.partial(_entropy_answer, conn))


def _entropy_answer(conn: Connection, future: asyncio.Future[dict[str, Any]]) -> None:
    if future.cancelled():
        return
    try:
        answer(future)
    except RoomError as err:
        conn.send(error(err.code, err.message))


def _answer(conn: Connection, ref: str, future: asyncio.Future[dict[str, Any]]) -> None:
    if future.cancelled():
        conn.unanswered(ref)
        return
    try:
        result = answer(future)
    except RoomError as err:
        if conn.unanswered(ref):
            return  # its patch said it was accepted (an answer that came too late)
        # A lost race's details: the change that won, and the claim's own place.
        won, race = err.detail.get("won"), err.detail.get("race")
        conn.send(ErrorMessage.build(err.code, err.message, ref, won, race))
        return
    conn.accepted(ref, result["seq"])
