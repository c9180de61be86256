"""Out-of-turn races on real sockets: the room's log order decides, the later action is
judged against the new state and refused with the engine's code. Each race runs many times
so that both orders happen."""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

import pytest
from live import Client, Server, seeded_room

ROUNDS = 12


async def _race(
    server: Server, players: int, rules: dict[str, Any], setup: dict[str, Any], prelude, racers
) -> tuple[list[dict[str, Any]], list[Client]]:
    """Seat a room at ``setup``, run ``prelude`` actions in order, then send the ``racers``
    ((connection index, action) pairs) at once; returns their outcomes and the clients."""
    room_id, tokens = await seeded_room(server, players, rules, setup)
    clients = [await server.connect(room_id, t) for t in tokens]
    # A second device for seat 1, for races between one player's own devices.
    clients.append(await server.connect(room_id, tokens[1]))
    for index, action in prelude:
        ref = await clients[index].act(action)
        assert (await clients[index].outcome(ref))["type"] == "ack"
    last = max(c.seq for c in clients)
    for client in clients:
        await client.wait_seq(last)
    moves = clients[0].view["moves"]
    refs = await asyncio.gather(*(clients[i].act({**action, "at": moves}) for i, action in racers))
    outcomes = [await clients[i].outcome(ref) for (i, _), ref in zip(racers, refs, strict=True)]
    final = max(c.seq for c in clients)
    for client in clients:
        await client.wait_seq(final)
    # Every socket ends at the same place, whatever the order.
    tops = {(c.seq, c.view["top"], c.view["turn"], c.view["moves"]) for c in clients}
    assert len(tops) == 1, tops
    for client in clients:
        await client.close()
    return outcomes, clients


def _one_wins(outcomes: list[dict[str, Any]], codes: set[str]) -> int:
    kinds = [o["type"] for o in outcomes]
    assert sorted(kinds) == ["ack", "error"], outcomes
    loser = outcomes[kinds.index("error")]
    assert loser["code"] in codes, loser
    return kinds.index("ack")


async def test_jump_in_against_a_normal_play(server: Server) -> None:
    setup = {
        "hands": [["R7", "G1", "G2"], ["Y1", "Y2", "Y3"], ["R5", "B1", "B2"], ["B7", "B8", "B9"]],
        "discard": ["R5"],
        "color": "R",
        "drawPile": ["G7", "G8", "G9"],
        "turn": 0,
    }
    winners: Counter[int] = Counter()
    for _ in range(ROUNDS):
        outcomes, clients = await _race(
            server,
            4,
            {"jumpIn": True},
            setup,
            [],
            [(0, {"type": "play", "cards": ["R7"]}), (2, {"type": "play", "cards": ["R5"]})],
        )
        winner = _one_wins(outcomes, {"not_your_turn", "too_late"})
        winners[winner] += 1
        assert clients[0].view["top"] == ("R7" if winner == 0 else "R5")
    assert sum(winners.values()) == ROUNDS


async def test_two_jump_ins_with_identical_cards(server: Server) -> None:
    setup = {
        "hands": [["G1", "G2", "G3"], ["R5", "Y2", "Y3"], ["B7", "B8", "B9"], ["R5", "B1", "B2"]],
        "discard": ["R5"],
        "color": "R",
        "drawPile": ["G7", "G8", "G9"],
        "turn": 0,
    }
    # Seats 1 and 3 jump in: after either, the turn is not the other's, so the other's
    # jump-in is judged against a table that moved on.
    for _ in range(ROUNDS):
        outcomes, clients = await _race(
            server,
            4,
            {"jumpIn": True},
            setup,
            [],
            [(1, {"type": "play", "cards": ["R5"]}), (3, {"type": "play", "cards": ["R5"]})],
        )
        winner = _one_wins(outcomes, {"too_late"})
        hands = [c["cards"] for c in clients[0].view["players"]]
        assert hands[1 + 2 * winner] == 2 and hands[3 - 2 * winner] == 3


async def test_uno_call_against_a_catch(server: Server) -> None:
    setup = {
        "hands": [["R1", "R2"], ["Y1", "Y2", "Y3"], ["B1", "B2", "B3"]],
        "discard": ["R5"],
        "color": "R",
        "drawPile": ["G7", "G8", "G9", "G4"],
        "turn": 0,
    }
    winners: Counter[int] = Counter()
    for _ in range(ROUNDS):
        outcomes, clients = await _race(
            server,
            3,
            {},
            setup,
            [(0, {"type": "play", "cards": ["R1"]})],  # next-to-last card, no UNO call
            [(0, {"type": "callUno"}), (1, {"type": "catchUno", "target": 0})],
        )
        winner = _one_wins(outcomes, {"too_late", "nothing_to_catch", "nothing_to_call"})
        winners[winner] += 1
        cards = clients[1].view["players"][0]["cards"]
        assert cards == (1 if winner == 0 else 3)
    assert sum(winners.values()) == ROUNDS


async def test_a_challenge_against_a_draw_from_two_devices(server: Server) -> None:
    setup = {
        "hands": [["W+4", "G1", "G2"], ["Y1", "Y2", "Y3"], ["B1", "B2", "B3"]],
        "discard": ["R5"],
        "color": "R",
        "drawPile": ["G7", "G8", "G9", "G4", "Y7", "Y8", "Y9", "B7"],
        "turn": 0,
    }
    for _ in range(ROUNDS):
        outcomes, clients = await _race(
            server,
            3,
            {},
            setup,
            [(0, {"type": "play", "cards": ["W+4"], "color": "G"})],
            [(1, {"type": "challenge"}), (3, {"type": "draw"})],
        )
        winner = _one_wins(outcomes, {"not_your_turn", "too_late", "nothing_to_challenge"})
        # A failed challenge costs 4 + 2 cards, a draw the 4 of the penalty.
        assert clients[0].view["players"][1]["cards"] == (9 if winner == 0 else 7)


# Every action type answers a stale ``at`` with too_late, naming the change that won.
STALE_SETUP = {
    "hands": [["R7", "G1", "G2"], ["Y1", "Y2", "Y3"], ["R5", "B1", "B2"]],
    "discard": ["R5"],
    "color": "R",
    "drawPile": ["G7", "G8", "G9"],
    "turn": 0,
}
EVERY_ACTION = [
    {"type": "play", "cards": ["Y1"]},
    {"type": "play", "cards": ["R5"]},
    {"type": "draw"},
    {"type": "pass"},
    {"type": "callUno"},
    {"type": "catchUno", "target": 0},
    {"type": "challenge"},
    {"type": "chooseColor", "color": "R"},
    {"type": "nextDeal"},
    {"type": "keep"},
    {"type": "discard"},
    {"type": "meld", "cards": ["R5", "G5", "B5"]},
    {"type": "layOff", "cards": ["R5"], "target": 0},
    {"type": "takeDiscard"},
    {"type": "takePile"},
    {"type": "discardCard", "cards": ["R5"]},
    {"type": "swapJoker", "cards": ["R5"], "target": 0},
    {"type": "turnCard"},
]


async def test_every_action_type_with_a_stale_at_is_too_late_naming_the_winner(
    server: Server,
) -> None:
    room_id, tokens = await seeded_room(server, 3, {"jumpIn": True}, STALE_SETUP)
    clients = [await server.connect(room_id, t) for t in tokens]
    ref = await clients[0].act({"type": "play", "cards": ["R7"], "at": 0})
    won = await clients[0].outcome(ref)
    assert won["type"] == "ack"
    await clients[1].wait_seq(won["seq"])
    seq = clients[1].seq
    for action in EVERY_ACTION:
        ref = await clients[1].act({**action, "at": 0})
        answer = await clients[1].outcome(ref)
        assert answer["code"] == "too_late", (action, answer)
        assert answer["won"] == {"seq": won["seq"], "type": "play", "seat": 0}
        ref = await clients[1].act({**action, "at": 5})
        assert (await clients[1].outcome(ref))["code"] == "too_late", action
    assert clients[1].seq == seq  # nothing changed
    for client in clients:
        await client.close()


@pytest.mark.parametrize("bad", [-1, 1.5, "0", True, None, [0]])
async def test_at_of_the_wrong_type_is_bad_at_and_changes_nothing(
    server: Server, bad: object
) -> None:
    room_id, tokens = await seeded_room(server, 3, {"jumpIn": True}, STALE_SETUP)
    client = await server.connect(room_id, tokens[0])
    seq = client.seq
    ref = await client.act({"type": "play", "cards": ["R7"], "at": bad})
    answer = await client.outcome(ref)
    if bad is None:  # JSON null: no ``at``
        assert answer["type"] == "ack"
    else:
        assert answer["code"] == "bad_at", answer
        await asyncio.sleep(0.05)
        assert client.seq == seq
    await client.close()
