"""Bots that play over real sockets against any live node, and the checks of what they saw.

A bot keeps its view from the snapshot and every patch (``jsonpatch``), remembers every
action it sent with its id, and when its socket dies it reconnects (to any live node)
and sends the unanswered action again with the same id, as the protocol tells clients
to. What the server answered is checked afterwards against what it stored:

- acked actions lost: an ``ack {ref, seq}`` whose action is not at that ``seq`` in the
  room's record (the SQL archive, the outbox, the current deal's log);
- applied twice: one id acked at two ``seq``s, or more entries of a bot in the record
  than the actions it sent could explain;
- views unequal to a fresh snapshot: at the end each bot's patched view is compared with
  a snapshot taken by a new socket (a socket that stopped receiving counts here too);
- forks: two sockets that got different changes under one ``seq``.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import random
import sqlite3
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import jsonpatch
import orjson
import websockets
from websockets.asyncio.client import ClientConnection, connect

from reliability.processes import Node

_ids = itertools.count(1)
# Answers after which the same id is sent again: the action may or may not have been applied.
RETRY_CODES = {"timeout", "unavailable", "shutting_down", "rate_limited", "internal"}


@dataclass
class Sent:
    """One action id and everything the server answered to it."""

    ref: str
    action: dict[str, Any]
    seat: int
    sends: int = 0
    uncertain: bool = False  # a send went unanswered (socket lost, timeout): maybe applied
    acks: list[int] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


class Bot:
    """One seat's player: plays whatever is legal, survives any node's death."""

    def __init__(self, table: Table, token: str, pid: str, rng: random.Random) -> None:
        self.table = table
        self.token = token
        self.pid = pid
        self.rng = rng
        self.ws: ClientConnection | None = None
        self.view: dict[str, Any] | None = None
        self.seq = -1
        self.sent: list[Sent] = []
        self.answers: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.changed = asyncio.Event()
        self.closed = asyncio.Event()
        self.reader: asyncio.Task[None] | None = None
        # Every frame (seq after it, (matchId, deal, phase), text) when the table keeps them.
        self.frames: list[tuple[int, tuple[Any, Any, Any], str]] = []
        self.seats: list[tuple[int, int | None]] = []  # (seq, view.you) beside the frames
        self.node: Node | None = None
        self.last_progress = time.monotonic()
        self.spectator = False

    # Connection

    async def connect(self, deadline: float = 60) -> None:
        """Open a socket on some live node and read its snapshot."""
        end = time.monotonic() + deadline
        while True:
            node = self.table.pick_node()
            url = f"{node.ws_base}/ws/rooms/{self.table.room_id}"
            if self.token:
                url += f"?token={self.token}"
            try:
                ws = await asyncio.wait_for(
                    connect(url, compression=None, open_timeout=5, max_size=2**22), 6
                )
            except (
                OSError,
                TimeoutError,
                websockets.InvalidHandshake,
                websockets.ConnectionClosed,
            ):
                if time.monotonic() > end:
                    raise
                await asyncio.sleep(0.1)
                continue
            self.ws, self.node, self.view, self.seq = ws, node, None, -1
            self.closed = asyncio.Event()
            self.reader = asyncio.create_task(self._read(ws))
            try:
                async with asyncio.timeout(12):
                    while self.view is None and not self.closed.is_set():
                        await self._wait_change(1)
            except TimeoutError:
                pass
            if self.view is not None:
                self.table.stats["connects"] += 1
                self.last_progress = time.monotonic()
                return
            await self.drop()
            if time.monotonic() > end:
                raise RuntimeError("no snapshot from any node")
            await asyncio.sleep(0.1)

    async def drop(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 2)
        if self.reader is not None:
            self.reader.cancel()
            with contextlib.suppress(BaseException):
                await self.reader
        self.ws = None
        self.closed.set()

    async def _read(self, ws: ClientConnection) -> None:
        try:
            async for raw in ws:
                self._handle(orjson.loads(raw))
                if self.table.keep_frames:
                    self.keep(raw if isinstance(raw, str) else raw.decode())
        except (websockets.ConnectionClosed, OSError):
            pass
        finally:
            code = ws.close_code
            self.table.closes[code if code is not None else -1] += 1
            self.closed.set()
            self.changed.set()

    def keep(self, raw: str) -> None:
        """The frame, tagged with what this socket's view says after it (leak scans)."""
        view = self.view or {}
        tag = ((view.get("room") or {}).get("matchId"), view.get("deal"), view.get("phase"))
        self.frames.append((self.seq, tag, raw))
        self.seats.append((self.seq, view.get("you")))
        if view.get("you") is not None:
            self.table.hands.setdefault(self.seq, {})[self.pid] = tuple(
                sorted(view.get("hand") or ())
            )

    def _handle(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "snapshot":
            self.view, self.seq = message["view"], message["seq"]
            self.table.saw(message["seq"], message["ts"], self)
            self.last_progress = time.monotonic()
        elif kind == "patch":
            if self.view is None or message["seq"] != self.seq + 1:
                # A gap or a patch before any snapshot: the protocol forbids both.
                self.table.stats["gaps"] += 1
                asyncio.get_running_loop().call_soon(self._force_reconnect)
                return
            self.view = jsonpatch.apply_patch(self.view, message["ops"])
            self.seq = message["seq"]
            self.table.saw(message["seq"], message["ts"], self)
            self.last_progress = time.monotonic()
        elif kind in ("ack", "error"):
            future = self.answers.pop(message.get("ref") or "", None)
            if future is not None and not future.done():
                future.set_result(message)
            elif kind == "error" and message.get("ref") is None:
                self.table.unsolicited[message.get("code", "?")] += 1
        self.changed.set()

    def _force_reconnect(self) -> None:
        if self.ws is not None:
            asyncio.ensure_future(self.ws.close())

    async def _wait_change(self, timeout: float) -> None:
        self.changed.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.changed.wait(), timeout)

    # Playing

    def choose(self) -> dict[str, Any] | None:
        view = self.view
        if view is None or view.get("you") is None:
            return None
        legal = view.get("legal") or []
        if not legal:
            return None
        if view.get("phase") == "dealOver":
            return (
                {"type": "nextDeal"}
                if view["you"] == min(p["seat"] for p in view["players"])
                else None
            )
        plays = [a for a in legal if a["type"] == "play"]
        if plays and self.rng.random() < 0.9:
            action = dict(self.rng.choice(plays))
        else:
            action = dict(self.rng.choice(legal))
        if action["type"] == "chooseColor" or (
            action["type"] == "play"
            and action["cards"][0].startswith("W")
            and "color" not in action
        ):
            action["color"] = self.rng.choice("RGBY")
        if action["type"] == "play" and len(view.get("hand", ())) == 2:
            action["uno"] = True
        return action

    async def act(self, sent: Sent, timeout: float = 12) -> dict[str, Any] | None:
        """Send ``sent`` once; its answer, or None when the socket went before one came."""
        ws = self.ws
        if ws is None:
            return None
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.answers[sent.ref] = future
        sent.sends += 1
        message = {"type": "action", "id": sent.ref, "action": sent.action}
        try:
            await ws.send(orjson.dumps(message).decode())
        except (websockets.ConnectionClosed, OSError):
            sent.uncertain = True
            return None
        closed = asyncio.ensure_future(self.closed.wait())
        try:
            done, _ = await asyncio.wait(
                {future, closed}, timeout=timeout, return_when="FIRST_COMPLETED"
            )
        except asyncio.CancelledError:
            sent.uncertain = True  # stopped while waiting: it may have been applied
            raise
        finally:
            closed.cancel()
        self.answers.pop(sent.ref, None)
        if future in done:
            return future.result()
        sent.uncertain = True
        return None

    async def play_one(self) -> bool:
        """Make one move if there is one for this seat; False when there was nothing to do."""
        action = self.choose()
        if action is None:
            return False
        assert self.view is not None
        sent = Sent(f"{self.table.tag}{next(_ids)}", action, self.view["you"])
        self.sent.append(sent)
        for _attempt in range(30):
            if self.ws is None or self.closed.is_set():
                await self.drop()
                await self.connect()
                if sent.sends:
                    self.table.stats["retries"] += 1
            answer = await self.act(sent)
            if answer is None:
                await self.drop()
                continue
            if answer["type"] == "ack":
                sent.acks.append(answer["seq"])
                self.table.stats["acked"] += 1
                return True
            code = answer.get("code", "?")
            sent.errors.append(code)
            if code in RETRY_CODES:
                sent.uncertain = True
                await asyncio.sleep(0.2)
                continue
            if sent.uncertain:
                # A retry answered with a refusal: the protocol promises the first ack.
                self.table.stats["retries_refused"] += 1
            self.table.refusals[code] += 1
            return True
        self.table.stats["given_up"] += 1
        return True

    async def run(self, stop: asyncio.Event, think: float = 0.0) -> None:
        while not stop.is_set():
            try:
                if self.ws is None or self.closed.is_set():
                    await self.drop()
                    await self.connect()
                if self.view is not None and self.view.get("phase") == "matchOver":
                    await self.table.match_over(self)
                    await self._wait_change(0.5)
                    continue
                if await self.play_one():
                    if think:
                        await asyncio.sleep(think * (0.5 + self.rng.random()))
                    continue
                await self._wait_change(0.5)
                since = self.table.moved_past(self.seq)
                if since is not None and time.monotonic() - since > 6:
                    await self._behind(since)
            except (OSError, RuntimeError, websockets.ConnectionClosed, httpx.HTTPError):
                await self.drop()
                await asyncio.sleep(0.2)

    async def _behind(self, since: float) -> None:
        """Another socket of the room got a change 6 s ago that this one has not: late
        (what it missed comes within 10 s more: delivery delayed, e.g. by a loaded
        machine), closed by the server meanwhile, or wedged (open, and nothing comes: it
        reconnects)."""
        target, seq = self.table.max_seq, self.seq
        end = time.monotonic() + 10
        while self.seq < target and not self.closed.is_set() and time.monotonic() < end:
            await self._wait_change(0.5)
        if self.seq >= target:
            self.table.stats["late"] += 1
            late = self.last_progress - since  # caught up this long after the first socket
            self.table.stats["late_max_s"] = max(self.table.stats["late_max_s"], round(late))
            return
        if self.closed.is_set():
            self.table.stats["behind_then_closed"] += 1
            return
        self.table.stats["wedged"] += 1
        node = self.node.name if self.node is not None else "?"
        self.table.wedges.append(
            f"{'spectator' if self.spectator else self.pid} on {node}: at seq {seq}"
            f" ({self.seq} after 10 s more), the room at {target}"
        )
        await self.drop()


class Table:
    """One room, its bots and its host; REST through whichever node is alive."""

    def __init__(self, nodes: list[Node], rng: random.Random, keep_frames: bool = False) -> None:
        self.nodes = nodes
        self.rng = rng
        self.keep_frames = keep_frames
        self.room_id = ""
        self.host = ""
        self.tag = f"r{rng.randrange(10**6)}-"
        self.bots: list[Bot] = []
        self.stats: Counter[str] = Counter()
        self.refusals: Counter[str] = Counter()
        self.unsolicited: Counter[str] = Counter()
        self.unequal: list[str] = []  # why each view unequal to a fresh snapshot was
        self.wedges: list[str] = []  # each socket found wedged
        self.closes: Counter[int] = Counter()
        self.seen: dict[int, set[int]] = {}
        self.max_seq = 0
        self.first_seen: dict[int, float] = {}  # seq -> when a socket of the room first got it
        self.hands: dict[int, dict[str, tuple[str, ...]]] = {}  # seq -> pid -> sorted hand
        self.matches = 0
        self.finished = 0
        self._restarting: asyncio.Lock = asyncio.Lock()
        self._last_over = 0
        self.stopping = False

    def pick_node(self) -> Node:
        alive = [n for n in self.nodes if n.alive] or self.nodes
        return self.rng.choice(alive)

    async def rest(self, method: str, path: str, **kw: Any) -> httpx.Response:
        """A REST call through a live node, retried while nodes restart."""
        for attempt in range(60):
            node = self.pick_node()
            try:
                async with httpx.AsyncClient(base_url=node.base, timeout=10) as http:
                    answer = await http.request(method, path, **kw)
                if answer.status_code < 500 or attempt >= 59:
                    return answer
            except httpx.HTTPError:
                pass
            await asyncio.sleep(0.25)
        raise RuntimeError(f"{method} {path}: no node answered")

    async def open(self, seats: int, rules: dict[str, Any], spectators: int = 0) -> None:
        created = await self.rest(
            "POST", "/api/rooms", json={"name": "attack", "seats": seats, "rules": rules}
        )
        created.raise_for_status()
        body = created.json()
        self.room_id, self.host = body["roomId"], body["hostToken"]
        for i in range(seats):
            joined = await self.rest(
                "POST", f"/api/rooms/{self.room_id}/join", json={"name": f"bot{i}"}
            )
            joined.raise_for_status()
            seat = joined.json()
            self.bots.append(
                Bot(self, seat["token"], seat["playerId"], random.Random(self.rng.random()))
            )
        for _ in range(spectators):
            watcher = Bot(self, "", "", random.Random(self.rng.random()))
            watcher.spectator = True
            self.bots.append(watcher)
        await self.start()
        for bot in self.bots:
            await bot.connect()

    async def start(self) -> None:
        answer = await self.rest(
            "POST",
            f"/api/rooms/{self.room_id}/start",
            headers={"Authorization": f"Bearer {self.host}"},
        )
        if answer.status_code == 200:
            self.matches += 1

    async def match_over(self, bot: Bot) -> None:
        """The first bot to see a finished match counts it and starts the next one."""
        if self.stopping:
            return
        async with self._restarting:
            view = bot.view
            if (
                view is None
                or view.get("phase") != "matchOver"
                or view.get("seq", 0) < self._last_over
            ):
                return
            self._last_over = view["seq"] + 1
            self.finished += 1
            await self.start()

    def saw(self, seq: int, ts: int, bot: Bot) -> None:
        self.seen.setdefault(seq, set()).add(ts)
        if seq not in self.first_seen:
            self.first_seen[seq] = time.monotonic()
            if len(self.first_seen) > 2000:
                for old in sorted(self.first_seen)[:1000]:
                    del self.first_seen[old]
        if seq > self.max_seq:
            self.max_seq = seq

    def moved_past(self, seq: int) -> float | None:
        """When some socket of the room first got a change after ``seq`` (None: none did)."""
        for later in range(seq + 1, self.max_seq + 1):
            at = self.first_seen.get(later)
            if at is not None:
                return at
        return None

    @property
    def players(self) -> list[Bot]:
        return [b for b in self.bots if not b.spectator]


# --- checks ------------------------------------------------------------------------------


async def fresh_views_unequal(table: Table) -> int:
    """Each socket's patched view against a snapshot read by a new socket of the same seat."""
    unequal = 0
    for bot in table.bots:
        if bot.ws is None or bot.closed.is_set():
            with contextlib.suppress(Exception):
                await bot.drop()
                await bot.connect(deadline=10)
        probe = Bot(table, bot.token, bot.pid, random.Random(0))
        before = Counter(table.closes)
        probe.spectator = bot.spectator
        target = bot.seq
        try:
            try:
                await probe.connect(deadline=10)
            except (OSError, RuntimeError, TimeoutError, websockets.WebSocketException) as err:
                # No node gives this seat a snapshot: as unequal as a view can be.
                table.stats["probes_without_snapshot"] += 1
                unequal += 1
                who = "spectator" if bot.spectator else f"seat {bot.pid}"
                closes = ", ".join(f"{k}: {v}" for k, v in probe_closes(table, before).items())
                table.unequal.append(
                    f"{who}: a fresh socket got no snapshot ({err!r}; closes {closes})"
                )
                continue
            assert probe.view is not None
            target = probe.seq
            # The probe's own connection is one more change that ``bot`` must receive.
            end = time.monotonic() + 8
            while bot.seq < target and time.monotonic() < end:
                await bot._wait_change(0.2)
            if bot.seq == target and probe.seq == target:
                same = bot.view == probe.view
            else:
                same = False
            if not same:
                unequal += 1
                table.unequal.append(_unequal_why(bot, probe, target))
        finally:
            await probe.drop()
            # Let the probe's disconnect reach the bot before the next comparison.
            end = time.monotonic() + 5
            while bot.seq < target + 1 and time.monotonic() < end:
                await bot._wait_change(0.2)
    return unequal


def probe_closes(table: Table, before: Counter[int]) -> Counter[int]:
    """The close codes of the sockets closed since ``before`` (a probe's refusals)."""
    return table.closes - before


def _unequal_why(bot: Bot, probe: Bot, target: int) -> str:
    """What differs between a socket's view and a fresh snapshot (for the report)."""
    who = "spectator" if bot.spectator else f"seat {bot.pid}"
    if bot.seq != target or probe.seq != target:
        return f"{who}: socket at seq {bot.seq}, fresh snapshot at {target}, probe now {probe.seq}"
    ops = jsonpatch.make_patch(bot.view, probe.view).patch
    return f"{who} at seq {target}: {orjson.dumps(ops).decode()[:600]}"


def forks(table: Table) -> int:
    """Changes that two sockets received differently under one ``seq``."""
    return sum(1 for stamps in table.seen.values() if len(stamps) > 1)


async def record_of(
    table: Table, database: Path, redis_url: str | None, prefix: str = "rel"
) -> dict[int, dict[str, Any]]:
    """Every action the room stored, by ``seq``: the SQL archive, the outbox, the current
    deal's log (those two read from the attack's own Redis)."""
    entries: dict[int, dict[str, Any]] = {}
    with contextlib.closing(sqlite3.connect(database)) as db:
        rows = db.execute(
            "SELECT a.seq, a.seat, a.action, s.player_id FROM deal_actions a"
            " JOIN matches m ON m.id = a.match_id"
            " LEFT JOIN match_seats s ON s.match_id = a.match_id AND s.seat = a.seat"
            " WHERE m.room_id = ?",
            (table.room_id,),
        ).fetchall()
    for seq, seat, action, pid in rows:
        entries[seq] = {"seat": seat, "action": orjson.loads(action), "pid": pid}
    if redis_url:
        import redis.asyncio as aioredis

        # Generous timeouts: the count runs on a machine the attack just loaded.
        client = aioredis.Redis.from_url(redis_url, socket_connect_timeout=30, socket_timeout=60)
        try:
            key = f"{prefix}:{{{table.room_id}}}"
            doc = orjson.loads((await client.hget(f"{key}:room", "doc")) or b"{}")
            seat_pid = {p["seat"]: p["pid"] for p in doc.get("players", [])}
            for raw in await client.hvals(f"{key}:outbox"):
                record = orjson.loads(raw)
                pids = {s["seat"]: s.get("playerId") for s in record.get("seats", [])}
                for entry in record.get("actions", []):
                    entries.setdefault(entry["seq"], {**entry, "pid": pids.get(entry["seat"])})
            for raw in await client.lrange(f"{key}:deal", 0, -1):
                entry = orjson.loads(raw)
                if "seq" in entry:
                    entries.setdefault(entry["seq"], {**entry, "pid": seat_pid.get(entry["seat"])})
        finally:
            await client.aclose()
    return entries


def _same(stored: dict[str, Any], sent: dict[str, Any]) -> bool:
    return all(stored.get(k) == v for k, v in sent.items() if k in ("type", "cards", "color"))


def lost_and_doubled(table: Table, record: dict[int, dict[str, Any]]) -> tuple[int, int, int]:
    """(acked actions lost, actions applied twice, acked actions checked) for one room."""
    lost = doubled = checked = 0
    for bot in table.players:
        mine = sorted(seq for seq, e in record.items() if e.get("pid") == bot.pid)
        used: set[int] = set()
        allowance = 0  # unanswered sends that may each have been applied once
        for sent in bot.sent:
            if sent.action.get("type") == "nextDeal":
                if len(set(sent.acks)) > 1:
                    doubled += 1
                continue
            if len(set(sent.acks)) > 1:
                doubled += len(set(sent.acks)) - 1
            if not sent.acks:
                if sent.uncertain:
                    allowance += 1
                continue
            checked += 1
            seq = sent.acks[0]
            entry = record.get(seq)
            if (
                entry is None
                or entry.get("pid") != bot.pid
                or not _same(entry["action"], sent.action)
            ):
                lost += 1
                continue
            # Entries of this bot before this ack that no ack explains.
            earlier = [s for s in mine if s < seq and s not in used]
            extra = len(earlier) - allowance
            if extra > 0 and sent.uncertain:
                doubled += extra
            allowance = 0
            used.update(earlier)
            used.add(seq)
    return lost, doubled, checked


# --- reporting ---------------------------------------------------------------------------


@dataclass
class Row:
    name: str
    value: float | int | str
    goal: str = ""
    ok: bool = True


@dataclass
class Report:
    title: str
    rows: list[Row] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def add(self, name: str, value: float | int | str, goal: str = "", ok: bool = True) -> None:
        self.rows.append(Row(name, value, goal, ok))

    def value(self, name: str) -> Any:
        return next(r.value for r in self.rows if r.name == name)

    @property
    def ok(self) -> bool:
        return all(r.ok for r in self.rows)

    def table(self) -> str:
        width = max(len(r.name) for r in self.rows) if self.rows else 10
        lines = [
            self.title,
            f"| {'count'.ljust(width)} | value | goal | met |",
            f"|{'-' * (width + 2)}|---|---|---|",
        ]
        for r in self.rows:
            value = f"{r.value:,}" if isinstance(r.value, int) else str(r.value)
            met = "" if not r.goal else ("yes" if r.ok else "**no**")
            lines.append(f"| {r.name.ljust(width)} | {value} | {r.goal} | {met} |")
        lines += [f"- {n}" for n in self.notes]
        return "\n".join(lines)


def print_report(report: Report) -> int:
    print(report.table(), flush=True)
    return 0 if report.ok else 1
