"""Rooms driven through the room's own machine, without a server: a room of any rules,
its seats joined and started, random rooms of every preset for Hypothesis, and JSON
equality that tells true from 1 (for views compared after the wire)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import strategies as st

import engine
from app.rooms import tokens
from app.rooms.doc import new_doc
from app.rooms.machine import RoomMachine

# House rules drawn on top of a shedding preset: the options that change what a view or
# an event holds.
EXTRAS = [
    {},
    {"sevenZero": True, "jumpIn": True, "stacking": True, "unoPenalty": 2},
    {"wildDrawEight": 2, "everybodyDrawsTwo": 2, "drinks": True, "multiPlay": True},
    {"drawToMatch": True, "matchMode": "knockout", "decks": 2},
]
SHEDDING = ("classic", "house", "druk", "helsinki", "warszawa", "knockout")


def room(rules: dict[str, Any], seats: int) -> RoomMachine:
    """A lobby of ``seats`` seats under ``rules`` (wire form), nobody in it yet."""
    doc = new_doc(
        room_id="r1",
        name="table",
        code="ABCDEF",
        private=False,
        spectators=True,
        seats=seats,
        rules=engine.rules_from_json(rules).to_json(),
        host_hash=tokens.hash_token("host"),
        now_ms=0,
    )
    return RoomMachine(doc, 0, [])


def seating(players: int) -> list[dict[str, Any]]:
    """The commands that seat ``players`` one by one (``p0``…), open seat 0's socket, add
    a spectator and start the match."""
    joins = [
        {"k": "join", "pid": f"p{i}", "name": f"P{i}", "token": f"t{i}", "age": True}
        for i in range(players)
    ]
    return [*joins, {"k": "connect", "pid": "p0"}, {"k": "watch"}, {"k": "start"}]


def pid_at(machine: RoomMachine, seat: int) -> str:
    return str(next(p["pid"] for p in machine.doc["players"] if p["seat"] == seat))


def rooms(most_players: int) -> st.SearchStrategy[tuple[dict[str, Any], int, random.Random]]:
    """Random rooms: any preset (a shedding one with a set of house rules), 2 to
    ``most_players`` seats (UNO Duo: 2), and a random source for the moves."""

    @st.composite
    def draw_room(draw: st.DrawFn) -> tuple[dict[str, Any], int, random.Random]:
        preset = draw(st.sampled_from(sorted(engine.PRESETS)))
        rules: dict[str, Any] = {"preset": preset}
        if preset in SHEDDING:
            rules |= draw(st.sampled_from(EXTRAS))
        players = 2 if preset == "duo" else draw(st.integers(2, most_players))
        return rules, players, random.Random(draw(st.integers(0, 2**32)))

    return draw_room()


def same_json(a: Any, b: Any) -> bool:
    """Equal as JSON: ``==`` that also tells true from 1."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_json(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(map(same_json, a, b))
    return a == b
