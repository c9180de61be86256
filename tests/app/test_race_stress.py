"""Every race kind, many times over real sockets: exactly one claim wins, the loser is told
``too_late`` with the change that won, and no stale claim (one whose ``at`` is not the
position it would be applied to) is ever applied: judged by arrival order (``fairRaces``
off) and by claim windows (on; tests/app/test_fair_races.py covers how they rank)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from live import Client, Server, running_server, seeded_room
from race_kinds import KINDS, RaceKind, stale_claims

# Races per kind: arrival order, then claim windows (each holds its race a window long).
ROUNDS = {(False, "memory"): 70, (False, "redis"): 20, (True, "memory"): 25, (True, "redis"): 10}


@pytest.fixture(params=[False, True], ids=["arrival", "windows"])
async def racing(
    request: pytest.FixtureRequest, store_kind: str, tmp_path: Any
) -> AsyncIterator[tuple[Server, bool]]:
    async with running_server(store_kind, tmp_path, race_window_ms=20) as live:
        yield live, request.param


async def run_race(
    server: Server, kind: RaceKind, room: dict[str, Any] | None = None
) -> tuple[list[dict[str, Any]], set[tuple[Any, ...]], str]:
    """One race from a fresh room: (the two outcomes, the distinct ends the sockets saw,
    the room id)."""
    room_id, tokens = await seeded_room(
        server, kind.players, kind.rules, kind.setup, **(room or {})
    )
    used = {i for i, _ in kind.prelude} | {i for i, _ in kind.racers} | {0}
    clients: dict[int, Client] = {}
    for index in sorted(used):
        seat = 1 if index == kind.players else index
        clients[index] = await server.connect(room_id, tokens[seat])
    for index, action in kind.prelude:
        ref = await clients[index].act(action)
        assert (await clients[index].outcome(ref))["type"] == "ack"
    last = max(c.seq for c in clients.values())
    for client in clients.values():
        await client.wait_seq(last)
    moves = clients[0].view["moves"]
    refs = await asyncio.gather(
        *(clients[i].act({**action, "at": moves}) for i, action in kind.racers)
    )
    outcomes = [
        await clients[i].outcome(ref) for (i, _), ref in zip(kind.racers, refs, strict=True)
    ]
    final = max(c.seq for c in clients.values())
    for client in clients.values():
        await client.wait_seq(final)
    ends = {(c.seq, c.view["top"], c.view["turn"], c.view["moves"]) for c in clients.values()}
    for client in clients.values():
        await client.close()
    return outcomes, ends, room_id


def one_winner(outcomes: list[dict[str, Any]], codes: set[str]) -> int:
    """The index of the claim that won; the other lost with ``too_late`` naming it."""
    kinds = [o["type"] for o in outcomes]
    assert sorted(kinds) == ["ack", "error"], outcomes
    winner = kinds.index("ack")
    loser = outcomes[1 - winner]
    assert loser["code"] in codes, loser
    assert loser["won"]["seq"] == outcomes[winner]["seq"], outcomes
    return winner


@pytest.mark.parametrize("kind", KINDS, ids=[k.name for k in KINDS])
async def test_each_race_many_times_applies_no_stale_claim(
    racing: tuple[Server, bool], store_kind: str, kind: RaceKind
) -> None:
    server, fair = racing
    rounds = ROUNDS[fair, store_kind]
    wins = [0, 0]
    for _ in range(rounds):
        outcomes, ends, room_id = await run_race(server, kind, {"fairRaces": fair})
        wins[one_winner(outcomes, kind.losing_codes)] += 1
        assert len(ends) == 1, ends  # every socket ends at the same place
        record = await server.app.state.store.load(room_id)
        assert record is not None
        assert stale_claims(record.deal) == []
    assert sum(wins) == rounds
