"""Room commands (app/rooms/commands.py): every kind has its handler, and the codec
between the dataclasses and the log loses nothing."""

from __future__ import annotations

import orjson
import pytest

import engine
from app.errors import RoomError
from app.rooms import commands
from app.rooms.machine import HANDLERS


def test_every_kind_has_one_handler() -> None:
    assert set(HANDLERS) == set(commands.KINDS.values()) | {commands.Unreadable}


@pytest.mark.parametrize(
    "entry",
    [
        {"k": "join", "pid": "p1", "name": "Anna", "token": "h", "age": True, "cid": "c"},
        {"k": "action", "pid": "p1", "ref": "a1", "action": {"type": "draw"}, "node": "n1"},
        {
            "k": "action",
            "pid": "p1",
            "ref": "a2",
            "action": {
                "type": "play",
                "cards": ["W"],
                "color": "G",
                "target": 2,
                "uno": True,
                "at": 7,
            },
            "by": "bot",
            "timing": {"raw": 120, "delay": 0},
        },
        {"k": "disconnect", "pid": "p1", "at": "n2"},
        {"k": "start", "absentAway": True},
        {"k": "tick"},
    ],
)
def test_a_log_entry_reads_and_writes_back_the_same(entry: dict[str, object]) -> None:
    assert commands.encode(commands.decode(entry)) == entry


def test_an_unknown_kind_or_a_missing_field_is_refused() -> None:
    with pytest.raises(RoomError) as unknown:
        commands.decode({"k": "dance"})
    assert unknown.value.code == "unknown_command"
    with pytest.raises(commands.MalformedCommand, match="pid"):
        commands.decode({"k": "leave"})


@pytest.mark.parametrize(
    ("entry", "field"),
    [
        ({"k": "kick", "seat": "2"}, "seat"),
        ({"k": "kick", "seat": True}, "seat"),
        ({"k": "delay", "pid": "p1", "ms": 1.5}, "ms"),
        ({"k": "entropy", "pid": "p1", "deal": 2, "value": 7}, "value"),
        ({"k": "timer", "deal": "2"}, "deal"),
        ({"k": "action", "pid": "p1", "ref": 3, "action": {"type": "draw"}}, "ref"),
        ({"k": "action", "pid": "p1", "ref": "a1", "action": "draw"}, "action"),
        ({"k": "settings", "changes": []}, "changes"),
    ],
)
def test_a_field_of_the_wrong_type_is_refused(entry: dict[str, object], field: str) -> None:
    with pytest.raises(commands.MalformedCommand, match=repr(field)):
        commands.decode(entry)


@pytest.mark.parametrize(
    ("entry", "code"),
    [
        ({"k": "dance", "cid": "c1", "node": "n1"}, "unknown_command"),
        ({"k": "leave", "cid": "c1", "node": "n1"}, "internal"),
    ],
)
def test_an_entry_that_is_no_command_is_read_as_unreadable_and_keeps_its_sender(
    entry: dict[str, object], code: str
) -> None:
    command = commands.read(entry)
    assert isinstance(command, commands.Unreadable)
    assert (command.cid, command.node, command.error.code) == ("c1", "n1", code)
    # Passed on to the log as it came (a writer giving the room up requeues it).
    assert commands.encode(command) == entry


def test_addressing_a_command_keeps_its_fields() -> None:
    sent = commands.addressed(commands.Kick(seat=2), "c9", "n3")
    assert commands.encode(sent) == {"k": "kick", "seat": 2, "cid": "c9", "node": "n3"}


def test_an_action_entry_reads_as_the_engine_action_and_writes_back_byte_for_byte() -> None:
    wire = {"type": "play", "cards": ["R1", "G1"], "uno": True, "at": 3}
    # In the order the log writes an entry: kind, envelope, fields.
    entry = {"k": "action", "cid": "c", "node": "n", "pid": "p1", "ref": "r", "action": wire}
    command = commands.read(entry)
    assert isinstance(command, commands.Action)
    assert command.action == engine.Action("play", ("R1", "G1"), uno=True, at=3)
    assert orjson.dumps(commands.encode(command)) == orjson.dumps(entry)


@pytest.mark.parametrize(
    ("action", "code"),
    [({"type": "plya"}, "unknown_action"), ({"type": "play", "cards": ["X9"]}, "unknown_card")],
)
def test_an_action_entry_that_does_not_parse_is_refused_with_the_parsers_code(
    action: dict[str, object], code: str
) -> None:
    entry = {"k": "action", "pid": "p1", "ref": "r", "action": action, "cid": "c1", "node": "n1"}
    command = commands.read(entry)
    assert isinstance(command, commands.Unreadable)
    assert (command.error.status, command.error.code) == (400, code)
    assert commands.encode(command) == entry
