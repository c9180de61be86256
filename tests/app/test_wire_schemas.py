"""The schemas declare every field the server sends: random matches of every game kind
through the room's own machine and views, each seat's and a spectator's view and events
validated against the JSON Schemas (closed: an undeclared field fails)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from machine_rooms import pid_at, room, rooms, seating
from schema_check import check_event, check_view

from app.rooms.machine import RoomMachine
from app.rooms.step import Step
from app.rooms.views import SPECTATOR, build_view
from engine import event_for, legal_actions, view_for


def _check_change(machine: RoomMachine, step: Step, seq: int, mover: str | None = None) -> None:
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
        for event in step.events:
            check_event(event_for(event, view["you"]))
        for event in step.public_events:
            check_event(event)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rooms(most_players=6))
def test_every_view_and_event_of_a_match_is_declared_by_the_schemas(
    drawn: tuple[dict[str, Any], int, random.Random],
) -> None:
    rules, players, rng = drawn
    machine = room(rules, players)
    seq = 0
    for command in seating(players):
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
        pid = pid_at(machine, seat)
        command = {"k": "action", "pid": pid, "ref": f"r{seq}", "action": action.to_json()}
        step = machine.handle(command, 0)
        assert step.result["ok"], step.result
        seq += 1
        _check_change(machine, step, seq, pid)
