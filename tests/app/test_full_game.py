"""Whole matches over real sockets: bots play to the end, every patched view matches a
fresh snapshot, and the finished deal is archived in SQL well enough to replay it."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from live import Client, Server


def bot_action(view: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    legal = view["legal"]
    if not legal:
        return None
    plays = [a for a in legal if a["type"] == "play"]
    action = dict(rng.choice(plays) if plays and rng.random() < 0.9 else rng.choice(legal))
    if action["type"] == "play":
        if action["cards"][0].startswith("W") and "color" not in action:
            action["color"] = rng.choice("RGBY")
        if len(view["hand"]) == 2:
            action["uno"] = True
    return action


async def play_to_the_end(clients: list[Client], rng: random.Random, limit: int = 2000) -> None:
    for _ in range(limit):
        view = clients[0].view
        if view["phase"] in ("matchOver", "dealOver"):
            return
        actor = next((c for c in clients if c.view["you"] == view["turn"]), None)
        assert actor is not None
        action = bot_action(actor.view, rng)
        assert action is not None, actor.view
        ref = await actor.act(action)
        outcome = await actor.outcome(ref)
        assert outcome["type"] == "ack", (action, outcome)
        for client in clients:
            await client.wait_seq(outcome["seq"])
    raise AssertionError("the match did not end")


async def archived_match(server: Server, match_id: str, deals: int) -> dict[str, Any]:
    """The match as SQL has it once its first ``deals`` deals are stored (the archive is
    written in the background, after the deal-ending change is published)."""
    async with asyncio.timeout(20):
        while True:
            r = await server.http.get(f"/api/matches/{match_id}")
            if r.status_code == 200 and len(r.json()["deals"]) >= deals:
                return r.json()
            await asyncio.sleep(0.02)


async def test_a_bot_match_ends_and_its_deal_replays_from_sql(fast_server: Server) -> None:
    server = fast_server
    rng = random.Random(3)
    room, seats = await server.table(3, rules={"preset": "oneAndDone"})
    clients = [await server.connect(room["roomId"], s["token"]) for s in seats]
    watcher = await server.connect(room["roomId"])
    for client in clients:
        await client.wait_seq(clients[-1].seq)
    await play_to_the_end(clients, rng)
    assert clients[0].view["phase"] == "matchOver"
    assert clients[0].view["reveal"] is not None
    # Patched views equal fresh snapshots.
    for seat, client in enumerate(clients):
        fresh = await server.connect(room["roomId"], seats[seat]["token"])
        await client.wait_seq(fresh.seq)
        await watcher.wait_seq(fresh.seq)
        assert client.view == fresh.view
        connected = client.seq
        await fresh.close()
        await client.wait_seq(connected + 1)  # the fresh socket's disconnect
    await watcher.wait_seq(clients[0].seq)
    assert watcher.view["hand"] == []
    match_id = watcher.view["room"]["matchId"]
    match = await archived_match(server, match_id, 1)
    assert match["matchOver"] is True and len(match["deals"]) == 1
    replay = (await server.http.get(f"/api/matches/{match_id}/deals/1/replay")).json()
    assert replay["replay"]["consistent"] is True, replay["replay"]
    assert len(replay["actions"]) == match["deals"][0]["actions"] > 0
    mine = (await server.http.get(f"/api/players/{seats[0]['playerId']}/matches")).json()
    assert [m["matchId"] for m in mine["matches"]] == [match_id]
    for client in [*clients, watcher]:
        await client.close()


async def test_next_deal_starts_a_new_deal_with_its_own_archive(fast_server: Server) -> None:
    server = fast_server
    rng = random.Random(5)
    # Two deals: replays are served once the match is over.
    room, seats = await server.table(2, rules={"targetScore": 1000, "roundLimit": 2})
    clients = [await server.connect(room["roomId"], s["token"]) for s in seats]
    await clients[0].wait_seq(clients[1].seq)
    await play_to_the_end(clients, rng)
    assert clients[0].view["phase"] == "dealOver"
    # The host (the first seat) deals on; another seat's nextDeal only says "ready".
    ref = await clients[0].act({"type": "nextDeal"})
    assert (await clients[0].outcome(ref))["type"] == "ack"
    await clients[0].wait_seq(clients[1].seq)
    assert clients[0].view["phase"] in ("playing", "chooseColor")
    assert clients[0].view["deal"] == 2
    await play_to_the_end(clients, rng)
    match_id = clients[0].view["room"]["matchId"]
    match = await archived_match(server, match_id, 2)
    assert [d["number"] for d in match["deals"]] == [1, 2]
    for number in (1, 2):
        replay = (await server.http.get(f"/api/matches/{match_id}/deals/{number}/replay")).json()
        assert replay["replay"]["consistent"] is True
    for client in clients:
        await client.close()
