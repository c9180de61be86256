"""Every preset is hosted end to end: bots on real sockets play a deal of each variant to
its end, choosing only from the `legal` list their views give them."""

from __future__ import annotations

import random
from typing import Any

import pytest
from live import Client, Server

COLORS = {"light": "RGBY", "dark": "PTOV"}

PRESETS = [
    ("classic", 3),
    ("house", 4),
    ("party", 4),
    ("crazy", 4),
    ("druk", 4),
    ("helsinki", 3),
    ("warszawa", 3),
    ("duo", 2),
    ("flip", 3),
    ("knockout", 3),
    ("oneAndDone", 3),
    ("rommy", 3),
    ("bottle", 3),
]


def complete(action: dict[str, Any], view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Fill in what a client adds to a listed play: the colour of a wild, a swap target."""
    action = dict(action)
    if action["type"] == "play":
        if view["rules"].get("sevenZero") or view["rules"].get("sevenSwap"):
            others = [p["seat"] for p in view["players"] if p["seat"] != view["you"]]
            action.setdefault("target", rng.choice(others))
        action.setdefault("color", rng.choice(COLORS[view.get("side", "light")]))
        if len(view["hand"]) - len(action["cards"]) <= 1:
            action["uno"] = True
    return action


def actor(clients: list[Client]) -> Client:
    """The seat whose turn it is if it has a move, else any seat with one."""
    turn = clients[0].view.get("turn")
    with_moves = [c for c in clients if c.view["legal"]]
    for client in with_moves:
        if client.view["you"] == turn:
            return client
    assert with_moves, clients[0].view
    return with_moves[0]


@pytest.mark.parametrize(("preset", "players"), PRESETS, ids=[p for p, _ in PRESETS])
async def test_a_deal_of_every_preset_plays_to_its_end_over_sockets(
    fast_server: Server, preset: str, players: int
) -> None:
    server = fast_server
    rng = random.Random(preset)
    room = await server.create(rules={"preset": preset}, seats=players)
    seats = [await server.join(room["roomId"], f"p{i}", ageConfirmed=True) for i in range(players)]
    await server.start(room["roomId"], room["hostToken"])
    clients = [await server.connect(room["roomId"], s["token"]) for s in seats]
    for client in clients:
        await client.wait_seq(clients[-1].seq)
    for _ in range(3000):
        view = clients[0].view
        if view["phase"] in ("dealOver", "matchOver"):
            break
        mover = actor(clients)
        legal = mover.view["legal"]
        # Mostly shedding cards (a play; in Rommy a meld or lay-off) so that deals end soon;
        # now and then anything listed, so every kind of action is taken.
        sheds = [a for a in legal if a["type"] in ("play", "meld", "layOff")]
        choice = rng.choice(sheds if sheds and rng.random() < 0.9 else legal)
        ref = await mover.act(complete(choice, mover.view, rng))
        outcome = await mover.outcome(ref)
        assert outcome["type"] == "ack", (preset, choice, outcome)
        for client in clients:
            await client.wait_seq(outcome["seq"])
    assert clients[0].view["phase"] in ("dealOver", "matchOver"), clients[0].view
    for client in clients:
        await client.close()
