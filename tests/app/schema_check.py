"""Frames, views and events checked against the published JSON Schemas (docs/schemas/,
draft 2020-12) with ``jsonschema``: the tests' proof that the schemas say what the server
sends. A failure names the field and where to declare it."""

from __future__ import annotations

from functools import cache
from typing import Any

from jsonschema import Draft202012Validator

from app.wire.content import EVENT_MODELS, VIEW_MODELS
from app.ws.schemas import schemas

HINT = (
    "the JSON Schemas (app/wire/content.py, app/wire/messages.py) do not allow this; if the "
    "field or type is new, declare it in its model there and run "
    "`python -m app.ws.schemas --write`"
)


@cache
def _validator(name: str) -> Draft202012Validator:
    return Draft202012Validator(schemas()[name])


def _event_names() -> dict[str, str]:
    return {m.model_fields["type"].annotation.__args__[0]: m.__name__ for m in EVENT_MODELS}


@cache
def _event_validators() -> dict[str, Draft202012Validator]:
    out = {}
    for kind, model in zip(_event_names(), EVENT_MODELS, strict=True):
        out[kind] = Draft202012Validator(
            {"$schema": "https://json-schema.org/draft/2020-12/schema", **model.model_json_schema()}
        )
    return out


# What each validator has passed, as features (see _features): a value that brings no
# feature its validator has not passed before is not validated again. Validation takes
# about 10 ms for a view, and every frame of every socket test is checked.
_PASSED: dict[int, set[tuple[Any, ...]]] = {}


def _features(value: Any, path: str, out: set[tuple[Any, ...]]) -> None:
    """What a schema can tell apart in ``value``: each path (list positions merged) with
    its type, the key set of each object (a missing required key is new), short strings
    and booleans by value (enums, patterns, consts), numbers by sign, lists by emptiness."""
    if isinstance(value, dict):
        out.add((path, "keys", frozenset(value)))
        for key, item in value.items():
            _features(item, f"{path}/{key}", out)
    elif isinstance(value, list):
        out.add((path, "list", not value))
        for item in value:
            _features(item, path + "/*", out)
    elif isinstance(value, str):
        out.add((path, "str", value if len(value) <= 24 else len(value) > 0))
    elif isinstance(value, bool) or value is None:
        out.add((path, "const", value))
    elif isinstance(value, int):
        out.add((path, "int", (value > 0) - (value < 0)))
    else:
        out.add((path, type(value).__name__, (value > 0) - (value < 0)))


def _check(validator: Draft202012Validator, value: Any, what: str) -> None:
    features: set[tuple[Any, ...]] = set()
    _features(value, "", features)
    passed = _PASSED.setdefault(id(validator), set())
    if features <= passed:
        return  # nothing in it that this validator has not passed already
    errors = list(validator.iter_errors(value))
    if errors:
        first = min(errors, key=lambda e: len(list(e.absolute_path)))
        where = "/".join(str(p) for p in first.absolute_path)
        raise AssertionError(f"{what} at /{where}: {first.message}\n{HINT}\n{value!r}"[:4000])
    passed |= features


def view_kind(view: dict[str, Any]) -> str:
    if view.get("phase") == "lobby":
        return "LobbyView"
    return {"rommy": "RommyView", "bottle": "BottleView"}.get(view.get("game", ""), "SheddingView")


def check_view(view: dict[str, Any]) -> None:
    assert {m.__name__ for m in VIEW_MODELS} >= {view_kind(view)}
    _check(_validator(view_kind(view)), view, f"view ({view_kind(view)})")


def check_event(event: dict[str, Any]) -> None:
    validator = _event_validators().get(event.get("type", ""))
    if validator is None:
        raise AssertionError(f"event type {event.get('type')!r} has no model\n{HINT}\n{event!r}")
    _check(validator, event, f"event {event['type']!r}")


_MESSAGES = {
    "snapshot": "SnapshotMessage",
    "patch": "PatchMessage",
    "ack": "AckMessage",
    "error": "ErrorMessage",
    "pong": "PongMessage",
    "ping": "ServerPing",
    "chat": "ChatSaid",
    "reaction": "ReactionSent",
}


def check_server_message(message: dict[str, Any]) -> None:
    """One frame the server sent: its envelope, and its view or events one by one (for a
    clear failure), then the whole against the message's schema."""
    kind = message.get("type")
    name = _MESSAGES.get(kind)  # type: ignore[arg-type]
    if name is None:
        raise AssertionError(f"server message type {kind!r} has no schema\n{HINT}")
    if kind == "snapshot":
        check_view(message["view"])
    if kind == "patch":
        for event in message["events"]:
            check_event(event)
    _check(_validator(name), message, f"{kind} message")


def warm() -> None:
    """Build every validator now: the first build makes the schemas of every model, which
    takes seconds, and a test's client must not spend them inside its first socket read
    (the in-process server shares that event loop)."""
    for name in {*_MESSAGES.values(), *(m.__name__ for m in VIEW_MODELS)}:
        _validator(name)
    _event_validators()
