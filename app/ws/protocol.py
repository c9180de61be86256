"""Every client -> server message of the room socket as a pydantic model, parsed in one
place.

Client messages are a union discriminated on ``type``; :func:`parse` turns raw text into
one of them or raises the one refusal type, :class:`~app.errors.RoomError` (400),
with a stable code. An ``action``, the one message of the hot path, is checked by hand
against its model's constraints and becomes an :class:`ActionFrame` (no pydantic model
per frame); one the check does not pass goes through the model, which says what is wrong.
The server -> client messages, and their builders, are in ``app.wire.messages`` (below
``app.rooms``, which builds the patches).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from app.errors import RoomError
from app.wire.content import Action
from app.wire.messages import VERSION

SUBPROTOCOLS = (VERSION,)  # the versions this server speaks
# The socket's ``?ack=``: an accepted action's ack as a frame of its own (``frame``, the
# default), or riding on the acting socket's patch of the change (``patch``).
ACK_MODES = ("frame", "patch")


class _ClientMessage(BaseModel):
    # Strict: a client sends exactly what the schemas allow (``"5"`` is no integer).
    model_config = ConfigDict(extra="forbid", strict=True)


# Client -> server


class ActionMessage(_ClientMessage):
    """Send an action for your seat. ``id`` is yours to choose, unique per seat; a retry
    with the same ``id`` is never applied twice and is answered with the first ``ack``."""

    type: Literal["action"]
    id: str = Field(min_length=1, max_length=100)
    action: dict[str, Any]
    react: int | None = Field(
        default=None,
        ge=0,
        le=60_000,
        strict=True,
        description="optional: ms from this client receiving the position the action answers"
        " to the player's press (believed only within a small margin of the server's own"
        " estimate; docs/fairness.md)",
    )


class ResumeMessage(_ClientMessage):
    """After a reconnect: the ``seq`` of the view you hold. Answered with the patches since
    (``patch`` messages, in order) or, when they are no longer kept, a ``snapshot``."""

    type: Literal["resume"]
    lastSeq: int = Field(ge=0)


class PingMessage(_ClientMessage):
    """Answered with ``pong``."""

    type: Literal["ping"]


class PongReply(_ClientMessage):
    """Answers the server's ``ping {n}`` at once: the server's own measure of this
    connection's round trip (used to judge races fairly; docs/fairness.md)."""

    type: Literal["pong"]
    n: int = Field(ge=0)


class EntropyMessage(_ClientMessage):
    """A seated client's contribution to the seed of deal ``deal`` (the next one: open in
    the lobby and between deals, once per seat and deal). See docs/fairness.md."""

    type: Literal["entropy"]
    deal: int = Field(ge=1)
    value: str = Field(min_length=1, max_length=64, pattern="^[0-9a-f]+$")


class ChatMessage(_ClientMessage):
    """Say something to the room (not a game change: no ``seq``). Relayed to everyone as
    ``chat``; a spectator's only to spectators. At most 200 characters, 5 messages (chat
    and reactions) per 10 s per socket; refused with ``chat_too_long``, ``chat_empty``,
    ``chat_rate`` or ``muted``."""

    type: Literal["chat"]
    text: str = Field(max_length=1000)


class ReactMessage(_ClientMessage):
    """A quick emote to the room, relayed as ``reaction`` (the same rules as ``chat``;
    ``bad_emote`` for one not in the list)."""

    type: Literal["react"]
    emote: str = Field(max_length=40)


# Every message but ``action`` (the hot path's, read apart: ActionFrame).
OtherMessage = ResumeMessage | PingMessage | PongReply | EntropyMessage | ChatMessage | ReactMessage
AnyClientMessage = ActionMessage | OtherMessage
ClientMessage = Annotated[AnyClientMessage, Field(discriminator="type")]
_client_adapter: TypeAdapter[AnyClientMessage] = TypeAdapter(ClientMessage)


class ActionMessageSchema(ActionMessage):
    """The documented form of ``action``: one of the action models. The server reads any
    object there and lets the engine refuse a malformed action with its own code
    (``unknown_action``, ``bad_cards``, ...)."""

    model_config = ConfigDict(title="ActionMessage")
    action: Action  # type: ignore[valid-type]


class ActionFrame:
    """An ``action`` message as read (the fields of :class:`ActionMessage`)."""

    __slots__ = ("action", "id", "react")

    def __init__(self, id: str, action: dict[str, Any], react: int | None) -> None:
        self.id = id
        self.action = action
        self.react = react


# What :func:`parse` returns: an ``action`` as read, any other message as its model.
Parsed = ActionFrame | OtherMessage
_ACTION_FIELDS = frozenset(("type", "id", "action", "react"))


def _action_frame(data: dict[str, Any]) -> ActionFrame | None:
    """``data`` as an :class:`ActionFrame` if it meets :class:`ActionMessage`'s
    constraints (strict types, no other field), else None."""
    ref, action, react = data.get("id"), data.get("action"), data.get("react")
    if (
        type(ref) is str
        and 1 <= len(ref) <= 100
        and type(action) is dict
        and (react is None or (type(react) is int and 0 <= react <= 60_000))
        and _ACTION_FIELDS.issuperset(data)
    ):
        return ActionFrame(ref, action, react)
    return None


CLIENT_TYPES = ("action", "resume", "ping", "pong", "entropy", "chat", "react")


CLIENT_MESSAGES: tuple[type[BaseModel], ...] = (
    ActionMessageSchema,
    ResumeMessage,
    PingMessage,
    PongReply,
    EntropyMessage,
    ChatMessage,
    ReactMessage,
)


def parse(text: str | bytes) -> Parsed:
    """One client message from its raw text (an ``action``: an :class:`ActionFrame`).

    :raises RoomError: ``bad_json`` (not JSON, or not an object), ``unknown_type``,
        ``bad_message`` (a field missing, of the wrong type, or not allowed).
    """
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError:
        raise RoomError(400, "bad_json", "a message must be one JSON object") from None
    if not isinstance(data, dict):
        raise RoomError(400, "bad_json", "a message must be one JSON object")
    kind = data.get("type")
    ref = data.get("id") if isinstance(data.get("id"), str) else None
    if kind not in CLIENT_TYPES:
        known = list(CLIENT_TYPES)
        raise RoomError(
            400, "unknown_type", f"unknown message type {kind!r}; known: {known}", ref=ref
        )
    if kind == "action":
        frame = _action_frame(data)
        if frame is not None:
            return frame
    try:
        message = _client_adapter.validate_python(data)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"][1:]) or "message"
        code = _FIELD_CODES.get(first["loc"][1:2], "bad_message")
        if code == "bad_entropy" and first["type"] == "string_too_long":
            code = "entropy_too_large"
        raise RoomError(400, code, f"{where}: {first['msg']}", ref=ref) from None
    if isinstance(message, ActionMessage):  # (the check above passes what the model does)
        return ActionFrame(message.id, message.action, message.react)
    return message


# Fields whose bad values have a code of their own.
_FIELD_CODES: dict[tuple[int | str, ...], str] = {
    ("react",): "bad_react",
    ("value",): "bad_entropy",
    ("deal",): "bad_entropy",
}
