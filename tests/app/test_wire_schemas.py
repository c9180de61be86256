"""The schemas declare every field the server sends: random matches of every game kind
through the room's own machine and views, each seat's and a spectator's view and events
validated against the JSON Schemas (closed: an undeclared field fails)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schema_check import check_event, check_view

from app.rooms import tokens
from app.rooms.doc import new_doc
from app.rooms.machine import RoomMachine
from app.rooms.views import SPECTATOR, build_view
from engine import PRESETS, event_for, legal_actions, view_for

EXTRAS = [
    {},
    {"sevenZero": True, "jumpIn": True, "stacking": True, "unoPenalty": 2},
    {"wildDrawEight": 2, "everybodyDrawsTwo": 2, "drinks": True, "multiPlay": True},
    {"drawToMatch": True, "matchMode": "knockout", "decks": 2},
]
SHEDDING = ("classic", "house", "druk", "helsinki", "warszawa", "knockout")


@st.composite
def rooms(draw: st.DrawFn) -> tuple[dict, int, random.Random]:
    preset = draw(st.sampled_from(sorted(PRESETS)))
    rules = {"preset": preset}
    if preset in SHEDDING:
        rules |= draw(st.sampled_from(EXTRAS))
    players = 2 if preset == "duo" else draw(st.integers(2, 6))
    return rules, players, random.Random(draw(st.integers(0, 2**32)))


def _check_change(machine: RoomMachine, step: object, seq: int, mover: str | None = None) -> None:
    """Check the views and events of one change. Every audience's at every fourth change
    and at room changes; between them the mover's and a spectator's (validation is slow
    and the seats' views differ in content, not in shape)."""
    doc = machine.doc
    audiences = [p["pid"] for p in doc["players"]] + [SPECTATOR]
    if mover is not None and seq % 4:
        audiences = [mover, SPECTATOR]
    for audience in audiences:
        view = build_view(doc, machine.state, audience, seq)
        check_view(view)
        for event in step.events:  # type: ignore[attr-defined]
            check_event(event_for(event, view["you"]))
        for event in step.public_events:  # type: ignore[attr-defined]
            check_event(event)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rooms())
def test_every_view_and_event_of_a_match_is_declared_by_the_schemas(room: tuple) -> None:
    rules, players, rng = room
    import engine

    doc = new_doc(
        room_id="r1",
        name="table",
        code="ABCDEF",
        private=False,
        spectators=True,
        seats=players,
        rules=engine.rules_from_json(rules).to_json(),
        host_hash=tokens.hash_token("host"),
        now_ms=0,
    )
    machine = RoomMachine(doc, 0, [])
    seq = 0
    commands = [
        {"k": "join", "pid": f"p{i}", "name": f"P{i}", "token": f"t{i}", "age": True}
        for i in range(players)
    ]
    commands += [{"k": "connect", "pid": "p0"}, {"k": "watch"}, {"k": "start"}]
    for command in commands:
        step = machine.handle(command, 0)
        assert step.result["ok"], step.result
        seq += 1
        _check_change(machine, step, seq)
    for _ in range(150):
        state = machine.state
        if view_for(state, 0)["matchOver"]:
            break
        moves = [(s, a) for s in range(players) for a in legal_actions(state, s)]
        seat, action = rng.choice(moves)
        pid = next(p["pid"] for p in machine.doc["players"] if p["seat"] == seat)
        command = {"k": "action", "pid": pid, "ref": f"r{seq}", "action": action.to_json()}
        step = machine.handle(command, 0)
        assert step.result["ok"], step.result
        seq += 1
        _check_change(machine, step, seq, pid)
