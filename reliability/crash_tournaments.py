"""Kill -9 of the node serving a tournament's start or next round, at many moments of it;
every tournament must still reach its tables' results.

Three nodes share a Redis the script starts itself. Each tournament (two players at one
table, one deal a round) is created on the survivor node; one host call of it is sent to
one of the two other nodes, which is killed with SIGKILL at one moment of that call, then
restarted (the next call goes to the other one meanwhile):
the start of a one-round tournament, or the next round of a two-round one (whose first
round the host entered by hand). The moments are counted from the instant the
tournament's document in Redis shows the call's write (the round seated), the window in
which the round's rooms are being opened: 0 ms, a few ms, tens of ms after it; and a few
kills come that long after the call was sent, whether it landed or not (a host whose call
did not land tries again on the survivor; a second try of a landed call is refused as
done). Nobody comes to the tables: the autopilot plays every seat.

At the end the counts are taken: tournaments over with every table's result, tables whose
room never opened, host retries refused otherwise than as done, tracebacks in the logs.

    python -m reliability.crash_tournaments [--tournaments 20] [--seed N]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
import redis.asyncio as aioredis

from reliability.bots import Report, print_report
from reliability.processes import Node, RedisServer, node_env

# Kill moments, in ms after the write shows in Redis (negative: that many ms after the
# request was sent, whether or not the write landed).
MOMENTS = (0.0, 0.0, 1.0, 2.0, 5.0, 10.0, 20.0, 40.0, -5.0, -30.0)

TOURNAMENT: dict[str, Any] = {
    "name": "Night shift",
    "dealsPerRound": 1,
    "turnSeconds": 5,
    "tableSize": 3,  # (two players: one table of two)
    # (Round 1 of a two-round tournament is entered by the host before it deals.)
    "tableStartSeconds": 2,
    "rules": {"preset": "classic"},
}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@dataclass
class Tournament:
    tid: str
    host: str
    players: list[str]
    rounds: int
    refused: list[str] = field(default_factory=list)
    retried: int = 0


@dataclass
class Attack:
    survivor: Node
    victims: list[Node]
    redis: aioredis.Redis
    prefix: str
    rng: random.Random
    notes: list[str] = field(default_factory=list)
    kills: int = 0
    missed: int = 0  # the write did not show within the wait (the kill came at the end)
    # Each victim's restart after its last kill (the next call to it waits for it).
    restarts: dict[str, asyncio.Task[None]] = field(default_factory=dict)

    async def rest(self, method: str, path: str, **kw: Any) -> httpx.Response:
        async with httpx.AsyncClient(base_url=self.survivor.base, timeout=15) as http:
            return await http.request(method, path, **kw)

    async def version(self, tid: str) -> int:
        found = await self.redis.hget(f"{self.prefix}:tournament:{{{tid}}}", "version")
        return int(found or 0)

    async def new(self, rounds: int) -> Tournament:
        body = {**TOURNAMENT, "rounds": rounds}
        made = (await self.rest("POST", "/api/tournaments", json=body)).json()
        players = []
        for name in ("Ada", "Bo"):
            r = await self.rest(
                "POST", f"/api/tournaments/{made['tournamentId']}/players", json={"name": name}
            )
            players.append(r.json()["token"])
        return Tournament(made["tournamentId"], made["hostToken"], players, rounds)

    async def host_call_killed(
        self, tour: Tournament, path: str, body: dict[str, Any] | None, moment: float
    ) -> None:
        """The host's call to a victim node, the victim killed at ``moment``; then the
        victim restarts (meanwhile the next call goes to another victim) and the host
        tries again on the survivor if it must."""
        victim = self.victims[self.kills % len(self.victims)]
        if victim.name in self.restarts:
            await self.restarts.pop(victim.name)
        before = await self.version(tour.tid)
        url = f"{victim.base}/api/tournaments/{tour.tid}{path}"

        async def call() -> None:
            with contextlib.suppress(httpx.HTTPError):
                async with httpx.AsyncClient(timeout=15) as http:
                    await http.post(url, json=body, headers=bearer(tour.host))

        sent = asyncio.create_task(call())
        if moment < 0:
            await asyncio.sleep(-moment / 1000)
        else:
            deadline = time.monotonic() + 10
            while await self.version(tour.tid) == before:
                if time.monotonic() > deadline:
                    self.missed += 1
                    break
            if moment:
                await asyncio.sleep(moment / 1000)
        victim.kill()
        self.kills += 1
        await asyncio.gather(sent, return_exceptions=True)
        self.restarts[victim.name] = asyncio.create_task(asyncio.to_thread(victim.start))
        # As a host would: not done? Again, on the node that answers.
        if await self.version(tour.tid) == before:
            tour.retried += 1
            r = await self.rest(
                "POST", f"/api/tournaments/{tour.tid}{path}", json=body, headers=bearer(tour.host)
            )
            if r.status_code != 200:
                tour.refused.append(r.json().get("code", str(r.status_code)))

    async def correct_round(self, tour: Tournament, number: int) -> None:
        """The host enters the round's results (as after a paper tally): the round is
        over without its tables being played."""
        doc = await self.shown(tour.tid)
        for table in doc["roundLog"][number - 1]["tables"]:
            result = [
                {"playerId": pid, "place": place + 1, "leftInHand": 10 * place}
                for place, pid in enumerate(table["players"])
            ]
            r = await self.rest(
                "PUT",
                f"/api/tournaments/{tour.tid}/tables/{table['tableId']}/result",
                json={"result": result, "reason": "tallied on paper"},
                headers=bearer(tour.host),
            )
            assert r.status_code == 200, r.text

    async def shown(self, tid: str) -> dict[str, Any]:
        r = await self.rest("GET", f"/api/tournaments/{tid}")
        return dict(orjson.loads(r.content))

    async def wait(self, tid: str, check: Any, within: float) -> dict[str, Any]:
        deadline = time.monotonic() + within
        doc = await self.shown(tid)
        while not check(doc) and time.monotonic() < deadline:
            await asyncio.sleep(0.25)
            doc = await self.shown(tid)
        return doc


def over(doc: dict[str, Any]) -> bool:
    return bool(doc["status"] == "over")


async def play(attack: Attack, tournaments: int, within: float) -> Report:
    """Half the tournaments (one round) have their start killed; the others (two rounds,
    the first entered by the host) their next round."""
    moments = [MOMENTS[i % len(MOMENTS)] for i in range(tournaments)]
    attack.rng.shuffle(moments)
    made = [await attack.new(rounds=1 + i % 2) for i in range(tournaments)]
    for tour, moment in zip(made, moments, strict=True):
        if tour.rounds == 1:
            await attack.host_call_killed(tour, "/start", None, moment)
            attack.notes.append(f"{tour.tid}: start killed at {moment:g} ms")
            continue
        r = await attack.rest(
            "POST", f"/api/tournaments/{tour.tid}/start", headers=bearer(tour.host)
        )
        assert r.status_code == 200, r.text
        await attack.correct_round(tour, 1)
        await attack.host_call_killed(tour, "/rounds", {"round": 2}, moment)
        attack.notes.append(f"{tour.tid}: next round killed at {moment:g} ms")
    finals = [await attack.wait(t.tid, over, within) for t in made]
    rooms_missing = 0
    for doc in finals:
        for round_ in doc["roundLog"]:
            for table in round_["tables"]:
                if table["result"] is None:
                    key = f"{attack.prefix}:{{{table['roomId']}}}:room"
                    there = await attack.redis.exists(key)
                    rooms_missing += 0 if there else 1
                    attack.notes.append(
                        f"{doc['tournamentId']} round {round_['number']} {table['tableId']}:"
                        f" no result, started {table['started']}, room there {bool(there)}"
                    )
        if not over(doc):
            attack.notes.append(
                f"{doc['tournamentId']}: {doc['status']}, round {doc['round']}, "
                f"players {[p['status'] for p in doc['players']]}"
            )
    results = sum(
        1
        for doc in finals
        if over(doc) and all(t["result"] for r in doc["roundLog"] for t in r["tables"])
    )
    report = Report(
        f"crash_tournaments: {tournaments} tournaments, {attack.kills} kills (kill -9) of the"
        " node serving a start or a next round, 3 nodes"
    )
    report.add("kills", attack.kills)
    report.add(
        "tournaments over with every table's result",
        f"{results}/{tournaments}",
        f"{tournaments}/{tournaments}",
        results == tournaments,
    )
    report.add("tables whose room never opened", rooms_missing, "0", rooms_missing == 0)
    report.add("host calls tried again", sum(t.retried for t in made))
    refused = [code for t in made for code in t.refused]
    bad = [c for c in refused if c not in ("tournament/started", "tournament/round_started")]
    report.add("host retries refused otherwise than as done", len(bad), "0", not bad)
    report.add("writes not seen before the kill", attack.missed)
    return report


async def run(tournaments: int = 20, seed: int | None = None, within: float = 60.0) -> Report:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="uno-reliability-") as tmp:
        directory = Path(tmp)
        redis = RedisServer(directory)
        redis.start()
        url = f"sqlite+aiosqlite:///{directory / 'archive.db'}"
        settings = node_env(
            2000,
            UNO_TOURNAMENT_POLL_SECONDS="0.1",
            UNO_BOT_DELAY_MS="5",
            UNO_TIMER_POLL_SECONDS="0.1",
        )
        survivor = Node("survivor", directory, redis.url, url, settings)
        victims = [Node(f"victim{i}", directory, redis.url, url, settings) for i in range(2)]
        client = aioredis.Redis.from_url(redis.url)
        try:
            # One at a time: the first migrates the fresh archive.
            await asyncio.to_thread(survivor.start)
            await asyncio.gather(*(asyncio.to_thread(v.start) for v in victims))
            attack = Attack(survivor, victims, client, settings["UNO_REDIS_PREFIX"], rng)
            report = await play(attack, tournaments, within)
            await asyncio.gather(*attack.restarts.values())
            problems = sum((v.problems() for v in victims), survivor.problems())
            report.add(
                "tracebacks in the logs", problems["traceback"], "0", problems["traceback"] == 0
            )
            report.notes.extend(attack.notes)
            for node in (survivor, *victims):
                report.notes.extend(node.log_excerpt())
            return report
        finally:
            await client.aclose()
            for victim in victims:
                victim.stop()
            survivor.stop()
            redis.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m reliability.crash_tournaments", description=__doc__
    )
    parser.add_argument("--tournaments", type=int, default=20)
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args(argv)
    report = asyncio.run(run(args.tournaments, args.seed))
    return print_report(report)


if __name__ == "__main__":
    sys.exit(main())
