"""A game action is parsed once on its way in, at the socket, and that parsed
``engine.Action`` is what the claim window, the room and the engine take (a writer that
reads it back from the room's log parses it there, once, too). Watched on the real
server, in the test's own thread: every value the one parser returns and every action
the engine's ``apply`` is handed while an action travels from a socket to its answer."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

from live import Server, seeded_room
from race_kinds import KINDS

import engine
from engine import actions, transition

CALL_CATCH = KINDS[3]  # seat 0 has played its next-to-last card without calling UNO


class Watch:
    """What :func:`engine.parse_action` returned and what :func:`engine.apply` was given."""

    def __init__(self) -> None:
        self.parsed: list[Any] = []
        self.applied: list[Any] = []

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        if frame.f_code is actions.parse_action.__code__ and event == "return":
            if arg is not None:  # (None: it raised)
                self.parsed.append(arg)
        elif frame.f_code is transition.apply.__code__ and event == "call":
            self.applied.append(frame.f_locals["action"])

    def reached_the_engine_as_parsed(self) -> bool:
        """Whether every action the engine applied is an object the parser made."""
        return bool(self.applied) and all(
            any(action is parsed for parsed in self.parsed) for action in self.applied
        )


@contextmanager
def watching() -> Iterator[Watch]:
    watch = Watch()
    before = sys.getprofile()
    sys.setprofile(watch)
    try:
        yield watch
    finally:
        sys.setprofile(before)


async def test_a_play_reaches_the_engine_as_the_action_the_socket_parsed(server: Server) -> None:
    room_id, tokens = await seeded_room(server, CALL_CATCH.players, {}, CALL_CATCH.setup)
    clients = [await server.connect(room_id, t) for t in tokens]
    with watching() as watch:
        ref = await clients[0].act({"type": "play", "cards": ["R1"]})
        assert (await clients[0].outcome(ref))["type"] == "ack"
    assert all(type(a) is engine.Action for a in watch.applied)
    assert watch.reached_the_engine_as_parsed()
    # The socket's parse, and at most the log's read of it: never the room or the engine.
    assert 1 <= len(watch.parsed) <= 2
    for client in clients:
        await client.close()


async def test_a_race_claim_is_parsed_once_however_often_it_is_judged(server: Server) -> None:
    """A UNO call is held in a claim window: tried when it is held, checked when the
    window closes and then applied (three calls of the engine), on one parse."""
    room_id, tokens = await seeded_room(server, CALL_CATCH.players, {}, CALL_CATCH.setup)
    clients = [await server.connect(room_id, t) for t in tokens]
    for seat, action in CALL_CATCH.prelude:
        ref = await clients[seat].act(action)
        assert (await clients[seat].outcome(ref))["type"] == "ack"
    moves = clients[0].view["moves"]
    with watching() as watch:
        ref = await clients[0].act({"type": "callUno", "at": moves})
        assert (await clients[0].outcome(ref))["type"] == "ack"
    assert len(watch.applied) >= 2
    assert watch.reached_the_engine_as_parsed()
    assert 1 <= len(watch.parsed) <= 2
    for client in clients:
        await client.close()


async def test_a_misspelled_action_type_is_refused_at_the_socket(server: Server) -> None:
    room_id, tokens = await seeded_room(server, CALL_CATCH.players, {}, CALL_CATCH.setup)
    client = await server.connect(room_id, tokens[0])
    seq = client.seq
    with watching() as watch:
        ref = await client.act({"type": "plya", "cards": ["R1"]})
        refusal = await client.outcome(ref)
    assert refusal["type"] == "error" and refusal["code"] == "unknown_action"
    assert "plya" in refusal["message"]
    # Refused by the parser alone: nothing reached the room's log or the engine.
    assert watch.applied == [] and watch.parsed == []
    assert client.seq == seq
    await client.close()
