"""Nothing that lets anyone derive a live deal's hidden cards leaves the server before the
match is over: an attacker with only a match id (every view has it, spectators' too) and
the REST routes tries to predict the next deal's hands from what a finished deal reveals.

Before deals had seeds of their own, one finished deal's seed, start state or final state
was enough to predict the next; the test still tries that, during the match and after it
(each deal is now shuffled from a seed derived one-way from a match secret and the
clients' contributions, so even after the match a deal's replay predicts no other deal;
each deal's own record proves its deal, see test_verifiable_shuffle.py)."""

from __future__ import annotations

import random
from typing import Any

import httpx
from live import Server
from test_full_game import archived_match, play_to_the_end

from engine import State, apply

RULES = {"targetScore": 1000, "roundLimit": 2}


def predicted_hands(bodies: list[Any]) -> list[list[str]] | None:
    """The hands of the deal after the one a replay shows, if any body holds a replay's
    final state: the next deal is dealt by ``nextDeal`` from it, deterministically."""
    for body in bodies:
        final = body.get("finalState") if isinstance(body, dict) else None
        if final:
            state = State.from_json(final)
            state, _ = apply(state, state.active_seats()[0], {"type": "nextDeal"})
            return [list(h) for h in state.hands]
    return None


async def everything_rest_tells(
    http: httpx.AsyncClient, room_id: str, match_id: str, player_ids: list[str]
) -> tuple[list[Any], list[httpx.Response]]:
    """Every history and room route an outsider can reach for this match."""
    responses = [
        await http.get(f"/api/matches/{match_id}"),
        await http.get(f"/api/rooms/{room_id}"),
        await http.get("/api/rooms"),
    ]
    replays = [await http.get(f"/api/matches/{match_id}/deals/{n}/replay") for n in (1, 2, 3)]
    responses += replays
    responses += [await http.get(f"/api/players/{p}/matches") for p in player_ids]
    return [r.json() for r in responses], replays


async def test_no_route_or_socket_lets_anyone_predict_a_live_deal(fast_server: Server) -> None:
    server = fast_server
    room, seats = await server.table(2, rules=RULES)
    room_id = room["roomId"]
    clients = [await server.connect(room_id, s["token"]) for s in seats]
    watcher = await server.connect(room_id)
    await clients[0].wait_seq(watcher.seq)
    match_id = watcher.view["room"]["matchId"]
    seed = (await server.app.state.store.load(room_id)).deal[0]["start"]["seed"]
    player_ids = [s["playerId"] for s in seats]

    await play_to_the_end(clients, random.Random(3))
    assert clients[0].view["phase"] == "dealOver"
    await archived_match(server, match_id, 1)  # deal 1 is in SQL now
    ref = await clients[0].act({"type": "nextDeal"})
    ack = await clients[0].outcome(ref)
    assert ack["type"] == "ack"
    for client in (*clients, watcher):
        await client.wait_seq(ack["seq"])
    dealt = [clients[s].view["hand"] for s in range(2)]
    assert clients[0].view["deal"] == 2 and not clients[0].view["matchOver"]

    # The attack, while deal 2 is played: nothing to predict it from.
    bodies, replays = await everything_rest_tells(server.http, room_id, match_id, player_ids)
    for replay in replays:
        assert replay.status_code == 409, replay.text
        assert replay.json()["code"] == "match_in_progress"
    assert predicted_hands(bodies) is None
    texts = [r for r in map(str, bodies)] + [
        str(m) for c in (*clients, watcher) for m in c.messages
    ]
    assert not [t for t in texts if seed in t], "the match seed left the server early"
    assert all(c.view["seed"] is None for c in (*clients, watcher))

    # Once the match is over everything is shown; still, the first deal predicts no other.
    await play_to_the_end(clients, random.Random(4))
    assert clients[0].view["phase"] == "matchOver"
    match = await archived_match(server, match_id, 2)
    assert match["matchOver"] is True
    bodies, replays = await everything_rest_tells(server.http, room_id, match_id, player_ids)
    assert [r.status_code for r in replays] == [200, 200, 404]
    assert replays[0].json()["seed"] == seed
    assert predicted_hands(bodies) != dealt
    assert replays[1].json()["startState"]["hands"][0] == dealt[0]
    assert watcher.view["seed"] == replays[1].json()["seed"]  # the last deal's
    for client in (*clients, watcher):
        await client.close()
