"""The room commands: one dataclass per kind, and the one codec between them and the log.

A room changes only through commands in its log (REST, sockets, the room's own timers and
the writer all append them). In the log a command is a JSON object
``{"k": kind, "cid", "node", ...its fields}``; :func:`decode` turns one into its dataclass
and :func:`encode` back. The room machine judges the dataclasses
(``app.rooms.machine.HANDLERS`` names the handler of each kind), so a search for a
command's class finds both who sends it and what it does.

The envelope every command may carry: ``cid`` (the id its sender waits on), ``node`` (the
node that sent it, where the answer goes) and ``at`` (for the socket commands a writer
makes for a dead node: the node the socket lived on).

A game action is an :class:`engine.Action` from the socket (which parses it) to the engine;
in the log it is its wire form (docs/protocol.md, "Actions"): :func:`encode` writes it,
:func:`decode` parses it back, once, as it reads the entry.
"""

from __future__ import annotations

import logging
from dataclasses import MISSING, dataclass, fields, replace
from types import UnionType
from typing import Any, ClassVar, TypeVar, Union, get_args, get_origin, get_type_hints

import engine
from app.errors import RoomError

log = logging.getLogger(__name__)


class MalformedCommand(ValueError):
    """A log entry of a known kind without a field its command needs."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Command:
    KIND: ClassVar[str] = ""
    cid: str | None = None
    node: str | None = None


# Seats


@dataclass(frozen=True, slots=True, kw_only=True)
class Join(Command):
    """A guest takes the lowest free seat (``token``: the hash of its seat token). A
    player signed in to an account joins with the account's id as ``pid`` and its
    ``rating`` in the room's pool (shown on the seat)."""

    KIND: ClassVar[str] = "join"
    pid: str
    name: str
    token: str
    age: bool = False
    rating: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Bot(Command):
    KIND: ClassVar[str] = "bot"
    level: str = "normal"


@dataclass(frozen=True, slots=True, kw_only=True)
class Leave(Command):
    KIND: ClassVar[str] = "leave"
    pid: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Kick(Command):
    KIND: ClassVar[str] = "kick"
    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Reseat(Command):
    """A tournament seats another player in a seat (a re-seat between tables);
    ``rating``: an account's rating in the room's pool (None: a guest)."""

    KIND: ClassVar[str] = "reseat"
    seat: int
    pid: str
    name: str
    token: str
    rating: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Mute(Command):
    KIND: ClassVar[str] = "mute"
    seat: int
    muted: bool = True


@dataclass(frozen=True, slots=True, kw_only=True)
class Unban(Command):
    KIND: ClassVar[str] = "unban"
    name: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Claim(Command):
    """The present player of two claims the match, the opponent away."""

    KIND: ClassVar[str] = "claim"
    pid: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Back(Command):
    KIND: ClassVar[str] = "back"
    pid: str
    ref: str | None = None


# Sockets


@dataclass(frozen=True, slots=True, kw_only=True)
class Connect(Command):
    """A seat's socket opened (``sock``: its id; ``max``: the seat's cap)."""

    KIND: ClassVar[str] = "connect"
    pid: str
    max: int | None = None
    sock: str | None = None
    at: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Disconnect(Command):
    KIND: ClassVar[str] = "disconnect"
    pid: str
    sock: str | None = None
    at: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Watch(Command):
    KIND: ClassVar[str] = "watch"
    max: int | None = None
    at: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Unwatch(Command):
    KIND: ClassVar[str] = "unwatch"
    at: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Watchers(Command):
    """The room's own refresh of the spectator count its views show."""

    KIND: ClassVar[str] = "watchers"


@dataclass(frozen=True, slots=True, kw_only=True)
class Delay(Command):
    """A seat's connection measured its credited delay (not a change of the room)."""

    KIND: ClassVar[str] = "delay"
    pid: str = ""
    ms: int | None = None


# The host and the table


@dataclass(frozen=True, slots=True, kw_only=True)
class Settings(Command):
    KIND: ClassVar[str] = "settings"
    changes: dict[str, Any]


@dataclass(frozen=True, slots=True, kw_only=True)
class Start(Command):
    """Deal the first hand (``absentAway``: seats nobody holds start away)."""

    KIND: ClassVar[str] = "start"
    absentAway: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Pause(Command):
    KIND: ClassVar[str] = "pause"


@dataclass(frozen=True, slots=True, kw_only=True)
class Unpause(Command):
    KIND: ClassVar[str] = "unpause"


# Play


@dataclass(frozen=True, slots=True, kw_only=True)
class Action(Command):
    """A seat's game action (docs/protocol.md, "Actions"), ``ref`` the client's id for it.

    The room's own claims for the seats it plays carry ``by``; the writer adds ``race``
    (the won race's marks) or ``lost`` (a lost claim window) to a claim it held;
    ``timing`` is the client's measured delay."""

    KIND: ClassVar[str] = "action"
    pid: str
    ref: str | None
    action: engine.Action
    by: str | None = None
    race: dict[str, Any] | None = None
    lost: dict[str, Any] | None = None
    timing: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Entropy(Command):
    """A seat's contribution to the next deal's shuffle (app.rooms.shuffle_proof)."""

    KIND: ClassVar[str] = "entropy"
    pid: str
    deal: int | None = None
    value: str | None = None


# The room's own timers


@dataclass(frozen=True, slots=True, kw_only=True)
class Tick(Command):
    """Judge whatever is due (a turn clock, an absent seat, a bot's move)."""

    KIND: ClassVar[str] = "tick"


@dataclass(frozen=True, slots=True, kw_only=True)
class Timer(Command):
    """Deal on after deal ``deal`` ended (nextDealDelay, or a timed room)."""

    KIND: ClassVar[str] = "timer"
    deal: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Resume(Command):
    """The room had no writer for ``shift`` ms: its clocks give that time back."""

    KIND: ClassVar[str] = "resume"
    shift: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Unreadable(Command):
    """A log entry that is no command (an unknown kind, or a field missing): it keeps its
    envelope, so that its sender is answered, and the error the room refuses it with."""

    KIND: ClassVar[str] = "unreadable"
    entry: dict[str, Any]
    error: RoomError


KINDS: dict[str, type[Command]] = {
    kind.KIND: kind
    for kind in (
        Join,
        Bot,
        Leave,
        Kick,
        Reseat,
        Mute,
        Unban,
        Claim,
        Back,
        Connect,
        Disconnect,
        Watch,
        Unwatch,
        Watchers,
        Delay,
        Settings,
        Start,
        Pause,
        Unpause,
        Action,
        Entropy,
        Tick,
        Timer,
        Resume,
    )
}


def _types(hint: Any) -> tuple[type, ...]:
    """The types a log entry's value may have for a field typed ``hint`` (an engine
    action is its wire form, an object, in the log)."""
    if get_origin(hint) in (Union, UnionType):
        return tuple(t for arg in get_args(hint) for t in _types(arg))
    if hint is Any:
        return (object,)
    if hint is engine.Action:
        return (dict,)
    origin = get_origin(hint)
    return (origin if isinstance(origin, type) else hint,)


# Each kind's fields: (name, required, the types its value may have in the log).
_FIELDS: dict[type[Command], tuple[tuple[str, bool, tuple[type, ...]], ...]] = {
    kind: tuple(
        (
            f.name,
            f.default is MISSING and f.default_factory is MISSING,
            _types(get_type_hints(kind)[f.name]),
        )
        for f in fields(kind)
    )
    for kind in KINDS.values()
}


def _fits(value: Any, types: tuple[type, ...]) -> bool:
    # JSON's true and false are no numbers, though Python's bool is an int.
    return isinstance(value, types) and (not isinstance(value, bool) or bool in types)


def decode(entry: dict[str, Any]) -> Command:
    """The command of a log entry (an action's wire form parsed into an engine.Action).

    :raises RoomError: 400 ``unknown_command``: an unknown kind; 400 with the engine's
        code (``unknown_action``, ``bad_cards``, ...): an action that does not parse.
    :raises MalformedCommand: a field is missing or of the wrong type (only a bug of the
        server's own can write such an entry: the writer answers it as one, ``internal``).
    """
    kind = KINDS.get(str(entry.get("k")))
    if kind is None:
        raise RoomError(400, "unknown_command", f"unknown command {entry!r}")
    values: dict[str, Any] = {}
    for name, required, types in _FIELDS[kind]:
        if name in entry:
            value = values[name] = entry[name]
            if not _fits(value, types):
                raise MalformedCommand(f"command {entry!r}: {name!r} is no {_names(types)}")
        elif required:
            raise MalformedCommand(f"command {entry!r} lacks {name!r}")
    if kind is Action:
        try:
            values["action"] = engine.parse_action(values["action"])
        except engine.EngineError as err:
            raise RoomError.from_engine(err, 400) from None
    return kind(**values)


def _names(types: tuple[type, ...]) -> str:
    return " or ".join(t.__name__ for t in types)


def read(entry: dict[str, Any]) -> Command:
    """The command of a log entry, or :class:`Unreadable` for one that is none (the room
    refuses it: nothing a sender writes into the log stops the room's writer)."""
    try:
        return decode(entry)
    except RoomError as err:
        error = err
    except MalformedCommand as err:
        # Only a bug of the server's own writes such an entry.
        log.error("unreadable log entry: %s", err)
        error = RoomError(500, "internal", str(err))
    cid, node = entry.get("cid"), entry.get("node")
    return Unreadable(
        cid=cid if isinstance(cid, str) else None,
        node=node if isinstance(node, str) else None,
        entry=entry,
        error=error,
    )


C = TypeVar("C", bound=Command)


def addressed(command: C, cid: str, node: str) -> C:
    """``command`` with the envelope of a sender waiting for its answer."""
    return replace(command, cid=cid, node=node)


def encode(command: Command) -> dict[str, Any]:
    """The log entry of a command (fields left at None are left out)."""
    if isinstance(command, Unreadable):
        return dict(command.entry)
    entry: dict[str, Any] = {"k": command.KIND}
    for name, _, _ in _FIELDS[type(command)]:
        value = getattr(command, name)
        if isinstance(value, engine.Action):
            entry[name] = value.to_json()  # the wire form, as the socket sent it
        elif value is not None:
            entry[name] = value
    return entry


def closes_by_id(command: Disconnect | Unwatch) -> bool:
    """A seat's socket closing by its id: counted off once however often it is sent (a
    spectator's closing is counted each time it lands)."""
    return isinstance(command, Disconnect) and command.sock is not None


def socket_node(command: Connect | Disconnect | Watch | Unwatch) -> str:
    """The node a socket command's socket lives on: the node that sent it, or for one a
    writer made for a dead node, that node (``at``)."""
    return str(command.at or command.node or "")
