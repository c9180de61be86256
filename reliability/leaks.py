"""Scan everything the server sends during live matches for what must stay hidden.

Tables of bots play matches of three deals on two nodes, each table watched by
spectator sockets; every frame every socket receives is kept, and while the matches are
on, every REST route a client can reach (the lobby, the room, the match, each deal's
replay, each player's matches) is read again and again. Afterwards the truth is known
(the SQL archive and the current deal's log hold each deal's start state: the seed and
the draw pile) and the scan counts:

- foreign hands: a list of cards equal to another seat's hand (any socket, any REST
  answer) while that deal is on; a draw event carrying cards to a socket that did not draw;
  a spectator frame with a hand;
- the draw order: five cards in a row of the live deal's draw pile, in either order;
- a seed early: the match's seed, or a ``seed``/``startState``/``finalState`` field, in
  anything sent before the match is over.

    python -m reliability.leaks [--deals 40] [--rooms 3] [--seats 3] [--spectators 2]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sqlite3
import sys
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

import orjson
import redis.asyncio as aioredis

from reliability.bots import Report, Table, print_report
from reliability.chaos import Cluster, run_cluster

RULES = {"preset": "classic", "roundLimit": 3}
HIDDEN_FIELDS = ("seed", "startState", "finalState", "start_state", "draw_pile")
WINDOW = 5


def card_lists(value: Any) -> Iterator[list[str]]:
    """Every list of two or more strings anywhere inside ``value``."""
    if isinstance(value, list):
        if len(value) >= 2 and all(isinstance(v, str) for v in value):
            yield value
        for item in value:
            yield from card_lists(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from card_lists(item)


def hidden_fields(value: Any) -> Iterator[str]:
    """Names of fields that only a finished deal may show, holding something."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key in HIDDEN_FIELDS and item not in (None, [], {}):
                yield key
            yield from hidden_fields(item)
    elif isinstance(value, list):
        for item in value:
            yield from hidden_fields(item)


def windows(pile: list[str]) -> set[tuple[str, ...]]:
    out = set()
    for order in (pile, pile[::-1]):
        for i in range(len(order) - WINDOW + 1):
            out.add(tuple(order[i : i + WINDOW]))
    return out


def reveals_order(value: Any, order: set[tuple[str, ...]]) -> bool:
    for cards in card_lists(value):
        for i in range(len(cards) - WINDOW + 1):
            if tuple(cards[i : i + WINDOW]) in order:
                return True
    return False


def without_own(data: Any, you: int | None) -> Any:
    """``data`` without what this socket may rightly hold: its own hand, its own drawn
    cards, and the hand a player it challenged showed it (the rules have that hand shown
    to the challenger)."""
    if not isinstance(data, dict):
        return data
    out = dict(data)
    if isinstance(out.get("view"), dict):
        out["view"] = {k: v for k, v in out["view"].items() if k != "hand"}
    out["ops"] = [op for op in out.get("ops") or () if op.get("path") != "/hand"]
    events = []
    for event in out.get("events") or ():
        mine = you is not None and event.get("seat") == you
        if mine and event.get("type") in ("draw", "challenge"):
            event = {k: v for k, v in event.items() if k not in ("cards", "hand")}
        events.append(event)
    out["events"] = events
    return out


class Truth:
    """Each deal's start state, by (matchId, deal): its seed and draw pile."""

    def __init__(self) -> None:
        self.starts: dict[tuple[str, int], dict[str, Any]] = {}
        self.seeds: dict[str, str] = {}
        self.orders: dict[tuple[str, int], set[tuple[str, ...]]] = {}

    def add(self, match_id: str, deal: int, start: dict[str, Any]) -> None:
        self.starts[(match_id, deal)] = start
        if start.get("seed"):
            self.seeds[match_id] = str(start["seed"])
        self.orders[(match_id, deal)] = windows(list(start.get("draw_pile") or []))

    async def load(self, cluster: Cluster) -> None:
        with contextlib.closing(sqlite3.connect(cluster.database)) as db:
            for match_id, number, start in db.execute(
                "SELECT match_id, number, start_state FROM deals"
            ):
                self.add(match_id, number, orjson.loads(start))
        client = aioredis.Redis.from_url(cluster.redis.url)
        try:
            for table in cluster.tables:
                key = f"rel:{{{table.room_id}}}"
                doc = orjson.loads((await client.hget(f"{key}:room", "doc")) or b"{}")
                for raw in await client.lrange(f"{key}:deal", 0, 0):
                    start = orjson.loads(raw).get("start")
                    if start and doc.get("matchId"):
                        self.add(doc["matchId"], start["deal"], start)
                for raw in await client.hvals(f"{key}:outbox"):
                    record = orjson.loads(raw)
                    self.add(record["match_id"], record["deal_number"], record["start_state"])
        finally:
            await client.aclose()


class Scan:
    def __init__(self, truth: Truth) -> None:
        self.truth = truth
        self.counts: Counter[str] = Counter()
        self.examples: list[str] = []

    def leak(self, kind: str, where: str) -> None:
        self.counts[kind] += 1
        if len(self.examples) < 8:
            self.examples.append(f"{kind}: {where[:300]}")

    def secrets(self, text: str, data: Any, tag: tuple[Any, Any, Any], where: str) -> None:
        """What no one may see before the match (seed) or the deal (draw order) is over;
        ``data`` without what the receiver may hold (:func:`without_own`). A finished
        deal's cards are no secret (the next deal is a new shuffle), its seed still is."""
        match_id, deal, phase = tag
        seed = self.truth.seeds.get(match_id or "")
        if seed and seed in text:
            self.leak("seed revealed early", where)
        for name in set(hidden_fields(data)):
            self.leak(f"hidden field {name!r} before the match ended", where)
        order = self.truth.orders.get((match_id or "", deal))
        if phase == "playing" and order and reveals_order(data, order):
            self.leak("draw order revealed", where)

    def frames(self, table: Table) -> None:
        for bot in table.bots:
            you_at = dict(bot.seats)
            for seq, tag, raw in bot.frames:
                phase = tag[2]
                data = orjson.loads(raw)
                self.counts["spectator frames" if bot.spectator else "seat frames"] += 1
                if phase == "matchOver":
                    continue  # the match is over: nothing is hidden any more
                where = f"{'spectator' if bot.spectator else 'seat'} frame seq {seq}: {raw}"
                you = None if bot.spectator else you_at.get(seq)
                data = without_own(data, you)
                self.secrets(raw, data, tag, where)
                if phase != "playing":
                    continue  # between deals the last deal's hands are shown to all
                own = table.hands.get(seq, {}).get(bot.pid)
                foreign = {
                    hand
                    for at in (seq - 1, seq)
                    for pid, hand in table.hands.get(at, {}).items()
                    if pid != bot.pid and len(hand) >= 2
                }
                for cards in card_lists(data):
                    key = tuple(sorted(cards))
                    if key in foreign and key != own:
                        self.leak("foreign hand in a socket frame", f"{cards} in {where}")
                for event in data.get("events") or []:
                    if (
                        event.get("type") == "draw"
                        and event.get("cards")
                        and (bot.spectator or event.get("seat") != you)
                    ):
                        self.leak("drawn cards sent to another socket", where)
                if bot.spectator and data.get("type") == "snapshot" and data["view"].get("hand"):
                    self.leak("spectator view with a hand", where)

    def rest(self, captures: list[dict[str, Any]], tables: dict[str, Table]) -> None:
        ended: dict[str, int] = {}  # matchId -> the first seq at which a socket saw it over
        for table in tables.values():
            for bot in table.bots:
                for seq, tag, _raw in bot.frames:
                    if tag[2] == "matchOver" and seq < ended.get(tag[0], 1 << 62):
                        ended[tag[0]] = seq
        for capture in captures:
            self.counts["REST answers"] += 1
            table = tables[capture["room"]]
            phase = capture["tag"][2]
            if phase == "matchOver" or capture["after"] >= ended.get(capture["tag"][0], 1 << 62):
                continue
            text = capture["text"]
            try:
                data = orjson.loads(text)
            except orjson.JSONDecodeError:
                data = None
            where = f"REST {capture['path']}: {text}"
            self.secrets(text, data, capture["tag"], where)
            if phase != "playing":
                continue
            hands = {
                hand
                for at in range(capture["seq"] - 1, capture["after"] + 2)
                for hand in table.hands.get(at, {}).values()
                if len(hand) >= 2
            }
            for cards in card_lists(data):
                if tuple(sorted(cards)) in hands:
                    self.leak("a hand in a REST answer", where)


def tag_of(table: Table) -> tuple[Any, Any, Any]:
    view = next((b.view for b in table.players if b.view), None) or {}
    return ((view.get("room") or {}).get("matchId"), view.get("deal"), view.get("phase"))


async def probe(cluster: Cluster, captures: list[dict[str, Any]], stop: asyncio.Event) -> None:
    """Read every reachable REST route of every table, again and again, while they play."""
    while not stop.is_set():
        for table in cluster.tables:
            tag = tag_of(table)
            match_id, deal, _phase = tag
            paths = ["/api/rooms", f"/api/rooms/{table.room_id}", "/healthz"]
            if match_id:
                paths.append(f"/api/matches/{match_id}")
                paths += [
                    f"/api/matches/{match_id}/deals/{n}/replay" for n in range(1, (deal or 1) + 1)
                ]
            paths += [f"/api/players/{b.pid}/matches" for b in table.players[:1]]
            batch = []
            for path in paths:
                seq = table.max_seq
                with contextlib.suppress(Exception):
                    answer = await table.rest("GET", path)
                    batch.append(
                        {
                            "room": table.room_id,
                            "path": path,
                            "tag": tag,
                            "seq": seq,
                            "text": answer.text,
                        }
                    )
            # The room's seq once the answers are in: the bots' views may lag behind the
            # server, so an answer counts only if the server had not ended the match yet.
            with contextlib.suppress(Exception):
                after = (await table.rest("GET", f"/api/rooms/{table.room_id}")).json()["seq"]
                for capture in batch:
                    capture["after"] = after
                captures += batch
        await asyncio.sleep(0.2)


async def run(
    deals: int = 40,
    rooms: int = 3,
    seats: int = 3,
    spectators: int = 2,
    seed: int | None = None,
    seconds: float = 300,
) -> Report:
    captures: list[dict[str, Any]] = []
    scan: Scan | None = None
    stop = asyncio.Event()

    def dealt(cluster: Cluster) -> int:
        total = 0
        for table in cluster.tables:
            seen = {tag_of(table)[:2]}
            for bot in table.players[:1]:
                seen |= {(t[0], t[1]) for _s, t, _r in bot.frames if t[0]}
            total += len(seen)
        return total

    async def attack(cluster: Cluster) -> None:
        end = time.monotonic() + seconds
        while dealt(cluster) < deals + len(cluster.tables) and time.monotonic() < end:
            await asyncio.sleep(0.5)
        stop.set()

    async def inspect(cluster: Cluster) -> None:
        nonlocal scan
        truth = Truth()
        await truth.load(cluster)
        scan = Scan(truth)
        for table in cluster.tables:
            scan.frames(table)
        scan.rest(captures, {t.room_id: t for t in cluster.tables})
        scan.counts["deals"] = len(truth.starts)

    async def during(cluster: Cluster) -> None:
        await probe(cluster, captures, stop)

    await run_cluster(
        attack, rooms=rooms, seats=seats, spectators=spectators, seed=seed, settle=0.5,
        keep_frames=True, rules=RULES, during=during, after=inspect,
    )  # fmt: skip
    assert scan is not None
    c = scan.counts
    size = f"{rooms} rooms x {seats} seats + {spectators} spectators"
    report = Report(f"leaks: {c['deals']} deals, {size}, 2 nodes")
    report.add("deals played", c["deals"], f">= {deals}", c["deals"] >= deals)
    report.add("seat frames scanned", c["seat frames"])
    report.add("spectator frames scanned", c["spectator frames"])
    report.add("REST answers scanned", c["REST answers"])
    socket_leaks = sum(
        v
        for k, v in c.items()
        if k.endswith("socket frame") or k.startswith(("drawn", "spectator view"))
    )
    report.add(
        "foreign hands or drawn cards in socket frames", socket_leaks, "0", socket_leaks == 0
    )
    early = sum(v for k, v in c.items() if k.startswith(("seed", "hidden field", "draw order")))
    report.add("seeds, start/final states or draw order before the end", early, "0", early == 0)
    rest_hands = c["a hand in a REST answer"]
    report.add("hands in REST answers", rest_hands, "0", rest_hands == 0)
    for key, value in sorted(c.items()):
        if key.startswith(("seed", "hidden field", "draw order")):
            report.notes.append(f"{key}: {value}")
    report.notes += scan.examples
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m reliability.leaks", description=__doc__)
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--rooms", type=int, default=3)
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--spectators", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=300, help="stop after this long")
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args(argv)
    report = asyncio.run(
        run(args.deals, args.rooms, args.seats, args.spectators, args.seed, args.seconds)
    )
    return print_report(report)


if __name__ == "__main__":
    sys.exit(main())
