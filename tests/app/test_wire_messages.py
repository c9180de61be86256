"""Each server message's builder makes what its model declares: the builders take the
model's fields (its constants filled in) and what they build validates against the model
and its published JSON Schema. (The socket tests validate every frame they receive.)"""

from __future__ import annotations

import inspect
import typing
from typing import Any

import orjson
import pytest
from machine_rooms import room
from pydantic import BaseModel
from schema_check import check_server_message

from app.rooms.diff import diff
from app.rooms.views import build_view
from app.wire.messages import (
    SERVER_MESSAGES,
    AckMessage,
    ChatSaid,
    ErrorMessage,
    PatchMessage,
    PongMessage,
    ReactionSent,
    ServerPing,
    SnapshotMessage,
)


def _constant(model: type[BaseModel], name: str) -> bool:
    return typing.get_origin(model.model_fields[name].annotation) is typing.Literal


@pytest.mark.parametrize("model", SERVER_MESSAGES, ids=lambda m: m.__name__)
def test_a_builder_takes_its_models_fields(model: type[BaseModel]) -> None:
    build = model.build  # type: ignore[attr-defined]
    fields = [name for name in model.model_fields if not _constant(model, name)]
    assert set(inspect.signature(build).parameters) == set(fields)


def _room() -> tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]:
    """A lobby's view before and after a join, and the join's events."""
    machine = room({"preset": "classic"}, 2)
    before = build_view(machine.doc, machine.state, "p0", 0)
    step = machine.handle({"k": "join", "pid": "p0", "name": "Ann", "token": "t0"}, 0)
    assert step.result["ok"], step.result
    return before, build_view(machine.doc, machine.state, "p0", 1), step.public_events


def _built() -> list[tuple[type[BaseModel], dict[str, Any]]]:
    before, after, events = _room()
    race = {"rank": 2, "raw": 150, "delay": 30, "reaction": 120, "tie": False}
    race |= {"superhuman": False, "window": 40}
    return [
        (SnapshotMessage, SnapshotMessage.build(1, 5, after)),
        (PatchMessage, PatchMessage.build(1, 5, diff(before, after), events)),
        (PatchMessage, PatchMessage.build(1, 5, diff(before, after), events, ack="a1")),
        (AckMessage, AckMessage.build("a1", 1)),
        (ErrorMessage, ErrorMessage.build("not_your_turn", "wait", "a1")),
        (ErrorMessage, ErrorMessage.build("bad_json", "a message must be one JSON object")),
        (
            ErrorMessage,
            ErrorMessage.build(
                "too_late", "lost", "a2", {"seq": 3, "type": "play", "seat": 1}, race
            ),
        ),
        (PongMessage, PongMessage.build(5)),
        (ServerPing, ServerPing.build(3)),
        (ChatSaid, ChatSaid.build(0, "Ann", False, "hi", 5)),
        (ReactionSent, ReactionSent.build(None, None, True, "gg", 5)),
    ]


def test_a_riding_ack_added_to_a_serialised_patch_is_the_patch_built_with_it() -> None:
    before, after, events = _room()
    plain = orjson.dumps(PatchMessage.build(1, 5, diff(before, after), events)).decode()
    for ref in ("a1", 'quo"te\\é'):
        built = PatchMessage.build(1, 5, diff(before, after), events, ack=ref)
        assert orjson.loads(PatchMessage.with_ack(plain, ref)) == built


def test_what_the_builders_make_validates_against_models_and_schemas() -> None:
    built = _built()
    assert {model for model, _ in built} == set(SERVER_MESSAGES)
    for model, message in built:
        model.model_validate(message)
        check_server_message(message)
