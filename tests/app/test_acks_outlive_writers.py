"""A retried action id is answered with its first ack and never applied again, across
deals and across a change of the room's writer: the last 256 ids of a room are kept in
the room's deal log, and the entry that starts a deal carries them (its own included)."""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

import pytest
from live import Client, Server, drop_prefix, running_server, seeded_room

# Seat 0 draws (Y9 does not play on R5, so the turn passes); seat 1 goes out with R2; the
# deal is over with 10 points for seat 1 and the match goes on.
QUICK_DEAL = {
    "hands": [["R1", "G0"], ["R2"]],
    "discard": ["R5"],
    "color": "R",
    "drawPile": ["Y9", "Y1", "Y2", "Y3", "Y4"],
    "turn": 0,
    "direction": 1,
}
RULES = {"targetScore": 1000}
# Each deal is shuffled from the room's match secret (docs/fairness.md): this one deals
# the second deal with seat 0 to play first, so that a retried draw would be legal.
SHUFFLE = {"secret": "0" * 63 + "2", "entropy": {}}


async def no_writer(*servers: Server, room_id: str) -> None:
    """Until no node writes the room: the next command starts a writer from the store."""
    async with asyncio.timeout(10):
        while any(room_id in s.app.state.rooms._writers for s in servers):
            await asyncio.sleep(0.02)


async def acked(client: Client, action: dict[str, Any], ref: str) -> int:
    outcome = await client.outcome(await client.act(action, ref=ref))
    assert outcome["type"] == "ack", outcome
    seq: int = outcome["seq"]
    return seq


async def deal_one_then_two(seat0: Client, seat1: Client) -> tuple[int, int]:
    """Play the quick deal and deal the next; the seqs of seat 0's draw and nextDeal."""
    drew = await acked(seat0, {"type": "draw"}, "d1")
    await acked(seat1, {"type": "play", "cards": ["R2"]}, "w1")
    await seat0.wait_seq(drew + 1)
    assert seat0.view["phase"] == "dealOver" and not seat0.view["matchOver"]
    dealt = await acked(seat0, {"type": "nextDeal"}, "n1")
    await seat0.wait_seq(dealt)
    assert seat0.view["deal"] == 2 and seat0.view["turn"] == 0  # a draw would be legal
    return drew, dealt


async def test_retries_in_the_next_deal_after_the_writer_changed_get_their_acks(
    store_kind: str, tmp_path: Any
) -> None:
    async with running_server(store_kind, tmp_path, writer_idle_seconds=0.2) as server:
        room_id, tokens = await seeded_room(server, 2, RULES, QUICK_DEAL, shuffle=SHUFFLE)
        seat0, seat1 = [await server.connect(room_id, t) for t in tokens]
        await seat0.wait_seq(seat1.seq)
        drew, dealt = await deal_one_then_two(seat0, seat1)
        dealt_view = dict(seat0.view)
        await no_writer(server, room_id=room_id)
        for ref, seq in (("d1", drew), ("n1", dealt)):
            del seat0.acks[ref]
            await seat0.act({"type": "draw"} if ref == "d1" else {"type": "nextDeal"}, ref=ref)
            assert await seat0.outcome(ref) == {"type": "ack", "ref": ref, "seq": seq}
        await seat0.send({"type": "ping"})
        await seat0.expect("pong")
        assert seat0.seq == dealt and seat0.view == dealt_view  # nothing applied again
        await seat0.close()
        await seat1.close()


@pytest.mark.redis
async def test_retries_on_another_node_taking_the_room_over_get_their_acks(
    tmp_path: Any,
) -> None:
    prefix = f"t{secrets.token_hex(4)}"
    try:
        async with (
            running_server("redis", tmp_path, prefix=prefix, writer_idle_seconds=0.2) as a,
            running_server("redis", tmp_path, prefix=prefix, writer_idle_seconds=0.2) as b,
        ):
            room_id, tokens = await seeded_room(a, 2, RULES, QUICK_DEAL, shuffle=SHUFFLE)
            seat0, seat1 = [await a.connect(room_id, t) for t in tokens]
            await seat0.wait_seq(seat1.seq)
            drew, dealt = await deal_one_then_two(seat0, seat1)
            moves, hand = seat0.view["moves"], seat0.view["hand"]
            await seat0.close()
            await seat1.close()
            await no_writer(a, b, room_id=room_id)
            # The same seat, reconnected to the other node: b's writer reads the room.
            again = await b.connect(room_id, tokens[0])
            for ref, seq in (("d1", drew), ("n1", dealt)):
                await again.act({"type": "draw"} if ref == "d1" else {"type": "nextDeal"}, ref=ref)
                assert await again.outcome(ref) == {"type": "ack", "ref": ref, "seq": seq}
            assert room_id in b.app.state.rooms._writers
            await again.send({"type": "ping"})
            await again.expect("pong")
            assert again.view["moves"] == moves and again.view["hand"] == hand
            await again.close()
    finally:
        await drop_prefix(prefix)
