"""Every server -> client message of the room socket: a pydantic model that fixes and
documents its shape (the JSON Schemas are generated from it, ``app.ws.schemas``), and
beside it, as the model's ``build``, the one function that makes it.

The builders make plain dicts without validating: a change is built once per audience
and serialised once, and validating it would cost more than building it. The models say
what the builders must make; ``tests/app/test_wire_messages.py`` holds each builder to its
model (the same fields, and what it builds validates), and the socket tests validate
every frame they receive against the schemas.
"""

from __future__ import annotations

from typing import Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field

from app.wire.content import Event, PatchOp, RaceOwn, View

# The protocol's version: the WebSocket subprotocol a client asks for, stated in every
# snapshot and at GET /api/protocol. Within a version only additions happen (new message
# types, new optional fields, new event types, new view keys); anything else is a new one.
VERSION = "uno.v1"


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SnapshotMessage(_Message):
    """The whole view; on connect (already including this connection) and on resync."""

    type: Literal["snapshot"]
    protocol: Literal["uno.v1"] = Field(description="the protocol version of this socket")
    seq: int
    ts: int
    view: View

    @staticmethod
    def build(seq: int, ts: int, view: dict[str, Any]) -> dict[str, Any]:
        return {"type": "snapshot", "protocol": VERSION, "seq": seq, "ts": ts, "view": view}


class PatchMessage(_Message):
    """One accepted change: ``ops`` (RFC 6902) turn your view at ``seq - 1`` into the view at
    ``seq``; ``events`` say what happened, as far as you may see it."""

    type: Literal["patch"]
    seq: int
    ts: int
    ops: list[PatchOp]
    events: list[Event]  # type: ignore[valid-type]
    ack: str | None = Field(
        default=None,
        description="only on a socket opened with `ack=patch`: the `id` of this socket's"
        " action that made this change, in place of a separate `ack {ref, seq}` with this"
        " `seq`",
    )

    @staticmethod
    def build(
        seq: int,
        ts: int,
        ops: list[dict[str, Any]],
        events: list[dict[str, Any]],
        ack: str | None = None,
    ) -> dict[str, Any]:
        out = {"type": "patch", "seq": seq, "ts": ts, "ops": ops, "events": events}
        if ack is not None:
            out["ack"] = ack
        return out

    @staticmethod
    def with_ack(text: str, ack: str) -> str:
        """The serialised patch ``text`` (built without ``ack``) with ``ack`` added: the
        acting socket's copy of a patch serialised once for its whole audience."""
        return f'{text[:-1]},"ack":{orjson.dumps(ack).decode()}}}'


class AckMessage(_Message):
    """Your action ``ref`` was accepted as the change ``seq``."""

    type: Literal["ack"]
    ref: str
    seq: int

    @staticmethod
    def build(ref: str, seq: int) -> dict[str, Any]:
        return {"type": "ack", "ref": ref, "seq": seq}


class RaceWinner(_Message):
    """The change a lost race went to: its ``seq``, action ``type`` and ``seat``."""

    seq: int
    type: str | None
    seat: int


class ErrorMessage(_Message):
    """Something you sent was refused; ``ref`` is the action's id when there was one. A
    ``too_late`` refusal names the change that won the race in ``won`` (when known)."""

    type: Literal["error"]
    ref: str | None
    code: str
    message: str
    won: RaceWinner | None = None
    race: RaceOwn | None = Field(default=None, description="a lost race: your own place")

    @staticmethod
    def build(
        code: str,
        message: str,
        ref: str | None = None,
        won: dict[str, Any] | None = None,
        race: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "error", "ref": ref, "code": code, "message": message}
        if won is not None:
            out["won"] = won
        if race is not None:
            out["race"] = race
        return out


class PongMessage(_Message):
    """Answers ``ping`` with the server's clock (ms since the epoch) when it was read: with
    the send and receive times of the ping, ``ts - (sent + received) / 2`` estimates the
    offset of the server's clock from yours."""

    type: Literal["pong"]
    ts: int

    @staticmethod
    def build(ts: int) -> dict[str, Any]:
        return {"type": "pong", "ts": ts}


class ServerPing(_Message):
    """The server measuring the connection: answer ``pong {n}`` with the same ``n`` at
    once (a few times at connect, then every second; a seat's socket in a room with
    ``fairRaces`` only)."""

    type: Literal["ping"]
    n: int

    @staticmethod
    def build(n: int) -> dict[str, Any]:
        return {"type": "ping", "n": n}


class ChatSaid(_Message):
    """Someone said ``text``: a seat (``seat``, ``name``) or, to spectators only, a
    spectator (``spectator``: true, no seat). Not a game change: no ``seq``."""

    type: Literal["chat"]
    seat: int | None
    name: str | None
    spectator: bool
    text: str
    ts: int

    @staticmethod
    def build(
        seat: int | None, name: str | None, spectator: bool, text: str, ts: int
    ) -> dict[str, Any]:
        return {
            "type": "chat",
            "seat": seat,
            "name": name,
            "spectator": spectator,
            "text": text,
            "ts": ts,
        }


class ReactionSent(_Message):
    """Someone sent a quick emote (as ``ChatSaid``, with ``emote`` instead of text)."""

    type: Literal["reaction"]
    seat: int | None
    name: str | None
    spectator: bool
    emote: str
    ts: int

    @staticmethod
    def build(
        seat: int | None, name: str | None, spectator: bool, emote: str, ts: int
    ) -> dict[str, Any]:
        return {
            "type": "reaction",
            "seat": seat,
            "name": name,
            "spectator": spectator,
            "emote": emote,
            "ts": ts,
        }


SERVER_MESSAGES: tuple[type[BaseModel], ...] = (
    SnapshotMessage,
    PatchMessage,
    AckMessage,
    ErrorMessage,
    PongMessage,
    ServerPing,
    ChatSaid,
    ReactionSent,
)


def error(code: str, message: str, ref: str | None = None) -> dict[str, Any]:
    """An ``error`` message (:meth:`ErrorMessage.build` without a race's details)."""
    return ErrorMessage.build(code, message, ref)
