"""The room machine's work per action, done once: a claim's lock-out judged on its own
application's answer, what a lost race is told read from the deal log's entry, and the
lookups and timers that every change asks for (the seat's player, the absent seats,
whether anyone is in the room)."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from app.rooms import timers
from app.rooms.doc import player_by_seat, someone_in
from app.rooms.machine import RoomMachine
from app.rooms.presence import going_away
from tests.app.machine_rooms import pid_at, room, seating


def started(players: int) -> RoomMachine:
    machine = room({}, players)
    for command in seating(players):
        assert "code" not in machine.handle(command, 0).result, command
    for i in range(1, players):
        machine.handle({"k": "connect", "pid": f"p{i}"}, 0)
    return machine


def test_a_claim_of_nothing_locks_its_claimant_out_on_one_engine_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    machine = started(3)
    state = machine.state
    assert state is not None
    claimant = (state.turn + 1) % 3
    target = (state.turn + 2) % 3
    asked: list[str] = []
    real = engine.apply

    def counted(state: Any, seat: int, action: engine.Action) -> Any:
        asked.append(action.type)
        return real(state, seat, action)

    monkeypatch.setattr(engine, "apply", counted)
    catch = {"type": "catchUno", "target": target}
    pid = pid_at(machine, claimant)
    first = machine.handle({"k": "action", "pid": pid, "ref": "c1", "action": catch}, 1000)
    assert first.result["code"] == "nothing_to_catch"
    assert asked == ["catchUno"]  # the claim's own application, nothing more
    assert machine.locked[pid] == 1000 + machine.races.lockout_ms
    seat = next(p for p in machine.doc["players"] if p["pid"] == pid)
    assert seat["races"]["invalid"] == 1
    again = machine.handle({"k": "action", "pid": pid, "ref": "c2", "action": catch}, 1001)
    assert again.result["code"] == "locked_out"
    later = machine.locked[pid] + 1
    third = machine.handle({"k": "action", "pid": pid, "ref": "c3", "action": catch}, later)
    assert third.result["code"] == "nothing_to_catch"
    assert seat["races"]["invalid"] == 2


def test_a_stale_action_is_told_the_change_that_left_its_position() -> None:
    machine = started(3)
    state = machine.state
    assert state is not None
    moves, turn = state.moves, state.turn
    # The deal's first card decides what the turn holder may do (a wild asks for a colour
    # first), so the move is one the engine lists.
    move = engine.legal_actions(state, turn)[0].to_json()
    step = machine.handle(
        {"k": "action", "pid": pid_at(machine, turn), "ref": "d1", "action": move}, 500
    )
    assert step.changed, step.result
    machine.seq += 1
    other = pid_at(machine, (turn + 1) % 3)
    stale = {"type": "draw", "at": moves}
    late = machine.handle({"k": "action", "pid": other, "ref": "d2", "action": stale}, 600)
    assert late.result["code"] == "too_late"
    assert late.result["won"] == {"seq": 1, "type": move["type"], "seat": turn}


def test_a_seats_player_is_found_past_gaps_and_never_by_position_alone() -> None:
    doc: dict[str, Any] = {"players": [{"seat": 0, "pid": "a"}, {"seat": 2, "pid": "b"}]}
    assert player_by_seat(doc, 0) == {"seat": 0, "pid": "a"}
    assert player_by_seat(doc, 2) == {"seat": 2, "pid": "b"}
    assert player_by_seat(doc, 1) is None  # index 1 holds seat 2
    assert player_by_seat(doc, 3) is None
    assert player_by_seat({"players": [{"seat": 1, "pid": "c"}]}, 0) is None


def _seat(**fields: Any) -> dict[str, Any]:
    return {"seat": 0, "pid": "p", "conn": 0, "goneAt": None} | fields


def test_absence_timers_run_for_people_gone_and_not_yet_away_only() -> None:
    gone = _seat(pid="gone", goneAt=5)
    players = [
        gone,
        _seat(pid="here", conn=1),
        _seat(pid="away", goneAt=5, away=True),
        _seat(pid="bot", bot="normal"),
        _seat(pid="seated-bot", bot="normal", goneAt=5),
    ]
    assert going_away(players) == [gone]


def test_the_next_due_time_is_the_earliest_absent_seats_deadline() -> None:
    machine = started(3)
    machine.doc["players"][1]["conn"] = 0
    machine.doc["players"][1]["goneAt"] = 7000
    machine.doc["players"][2]["conn"] = 0
    machine.doc["players"][2]["goneAt"] = 5000
    absent = machine.doc["absentAfter"] * 1000
    assert timers.next_due(machine) == 5000 + absent


@pytest.mark.parametrize(
    ("players", "host", "inside"),
    [
        ([], None, True),  # a room just made: its creator is on the way
        ([], "p0", False),
        ([_seat(bot="normal")], "p0", False),
        ([_seat(away=True), _seat(pid="q", left=True)], "p0", False),
        ([_seat(away=True), _seat(pid="q")], "p0", True),
        ([_seat(bot="normal"), _seat(pid="q", away=True)], None, False),
    ],
)
def test_someone_is_in_the_room_while_a_seated_person_is_not_away(
    players: list[dict[str, Any]], host: str | None, inside: bool
) -> None:
    assert someone_in({"players": players, "hostPid": host}) is inside
