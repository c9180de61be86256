"""``?ack=patch``: the ack of a socket's action rides on that socket's patch of the change
(one frame fewer per action), for each room store; every other socket, and a socket
without the option, sees exactly what it saw before."""

from __future__ import annotations

import asyncio
import random
import secrets
from typing import Any

import pytest
import websockets
from live import Client, Server, drop_prefix, running_server, seeded_room
from test_full_game import bot_action
from test_socket import SETUP


def _kinds(client: Client, ref: str) -> list[tuple[str, str | None]]:
    """The frames that answered ``ref``: ("ack", None) or ("patch", its ack)."""
    return [
        (m["type"], m.get("ack"))
        for m in client.messages
        if (m["type"] == "ack" and m["ref"] == ref)
        or (m["type"] == "patch" and m.get("ack") == ref)
    ]


async def test_the_ack_rides_on_the_acting_sockets_patch_only(server: Server) -> None:
    room_id, tokens = await seeded_room(server, 3, {}, SETUP)
    actor = await server.connect(room_id, tokens[0], ack="patch")
    twin = await server.connect(room_id, tokens[0], ack="patch")  # the seat's other device
    plain = await server.connect(room_id, tokens[0])
    other = await server.connect(room_id, tokens[1], ack="patch")
    ref = await actor.act({"type": "play", "cards": ["R1"]})
    outcome = await actor.outcome(ref)
    seq = outcome["seq"]
    for client in (twin, plain, other):
        await client.wait_seq(seq)
    await asyncio.sleep(0.1)  # an ack frame, if one were sent, would be here by now
    patch = next(m for m in actor.messages if m["type"] == "patch" and m["seq"] == seq)
    assert patch["ack"] == ref
    assert _kinds(actor, ref) == [("patch", ref)]  # and no ack frame
    for client in (twin, plain, other):
        assert _kinds(client, ref) == []
        mine = next(m for m in client.messages if m["type"] == "patch" and m["seq"] == seq)
        assert "ack" not in mine
    assert twin.view == actor.view
    for client in (actor, twin, plain, other):
        await client.close()


async def test_without_the_option_the_ack_is_a_frame_of_its_own(server: Server) -> None:
    room_id, tokens = await seeded_room(server, 3, {}, SETUP)
    for ack in (None, "frame"):
        client = await server.connect(room_id, tokens[0], ack=ack)
        ref = await client.act({"type": "play", "cards": ["R1"]}, ref="same")
        await client.expect("ack", ref=ref)
        assert all("ack" not in m for m in client.messages if m["type"] == "patch")
        await client.close()


async def test_a_retry_and_a_refusal_are_answered_with_frames(server: Server) -> None:
    room_id, tokens = await seeded_room(server, 3, {}, SETUP)
    client = await server.connect(room_id, tokens[0], ack="patch")
    ref = await client.act({"type": "play", "cards": ["R1"]}, ref="same")
    seq = (await client.outcome(ref))["seq"]
    # The same id again changes nothing: no patch to ride on, the first ack as a frame.
    await client.act({"type": "play", "cards": ["R1"]}, ref="same")
    again = await client.expect("ack", ref="same")
    assert again == {"type": "ack", "ref": "same", "seq": seq}
    refused = await client.act({"type": "play", "cards": ["G3"]})
    error = await client.expect("error", ref=refused)
    assert error["code"] == "not_your_turn"
    await client.close()


async def test_an_unknown_ack_mode_is_refused_at_the_handshake(server: Server) -> None:
    room, seats = await server.table(2)
    url = f"{server.ws_base}/ws/rooms/{room['roomId']}?token={seats[0]['token']}&ack=both"
    with pytest.raises(websockets.InvalidStatus) as refused:
        await websockets.connect(url)
    assert refused.value.response.status_code == 400
    assert b'"invalid_request"' in refused.value.response.body


@pytest.mark.redis
async def test_on_two_nodes_each_action_is_acknowledged_once(tmp_path: Any) -> None:
    # The writer runs on one node; a socket on the other gets the change through Redis
    # and the answer on its node's channel, in either order: the ack rides on the patch
    # when the patch comes first, else it is a frame, and never both.
    prefix = f"t{secrets.token_hex(4)}"
    try:
        async with (
            running_server("redis", tmp_path, prefix=prefix) as a,
            running_server("redis", tmp_path, prefix=prefix) as b,
        ):
            room = await a.create(seats=2)
            seats = [await a.join(room["roomId"], "x"), await b.join(room["roomId"], "y")]
            await a.start(room["roomId"], room["hostToken"])
            clients = [
                await a.connect(room["roomId"], seats[0]["token"], ack="patch"),
                await b.connect(room["roomId"], seats[1]["token"], ack="patch"),
            ]
            await clients[0].wait_seq(clients[1].seq)
            rng = random.Random(3)
            refs: dict[int, list[str]] = {0: [], 1: []}
            for _ in range(8):
                view = clients[0].view
                if view["phase"] != "playing":
                    break
                seat = view["turn"]
                actor = next(c for c in clients if c.view["you"] == seat)
                await actor.wait_seq(clients[0].seq)
                ref = await actor.act(bot_action(actor.view, rng))
                seq = (await actor.outcome(ref))["seq"]
                refs[seat].append(ref)
                for client in clients:
                    await client.wait_seq(seq)
            await asyncio.sleep(0.2)  # a second answer, if one were sent, would be here
            for seat, client in enumerate(clients):
                mine = [k for ref in refs[seat] for k in _kinds(client, ref)]
                assert len(mine) == len(refs[seat])  # each once: a frame or on its patch
                others = {ref for refs_ in refs.values() for ref in refs_} - set(refs[seat])
                assert not any(_kinds(client, ref) for ref in others)
            for client in clients:
                await client.close()
    finally:
        await drop_prefix(prefix)


async def _patch_text(ws: Any, seq: int) -> str:
    """The text of the patch ``seq`` as ``ws`` received it, byte for byte."""
    async with asyncio.timeout(5):
        while True:
            text = await ws.recv()
            if f'"seq":{seq},' in text and '"type":"patch"' in text:
                return str(text)


async def test_sockets_of_one_audience_get_the_same_frame_and_the_actor_its_ack(
    server: Server,
) -> None:
    room_id, tokens = await seeded_room(server, 3, {}, SETUP)
    actor = await server.connect(room_id, tokens[0], ack="patch")
    url = f"{server.ws_base}/ws/rooms/{room_id}"
    watchers = [await websockets.connect(url, compression=None) for _ in range(3)]
    for ws in watchers:
        await ws.recv()  # the snapshot
    ref = await actor.act({"type": "play", "cards": ["R1"]})
    seq = (await actor.outcome(ref))["seq"]
    texts = [await _patch_text(ws, seq) for ws in watchers]
    assert texts[0] == texts[1] == texts[2]
    assert ref not in texts[0]
    patch = next(m for m in actor.messages if m["type"] == "patch" and m["seq"] == seq)
    assert patch["ack"] == ref
    for ws in watchers:
        await ws.close()
    await actor.close()
