"""A tournament of bots on one server process: N players at 4-seat tables for R rounds of
one deal, every player a bot client on its own socket, as people's browsers would be.

In one run, on one server process (started as ``python -m app``, memory store by default):

1. **Reference**: as many plain rooms as the tournament has tables, each with 4 bot
   sockets, play one deal (``roundLimit`` 1, the tournament's rules and turn timer) all at
   once. Reports the wall time and the server's CPU per applied action.
2. **Tournament**: N players register over REST; the host starts it; each round, every
   player asks for its seat (``GET .../seat``) when the tournament socket says the round
   started, plays its table to the end of its match over the table's room socket, and the
   host starts the next round as soon as the socket says the round is over. Reports the
   wall time per round (host's call to ``roundOver`` on the socket), the server's CPU per
   applied action, and the standings push latency: from the moment a table's first seat
   sees its match over to the ``standings`` event after that table's ``tableResult`` on
   each of ``--watchers`` sockets of ``/ws/tournaments/{id}`` (the tournament pages people
   keep open).
3. **Reference** again, so that a machine whose load changed during the run shows it.

The bots play the same policy everywhere (``bench/load.py``'s ``pick``: a random legal
play, else the first legal action) and act as soon as it is their turn: the server's
work sets the pace. CPU is read from ``/proc`` for the server process only.

    python bench/tournament.py [--players 256] [--rounds 5] [--watchers 32]
                               [--store memory|redis] [--quick] [--json FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load import (  # noqa: E402
    Target,
    apply_ops,
    drop_prefix,
    percentile,
    pick,
    start_target,
    tree_cpu_seconds,
)

TABLE = 4
TURN_SECONDS = 30
RULES = {"preset": "classic"}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@dataclass
class Play:
    """What one seat's bot did at one table."""

    acks: int = 0  # actions the room applied
    ended_at: float | None = None  # when this seat saw the match over (perf_counter)
    retries: int = 0  # sockets refused or lost before the match was over
    missed: bool = False  # the match ended while this seat could not connect


async def play_seat(
    url: str, seed: int, over: Callable[[], Awaitable[bool]], limit: float = 600.0
) -> Play:
    """Play one seat until its match is over. A table's room may not be open yet when its
    seat is known (the host's call opens the round's rooms one by one): a socket refused
    or closed before the match is over connects again, unless ``over()`` (asked over REST)
    says the match ended meanwhile."""
    rng = random.Random(seed)
    done = Play()
    async with asyncio.timeout(limit):
        while done.ended_at is None:
            try:
                async with connect(url, compression=None, max_size=None) as ws:
                    await _play(ws, rng, seed, done)
            except (OSError, WebSocketException) as err:
                done.retries += 1
                if done.retries == 20:
                    print(f"a seat still cannot play after 20 tries: {err!r}", file=sys.stderr)
            if done.ended_at is None:
                await asyncio.sleep(0.1)
                if done.retries and await over():
                    done.ended_at = time.perf_counter()  # (no latency is taken from it)
                    done.missed = True
    return done


async def _play(ws: ClientConnection, rng: random.Random, seed: int, done: Play) -> None:
    """The view is kept from the snapshot and the patches; the bot acts as soon as it is
    its turn."""
    view: dict[str, Any] = {}
    seq = 0
    acted = -1
    async for raw in ws:
        message = orjson.loads(raw)
        kind = message["type"]
        if kind == "ping":  # the server measures round trips: answer as a client does
            await ws.send(orjson.dumps({"type": "pong", "n": message["n"]}).decode())
            continue
        if kind == "snapshot":
            view, seq = message["view"], message["seq"]
        elif kind == "patch":
            view = apply_ops(view, message.get("ops", ()))
            seq = message["seq"]
        elif kind == "ack":
            done.acks += 1
        elif kind == "error":
            acted = -1  # refused (the position moved on): choose again
        else:
            continue
        room = view.get("room") or {}
        if view.get("phase") == "matchOver" or room.get("status") in ("over", "ended"):
            done.ended_at = time.perf_counter()
            return
        mine = view.get("turn") == view.get("you") or view.get("phase") == "dealOver"
        if mine and view.get("legal") and seq != acted:
            action = pick(view, rng)
            if action is not None:
                acted = seq
                message = {"type": "action", "id": f"a{seed}-{seq}", "action": action}
                await ws.send(orjson.dumps(message).decode())


def _room_over(http: httpx.AsyncClient, room_id: str) -> Callable[[], Awaitable[bool]]:
    async def over() -> bool:
        r = await http.get(f"/api/rooms/{room_id}")
        return r.status_code != 200 or r.json()["status"] != "playing"

    return over


def _table_over(http: httpx.AsyncClient, tid: str, table_id: str) -> Callable[[], Awaitable[bool]]:
    async def over() -> bool:
        r = await http.get(f"/api/tournaments/{tid}/tables/{table_id}")
        return r.status_code == 200 and r.json()["result"] is not None

    return over


@dataclass
class Phase:
    wall: float = 0.0
    cpu: float = 0.0
    actions: int = 0

    def per_action_ms(self) -> float:
        return self.cpu / self.actions * 1000 if self.actions else float("nan")


class Measured:
    """Server CPU and wall time between ``start()`` and ``stop()``."""

    def __init__(self, target: Target) -> None:
        self.pid = target.process.pid

    def start(self) -> None:
        self.cpu0, self.wall0 = tree_cpu_seconds(self.pid), time.perf_counter()

    def stop(self, actions: int) -> Phase:
        return Phase(
            time.perf_counter() - self.wall0, tree_cpu_seconds(self.pid) - self.cpu0, actions
        )


async def reference(target: Target, http: httpx.AsyncClient, rooms: int, seed: int) -> Phase:
    """``rooms`` plain rooms of 4 bots each play one deal at once."""
    made = []
    for _ in range(rooms):
        body = {
            "name": "plain",
            "seats": TABLE,
            "rules": {**RULES, "roundLimit": 1},
            "turnSeconds": TURN_SECONDS,
        }
        room = (await http.post("/api/rooms", json=body)).json()
        tokens = []
        for i in range(TABLE):
            r = await http.post(f"/api/rooms/{room['roomId']}/join", json={"name": f"p{i}"})
            tokens.append(r.json()["token"])
        made.append((room, tokens))
    measured = Measured(target)
    measured.start()
    plays = []
    for index, (room, tokens) in enumerate(made):
        r = await http.post(f"/api/rooms/{room['roomId']}/start", headers=bearer(room["hostToken"]))
        r.raise_for_status()
        for i, token in enumerate(tokens):
            url = f"{target.ws_base}/ws/rooms/{room['roomId']}?token={token}"
            over = _room_over(http, room["roomId"])
            plays.append(asyncio.create_task(play_seat(url, seed + index * TABLE + i, over)))
    done = await asyncio.gather(*plays)
    return measured.stop(sum(p.acks for p in done))


@dataclass
class Feed:
    """A watcher of ``/ws/tournaments/{id}``: round starts and ends, and when each table's
    standings arrived."""

    round_started: dict[int, asyncio.Event] = field(default_factory=dict)
    round_over: dict[int, asyncio.Event] = field(default_factory=dict)
    standings_at: dict[str, float] = field(default_factory=dict)  # tableId -> arrival
    over: asyncio.Event = field(default_factory=asyncio.Event)

    def event(self, store: dict[int, asyncio.Event], number: int) -> asyncio.Event:
        return store.setdefault(number, asyncio.Event())

    async def watch(self, url: str) -> None:
        pending: list[str] = []  # tables whose result came, awaiting the standings after it
        async with connect(url, subprotocols=["uno.v1"], max_size=None) as ws:  # type: ignore[list-item]
            async for raw in ws:
                message = orjson.loads(raw)
                if message["type"] != "event":
                    continue
                event = message["event"]
                kind = event["type"]
                if kind == "roundStarted":
                    self.event(self.round_started, event["round"]).set()
                elif kind == "tableResult" and not event.get("corrected"):
                    pending.append(event["tableId"])
                elif kind == "standings":
                    now = time.perf_counter()
                    for table_id in pending:
                        self.standings_at[table_id] = now
                    pending = []
                elif kind == "roundOver":
                    self.event(self.round_over, event["round"]).set()
                elif kind == "over":
                    self.over.set()
                    return


async def player(
    target: Target,
    http: httpx.AsyncClient,
    tid: str,
    token: str,
    feed: Feed,
    rounds: int,
    seed: int,
) -> list[tuple[int, str, Play]]:
    """One registered player: each round, its seat and its table's match (round, table id,
    what it did)."""
    played = []
    for number in range(1, rounds + 1):
        await feed.event(feed.round_started, number).wait()
        while True:
            r = await http.get(f"/api/tournaments/{tid}/seat", headers=bearer(token))
            if r.status_code == 200 and r.json()["round"] == number:
                break
            if r.status_code == 404 and r.json()["code"] == "tournament/not_seated":
                break  # withdrawn (its table started without it and ended before it came)
            await asyncio.sleep(0.1)
        if r.status_code != 200:
            continue
        seat = r.json()
        url = f"{target.ws_base}/ws/rooms/{seat['roomId']}?token={seat['token']}"
        over = _table_over(http, tid, seat["tableId"])
        played.append((number, seat["tableId"], await play_seat(url, seed * 100 + number, over)))
    return played


async def _round_over(feed: Feed, number: int, bots: list[asyncio.Task[Any]]) -> None:
    """Until the feed says round ``number`` is over; a bot that failed stops the run."""
    over = feed.event(feed.round_over, number)
    async with asyncio.timeout(900):
        while not over.is_set():
            for bot in bots:
                if bot.done() and bot.exception() is not None:
                    raise RuntimeError("a player's bot failed") from bot.exception()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(over.wait(), 1)


async def tournament(
    target: Target, http: httpx.AsyncClient, players: int, rounds: int, watchers: int = 1
) -> dict[str, Any]:
    body = {
        "name": "bench",
        "rules": RULES,
        "tableSize": TABLE,
        "rounds": rounds,
        "dealsPerRound": 1,
        "turnSeconds": TURN_SECONDS,
        # Tables deal as soon as their 4 players are there; the start time is only a
        # fallback (a starved bot client on a loaded machine may take long to come).
        "tableStartSeconds": 600,
    }
    made = (await http.post("/api/tournaments", json=body)).json()
    tid, host = made["tournamentId"], bearer(made["hostToken"])
    tokens = []
    for i in range(players):
        r = await http.post(f"/api/tournaments/{tid}/players", json={"name": f"P{i:03d}"})
        r.raise_for_status()
        tokens.append(r.json()["token"])
    # The first watcher paces the run; the others are the tournament pages people keep
    # open (each gets every push: their latency counts too).
    feeds = [Feed() for _ in range(max(1, watchers))]
    feed = feeds[0]
    url = f"{target.ws_base}/ws/tournaments/{tid}"
    watching = [asyncio.create_task(f.watch(url)) for f in feeds]
    await asyncio.sleep(0.5 + 0.01 * len(feeds))  # the watchers' snapshots
    bots = [
        asyncio.create_task(player(target, http, tid, token, feed, rounds, i))
        for i, token in enumerate(tokens)
    ]
    measured = Measured(target)
    per_round: list[Phase] = []
    for number in range(1, rounds + 1):
        measured.start()
        path = "start" if number == 1 else "rounds"
        r = await http.post(f"/api/tournaments/{tid}/{path}", headers=host)
        r.raise_for_status()
        await _round_over(feed, number, bots)
        phase = measured.stop(0)  # its actions are counted from the seats' acks below
        per_round.append(phase)
        print(f"round {number}: {phase.wall:.1f} s, server CPU {phase.cpu:.1f} s", flush=True)
    played = await asyncio.gather(*bots)
    await asyncio.wait_for(feed.over.wait(), 60)
    await asyncio.sleep(1)  # the other watchers' last pushes
    for task in watching:
        task.cancel()
    # Actions per round, from every seat's acks at its table of that round.
    for number, phase in enumerate(per_round, start=1):
        phase.actions = sum(p.acks for plays in played for n, _, p in plays if n == number)
    ended: dict[str, float] = {}
    for plays in played:
        for _, table_id, p in plays:
            if p.ended_at is not None and not p.missed:
                ended[table_id] = min(ended.get(table_id, p.ended_at), p.ended_at)
    latencies = [f.standings_at[t] - ended[t] for f in feeds for t in ended if t in f.standings_at]
    standings = (await http.get(f"/api/tournaments/{tid}/standings")).json()["rows"]
    return {
        "rounds": per_round,
        "latencies": latencies,
        "watchers": len(feeds),
        "tables": len(ended),
        "ranked": len(standings),
        # Players the autopilot played for a whole table (their bot never came): none, or
        # the figures measured the autopilot rather than the players' sockets.
        "withdrawn": sum(1 for row in standings if row["status"] != "active"),
        # Seat sockets refused or lost before their match was over (connected again).
        "retries": sum(p.retries for plays in played for _, _, p in plays),
        "missed": sum(1 for plays in played for _, _, p in plays if p.missed),
    }


def report(args: argparse.Namespace, before: Phase, result: dict[str, Any], after: Phase) -> str:
    rounds: list[Phase] = result["rounds"]
    tables = args.players // TABLE
    lines = [
        f"{args.players} players, {args.rounds} rounds of one deal at {TABLE}-seat tables"
        f" ({tables} tables a round), one server process ({args.store} store);"
        f" load average {os.getloadavg()[0]:.1f} at the end",
        "",
        "| phase | wall | actions | server CPU | CPU per action | x plain room |",
        "|---|---|---|---|---|---|",
    ]
    ref = (before.per_action_ms() + after.per_action_ms()) / 2

    def row(name: str, phase: Phase) -> str:
        ratio = phase.per_action_ms() / ref if ref else float("nan")
        return (
            f"| {name} | {phase.wall:.1f} s | {phase.actions:,} | {phase.cpu:.1f} s"
            f" | {phase.per_action_ms():.2f} ms | {ratio:.2f} |"
        )

    lines.append(row(f"plain rooms ({tables} at once), before", before))
    for number, phase in enumerate(rounds, start=1):
        lines.append(row(f"tournament round {number}", phase))
    total = Phase(
        sum(p.wall for p in rounds), sum(p.cpu for p in rounds), sum(p.actions for p in rounds)
    )
    lines.append(row("tournament, all rounds", total))
    lines.append(row(f"plain rooms ({tables} at once), after", after))
    lat = result["latencies"]
    lines += [
        "",
        f"standings push latency over {result['tables']} tables x {result['watchers']} watcher"
        f" sockets (a table's match over, seen by its first seat, to the standings event after"
        f" its result on a watcher socket; {len(lat)} pushes): p50"
        f" {percentile(lat, 0.5):.0f} ms, p95 {percentile(lat, 0.95):.0f} ms, max"
        f" {max(lat, default=float('nan')) * 1000:.0f} ms; players withdrawn (never came to"
        f" a table): {result['withdrawn']}; seat sockets connected again: {result['retries']}"
        f" ({result['missed']} found their match over)",
    ]
    return "\n".join(lines)


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    load_start = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        target = await start_target(args.store, args.redis, tmp)
        try:
            async with httpx.AsyncClient(base_url=target.base, timeout=60) as http:
                tables = args.players // TABLE
                before = await reference(target, http, tables, 1)
                print(f"plain rooms: {before.wall:.1f} s, {before.actions} actions", flush=True)
                result = await tournament(target, http, args.players, args.rounds, args.watchers)
                after = await reference(target, http, tables, 2)
        finally:
            target.process.terminate()
            with contextlib.suppress(Exception):
                target.process.wait(timeout=15)
            if args.store == "redis":
                await drop_prefix(args.redis, target.env["UNO_REDIS_PREFIX"])
    print()
    print(f"load average at the start {load_start[0]:.1f}")
    print(report(args, before, result, after))
    figures = {
        "players": args.players,
        "rounds": args.rounds,
        "loadStart": load_start[0],
        "loadEnd": os.getloadavg()[0],
        "reference": [vars(before), vars(after)],
        "perRound": [vars(p) for p in result["rounds"]],
        "latencies": result["latencies"],
        "watchers": result["watchers"],
        "tables": result["tables"],
        "ranked": result["ranked"],
        "withdrawn": result["withdrawn"],
        "retries": result["retries"],
        "missed": result["missed"],
    }
    if args.json:
        Path(args.json).write_bytes(orjson.dumps(figures))
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--store", choices=("memory", "redis"), default="memory")
    parser.add_argument(
        "--watchers", type=int, default=32, help="sockets on the tournament's feed (pages open)"
    )
    parser.add_argument("--quick", action="store_true", help="16 players, 2 rounds: a smoke run")
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument(
        "--redis", default=os.environ.get("UNO_REDIS_URL", "redis://127.0.0.1:6379/0")
    )
    args = parser.parse_args()
    if args.quick:
        args.players, args.rounds, args.watchers = 16, 2, 2
    if args.players % TABLE:
        parser.error(f"--players must be a multiple of {TABLE}")
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
