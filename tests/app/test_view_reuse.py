"""A change's shared part reuses the previous change's pieces whose inputs did not change
(app.rooms.shared_part.Shared): whatever field of the room document changes, in place or
replaced, the next change's views show it, as views built from nothing do."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from machine_rooms import room, same_json, seating

from app.rooms import deltas
from app.rooms.diff import diff
from app.rooms.machine import RoomMachine
from app.rooms.views import Parts, audiences, build_parts


def _started() -> RoomMachine:
    machine = room({}, 3)
    for command in seating(3):
        assert machine.handle(command, 0).result["ok"]
    return machine


def _other(value: Any) -> Any:
    """A value of the same JSON type as ``value`` that differs from it."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        return value + "x"
    if isinstance(value, list):
        return [*value, copy.deepcopy(value[0]) if value else "x"]
    if isinstance(value, dict):
        return {**value, "x": 1}
    return "x"  # None: any value is another


def _changes(doc: dict[str, Any]) -> list[tuple[str, Any]]:
    """(a name, a change of the document) for each field of it and of each player: each
    replaced by another value, and each list or object changed in place."""
    out: list[tuple[str, Any]] = []
    holders = [("", doc)] + [(f"players/{i}/", p) for i, p in enumerate(doc["players"])]
    for prefix, holder in holders:
        for key, value in holder.items():
            out.append((f"{prefix}{key}", _replacing(holder, key, _other(value))))
            if isinstance(value, list):
                out.append((f"{prefix}{key} (append)", _appending(holder, key)))
            elif isinstance(value, dict):
                out.append((f"{prefix}{key} (set)", _setting(holder, key)))
    # Fields a room or a player may not have yet, that views show once they do.
    for prefix, holder, fields in [("", doc, _ROOM_LATER)] + [
        (f"players/{i}/", p, _PLAYER_LATER) for i, p in enumerate(doc["players"])
    ]:
        for key, value in fields:
            if key not in holder:
                out.append((f"{prefix}{key} (new)", _replacing(holder, key, value)))
    return out


_ROOM_LATER = (
    ("rated", True),
    ("ready", [0]),
    ("muted", ["p1"]),
    ("pausedAt", 5),
    ("ended", {"reason": "claim", "winner": 0, "totals": [1, 2, 3]}),
)
_PLAYER_LATER = (
    ("away", True),
    ("bot", 2),
    ("left", True),
    ("blitz", 60000),
    ("rating", {"value": 1500, "provisional": True, "games": 1}),
)


def _replacing(holder: dict[str, Any], key: str, value: Any) -> Any:
    return lambda: holder.__setitem__(key, value)


def _appending(holder: dict[str, Any], key: str) -> Any:
    return lambda: holder[key].append(copy.deepcopy(holder[key][0]) if holder[key] else "x")


def _setting(holder: dict[str, Any], key: str) -> Any:
    return lambda: holder[key].__setitem__("x", 1)


def _parts(machine: RoomMachine, seq: int, previous: Parts | None) -> Parts:
    doc = machine.doc
    return build_parts(doc, machine.state, audiences(doc), seq, previous[1] if previous else None)


def _names() -> list[str]:
    return [name for name, _ in _changes(_started().doc)]


@pytest.mark.parametrize("name", _names())
def test_a_changed_room_field_shows_in_the_next_changes_views(name: str) -> None:
    machine = _started()
    before = _parts(machine, 1, None)
    dict(_changes(machine.doc))[name]()
    try:
        fresh = _parts(machine, 2, None)
    except (KeyError, TypeError, AttributeError, ValueError):
        pytest.skip("views are not made of such a document")
    reused = _parts(machine, 2, before)
    assert same_json(reused[1], fresh[1])
    assert same_json(reused[0], fresh[0])


def test_an_unchanged_room_keeps_the_previous_changes_room_and_rules() -> None:
    machine = _started()
    before = _parts(machine, 1, None)
    after = _parts(machine, 2, before)
    assert after[1]["room"] is before[1]["room"]
    assert after[1]["rules"] is before[1]["rules"]


def test_the_public_delta_made_while_building_serves_only_the_part_it_was_made_against() -> None:
    machine = _started()
    first = _parts(machine, 1, None)
    second = _parts(machine, 2, first)
    machine.doc["name"] += " renamed"
    other = _parts(machine, 1, None)  # another room's part, say
    assert deltas._public_delta(first[1], second[1]) == diff(first[1], second[1])
    assert deltas._public_delta(other[1], second[1]) == diff(other[1], second[1])
    assert diff(other[1], second[1]) != diff(first[1], second[1])
