"""A change's patches per audience (app.rooms.deltas) against the full-view diff they
replaced: random rooms of every preset and variant through the room's own machine, every
audience's patch stream applied from its first view; at every change the views it makes
equal the views the old diff of whole views makes, and the views built fresh."""

from __future__ import annotations

import random
from typing import Any

import jsonpatch
import orjson
from hypothesis import HealthCheck, given, settings
from machine_rooms import pid_at, room, rooms, same_json, seating

import engine
from app.rooms import deltas
from app.rooms.diff import diff
from app.rooms.machine import RoomMachine
from app.rooms.step import Step
from app.rooms.views import audiences, build_parts, build_views
from app.ws.connection import message_for
from engine import legal_actions, view_for


class Streams:
    """Every audience's view as its sockets hold it, by the new patches and by the old
    diff of whole views, both as a client applies them (from the JSON on the wire)."""

    def __init__(self, machine: RoomMachine) -> None:
        self.machine = machine
        doc = machine.doc
        self.parts = build_parts(doc, machine.state, audiences(doc), machine.seq)
        self.views, _ = build_views(doc, machine.state, audiences(doc), machine.seq)
        self.new = {a: orjson.loads(orjson.dumps(v)) for a, v in self.views.items()}
        self.old = {a: orjson.loads(orjson.dumps(v)) for a, v in self.views.items()}
        self.public_frames = 0

    def handle(self, command: dict[str, Any], ts: int) -> Step:
        machine = self.machine
        step = machine.handle(command, ts)
        assert step.result["ok"], step.result
        if not step.changed:
            return step
        machine.seq += 1
        seq, doc = machine.seq, machine.doc
        parts = build_parts(doc, machine.state, audiences(doc), seq, self.parts[1])
        messages, public = deltas.patches(
            self.parts, parts, seq, ts, step.events, step.public_events
        )
        change = orjson.loads(orjson.dumps({"m": messages, "p": public}))
        self.parts = parts
        fresh, _ = build_views(doc, machine.state, audiences(doc), seq)
        for audience, view in fresh.items():
            events = [e for e in (engine.event_for(ev, view["you"]) for ev in step.events) if e]
            events.extend(step.public_events)
            text = message_for(change, audience)
            assert text is not None
            message = orjson.loads(text)
            assert message["type"] == "patch" and message["seq"] == seq and message["ts"] == ts
            assert same_json(message["events"], orjson.loads(orjson.dumps(events)))
            self.public_frames += messages[audience] is None
            before = self.views.get(audience)
            old_ops = [{"op": "replace", "path": "", "value": view}] if before is None else None
            if old_ops is None:
                assert before is not None
                old_ops = diff(before, view)
            wire_old = orjson.loads(orjson.dumps(old_ops))
            held_new = self.new.get(audience, {})
            held_old = self.old.get(audience, {})
            self.new[audience] = jsonpatch.apply_patch(held_new, message["ops"])
            self.old[audience] = jsonpatch.apply_patch(held_old, wire_old)
            expected = orjson.loads(orjson.dumps(view))
            assert same_json(self.new[audience], self.old[audience])
            assert same_json(self.new[audience], expected)
        self.views = fresh
        return step


def _seated(streams: Streams, players: int) -> None:
    """Seats joined one by one (each a new audience), a socket, a spectator, the start."""
    for command in seating(players):
        streams.handle(command, 0)


@settings(max_examples=16, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rooms(most_players=5))
def test_the_patches_per_audience_make_the_views_the_full_diff_makes(
    drawn: tuple[dict[str, Any], int, random.Random],
) -> None:
    rules, players, rng = drawn
    streams = Streams(room(rules, players))
    _seated(streams, players)
    machine = streams.machine
    for n in range(80):
        state = machine.state
        if view_for(state, 0)["matchOver"]:
            break
        if n == 40:
            # A seat's socket opens mid-match: the table's players change, no hand does.
            streams.handle({"k": "connect", "pid": pid_at(machine, players - 1)}, n)
            continue
        moves = [(s, a) for s in range(players) for a in legal_actions(state, s)]
        seat, action = rng.choice(moves)
        command = {"k": "action", "pid": pid_at(machine, seat), "ref": f"r{n}"}
        streams.handle(command | {"action": action.to_json()}, n)


def _plain_play(streams: Streams) -> engine.Action | None:
    """A number card the turn holder may play, leaving it two cards or more (no UNO to
    catch): a play that changes the turn holder's and the next seat's parts only."""
    state = streams.machine.state
    assert state is not None
    seat = state.turn
    if len(state.hands[seat]) < 4:
        return None
    plays = [a for a in legal_actions(state, seat) if a.type == "play" and len(a.cards) == 1]
    return next((a for a in plays if _is_number(a.cards[0])), None)


def _is_number(card: str) -> bool:
    return len(card) == 2 and card[0] in "RGBY" and card[1].isdigit()


def test_seats_an_action_left_alone_get_the_public_frame() -> None:
    # The deal is shuffled by the room's own secret: deal again until the first player
    # holds a plain play.
    for _ in range(100):
        streams = Streams(room({}, 4))
        _seated(streams, 4)
        action = _plain_play(streams)
        if action is not None:
            break
    assert action is not None
    machine = streams.machine
    seat = machine.state.turn
    before = streams.public_frames
    streams.handle(
        {"k": "action", "pid": pid_at(machine, seat), "ref": "r"} | {"action": action.to_json()}, 1
    )
    # The player who played and the next one (whose legal moves changed) have their own;
    # the two others and the spectator share the public one.
    assert streams.public_frames - before == 3
