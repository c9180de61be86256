"""Fuzzed frames over live sockets, and schemathesis over ``/openapi.json``.

One node on the script's own Redis, rooms in play, a socket per seat and a spectator
socket per room. Frames come from three sources:

- a pool drawn from hypothesis strategies built on the client message schemas
  (docs/protocol.md): right and wrong types for every field, unknown types, extra keys,
  non-objects, random text and bytes, huge integers, NUL and other control characters,
  unhashable values where strings are expected;
- the pool's frames mutated at send time (one field replaced by a hostile value);
- the socket's own legal actions from its live view, one field mutated.

Each frame is followed by a ``ping``; everything the server sends before the ``pong``
answers the frame (an action's answer may come later and is awaited by its id). A frame
that got nothing (and is not a valid ``resume`` at the current seq) counts as unanswered.
Then schemathesis generates positive and negative requests for every REST operation
(half of them with a real room's ids and host token). Counts: frames, unanswered
frames, sockets closed 1011, server exceptions in the log, REST calls, 5xx.

    python -m reliability.fuzz [--frames 1000000] [--rooms 8] [--rest-examples 100]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import re
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import jsonpatch
import orjson
import websockets
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from hypothesis.reporting import with_reporter
from websockets.asyncio.client import ClientConnection, connect

from reliability.bots import Report, print_report
from reliability.processes import Node, RedisServer, node_env

CARDS = ["R5", "G0", "B9", "Y1", "RS", "GR", "BD", "W", "W4", "R", "", "ZZ", "R10", "w4"]
ACTION_TYPES = [
    "play", "draw", "pass", "callUno", "catchUno", "challenge", "chooseColor", "nextDeal",
    "keep", "discard", "meld", "layOff", "takeDiscard", "takePile", "discardCard",
    "swapJoker", "turnCard",
]  # fmt: skip
ANSWERS = ("error", "ack", "snapshot", "patch")
HOSTILE: list[Any] = [
    {}, [], [[]], {"a": {}}, None, True, 0, -1, 2**31, 2**63, 2**64, -(2**63) - 1, 10**30,
    1e308, -0.0, 0.5, "", "\x00", "\u0000R5", "R5\n", "\ud7ff", "x" * 5000, ["R5"] * 200,
    [{}], [None], [2**64], {"type": "play"}, "__proto__", "constructor", "NaN",
]  # fmt: skip


# --- frames ------------------------------------------------------------------------------


def strategies() -> st.SearchStrategy[str | bytes]:
    """Frames from the client message schemas, valid and broken."""
    text = st.text(max_size=40)
    nasty_text = st.text(st.characters(codec="utf-8"), max_size=120)
    ints = st.integers(min_value=-(2**70), max_value=2**70) | st.integers(-3, 400)
    leaves = st.none() | st.booleans() | ints | st.floats(allow_nan=False) | nasty_text
    values = st.recursive(
        leaves,
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(text, inner, max_size=4),
        max_leaves=12,
    )
    hostile = st.sampled_from(HOSTILE) | values
    card = st.sampled_from(CARDS) | nasty_text | hostile
    payload = st.fixed_dictionaries(
        {"type": st.sampled_from(ACTION_TYPES) | hostile},
        optional={
            "cards": st.lists(card, max_size=4) | hostile,
            "color": st.sampled_from(["R", "G", "B", "Y", "X", ""]) | hostile,
            "uno": st.booleans() | hostile,
            "target": st.integers(-2, 12) | hostile,
            "at": ints | hostile,
            "card": card,
            "seat": ints | hostile,
        },
    )
    ident = st.text(min_size=1, max_size=100) | st.sampled_from(["", "x" * 101]) | hostile
    action = st.fixed_dictionaries(
        {"type": st.just("action"), "id": ident, "action": payload | hostile},
        optional={"extra": hostile, "at": hostile},
    )
    resume = st.fixed_dictionaries(
        {"type": st.just("resume"), "lastSeq": ints | hostile}, optional={"extra": hostile}
    )
    ping = st.fixed_dictionaries({"type": st.just("ping")}, optional={"id": hostile, "ts": hostile})
    confused = st.dictionaries(
        st.sampled_from(["type", "id", "action", "lastSeq"]) | text, hostile, max_size=4
    )
    objects = action | action | resume | ping | confused | values
    encoded = objects.map(lambda o: json.dumps(o, ensure_ascii=False))
    return encoded | encoded | encoded | nasty_text | st.binary(max_size=64)


def draw_pool(size: int, seed: int) -> list[str | bytes]:
    pool: list[str | bytes] = []

    @settings(
        max_examples=size,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
        derandomize=True,
    )
    @given(strategies())
    def collect(frame: str | bytes) -> None:
        pool.append(frame)

    collect()
    random.Random(seed).shuffle(pool)
    return pool


def mutate(value: Any, rng: random.Random) -> Any:
    """``value`` with one field, somewhere inside, replaced by a hostile value."""
    if isinstance(value, dict) and value and rng.random() < 0.8:
        key = rng.choice(list(value))
        out = dict(value)
        out[key] = mutate(value[key], rng) if rng.random() < 0.3 else rng.choice(HOSTILE)
        return out
    if isinstance(value, list) and value and rng.random() < 0.8:
        out_list = list(value)
        i = rng.randrange(len(out_list))
        out_list[i] = mutate(out_list[i], rng) if rng.random() < 0.3 else rng.choice(HOSTILE)
        return out_list
    return rng.choice(HOSTILE)


def valid_resume(frame: str | bytes) -> bool:
    """A well-formed ``resume`` may rightly get no answer (its seq is current)."""
    with contextlib.suppress(Exception):
        data = json.loads(frame)
        return (
            isinstance(data, dict)
            and set(data) == {"type", "lastSeq"}
            and data["type"] == "resume"
            and isinstance(data["lastSeq"], int)
            and not isinstance(data["lastSeq"], bool)
            and data["lastSeq"] >= 0
        )
    return False


def is_ping(frame: str | bytes) -> bool:
    with contextlib.suppress(Exception):
        return bool(json.loads(frame) == {"type": "ping"})
    return False


def action_id(frame: str | bytes) -> str | None:
    with contextlib.suppress(Exception):
        data = json.loads(frame)
        if isinstance(data, dict) and data.get("type") == "action":
            ident = data.get("id")
            if isinstance(ident, str) and 1 <= len(ident) <= 100:
                return ident
    return None


# --- the socket side ---------------------------------------------------------------------


class Fuzzer:
    """One socket sending frames one at a time, each followed by a ping."""

    def __init__(
        self, run: Run, room: dict[str, Any], token: str | None, rng: random.Random
    ) -> None:
        self.run = run
        self.room = room
        self.token = token
        self.rng = rng
        self.ws: ClientConnection | None = None
        self.view: dict[str, Any] | None = None
        self.window: list[dict[str, Any]] = []
        self.pong = asyncio.Event()
        self.pongs = 0
        self.pings = 0
        # This socket's actions not answered yet (id -> frame): sent again with the same id
        # after a reconnect, as the protocol tells clients (an answer bound for a socket the
        # server closed, e.g. for an oversized frame, is never read).
        self.pending: dict[str, str | bytes] = {}

    async def connect(self) -> None:
        url = f"{self.run.node.ws_base}/ws/rooms/{self.room['roomId']}"
        if self.token:
            url += f"?token={self.token}"
        for _ in range(100):
            try:
                self.ws = await connect(url, compression=None, max_size=2**22, open_timeout=10)
                break
            except (OSError, TimeoutError, websockets.InvalidHandshake):
                await asyncio.sleep(0.2)
        else:
            raise RuntimeError("cannot connect")
        self.pongs = self.pings = 0
        self.reader = asyncio.create_task(self.read(self.ws))
        for frame in list(self.pending.values()):
            self.run.counts["resent"] += 1
            with contextlib.suppress(websockets.ConnectionClosed, OSError):
                await self.ws.send(frame)

    async def read(self, ws: ClientConnection) -> None:
        try:
            async for raw in ws:
                message = orjson.loads(raw)
                kind = message.get("type")
                if kind == "pong":
                    self.pongs += 1
                    if self.pongs >= self.pings:
                        self.pong.set()
                    continue
                if kind == "snapshot":
                    self.view = message["view"]
                elif kind == "patch" and self.view is not None:
                    with contextlib.suppress(Exception):
                        self.view = jsonpatch.apply_patch(self.view, message["ops"])
                elif kind in ("ack", "error"):
                    ref = message.get("ref")
                    if ref is not None:
                        self.run.pending.pop(ref, None)
                        self.pending.pop(ref, None)
                    if kind == "error":
                        self.run.codes[message.get("code", "?")] += 1
                self.window.append(message)
        except (websockets.ConnectionClosed, OSError):
            pass
        finally:
            code = ws.close_code if ws.close_code is not None else -1
            self.run.closes[code] += 1
            self.pong.set()

    def frame(self) -> str | bytes:
        rng = self.rng
        roll = rng.random()
        pool = self.run.pool
        if roll < 0.4:
            frame = pool[rng.randrange(len(pool))]
        elif roll < 0.7:
            base = pool[rng.randrange(len(pool))]
            try:
                frame = json.dumps(mutate(json.loads(base), rng), ensure_ascii=False)
            except (ValueError, TypeError, RecursionError):
                frame = base
        else:
            legal = (self.view or {}).get("legal") or [{"type": "draw"}]
            action = dict(rng.choice(legal))
            if rng.random() < 0.8:
                action = mutate(action, rng)
            message: Any = {"type": "action", "id": f"z{self.run.sent}", "action": action}
            if rng.random() < 0.2:
                message = mutate(message, rng)
            frame = json.dumps(message, ensure_ascii=False)
        if rng.random() < self.run.oversize_rate:
            frame = json.dumps({"type": "ping", "pad": "x" * 70000})
        # Unique ids where the frame has one, so that answers can be matched to frames.
        if isinstance(frame, str) and rng.random() < 0.9 and '"id"' in frame:
            with contextlib.suppress(Exception):
                data = json.loads(frame)
                if isinstance(data, dict) and isinstance(data.get("id"), str) and data["id"]:
                    data["id"] = f"z{self.run.sent}"
                    frame = json.dumps(data, ensure_ascii=False)
        return frame

    async def go(self) -> None:
        run = self.run
        await self.connect()
        while run.sent < run.frames and time.monotonic() < run.until:
            if self.ws is None or self.reader.done():
                await self.connect()
                continue
            frame = self.frame()
            run.sent += 1
            self.window = []
            self.pong.clear()
            ref = action_id(frame)
            if ref is not None:
                run.pending[ref] = frame if isinstance(frame, str) else repr(frame)
                self.pending[ref] = frame
            # A valid ping is answered by a pong of its own; then comes the pong of ours.
            self.pings += 2 if is_ping(frame) else 1
            try:
                await self.ws.send(frame)
                await self.ws.send('{"type":"ping"}')
                await asyncio.wait_for(self.pong.wait(), 15)
            except TimeoutError:
                run.counts["pings_unanswered"] += 1
                await self.ws.close()
                continue
            except (websockets.ConnectionClosed, OSError):
                pass
            if self.reader.done():
                # Closed by the server: an answer too (1009 for oversize, 1011 counted apart).
                run.pending.pop(ref or "", None)
                self.pending.pop(ref or "", None)
                continue
            answered = is_ping(frame) or any(m.get("type") in ANSWERS for m in self.window)
            if ref is not None and any(
                m.get("type") == "error" and m.get("ref") in (None, ref) for m in self.window
            ):
                # Refused before the pong (by the parser, with or without its id): answered.
                run.pending.pop(ref, None)
                self.pending.pop(ref, None)
            if not answered and valid_resume(frame):
                answered = True  # patches, a snapshot, or nothing for the current seq
            if not answered and ref is not None:
                answered = True  # awaited by id (the writer answers actions)
            if not answered:
                run.counts["unanswered"] += 1
                if len(run.examples) < 5:
                    run.examples.append(frame if isinstance(frame, str) else repr(frame))
            if self.view is not None and self.view.get("phase") == "matchOver" and self.token:
                await run.restart(self.room)
        if self.pending and self.reader.done():
            await self.connect()  # the last frame closed it: the unanswered are sent again


class Run:
    def __init__(self, node: Node, frames: int, seconds: float, pool: list[str | bytes]) -> None:
        self.node = node
        self.frames = frames
        self.until = time.monotonic() + seconds
        self.pool = pool
        self.sent = 0
        self.pending: dict[str, str] = {}  # action id -> frame, until answered
        self.counts: Counter[str] = Counter()
        self.codes: Counter[str] = Counter()
        self.closes: Counter[int] = Counter()
        self.examples: list[str] = []
        self.oversize_rate = 1 / 20000
        self.http = httpx.AsyncClient(base_url=node.base, timeout=20)

    async def restart(self, room: dict[str, Any]) -> None:
        if time.monotonic() - room.get("restarted", 0) > 1:
            room["restarted"] = time.monotonic()
            await self.http.post(
                f"/api/rooms/{room['roomId']}/start",
                headers={"Authorization": f"Bearer {room['hostToken']}"},
            )


async def open_room(
    http: httpx.AsyncClient, seats: int
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    room = (await http.post("/api/rooms", json={"name": "fuzz", "seats": seats})).json()
    joined = [
        (await http.post(f"/api/rooms/{room['roomId']}/join", json={"name": f"f{i}"})).json()
        for i in range(seats)
    ]
    await http.post(
        f"/api/rooms/{room['roomId']}/start",
        headers={"Authorization": f"Bearer {room['hostToken']}"},
    )
    return room, joined


# --- the REST side -----------------------------------------------------------------------


def _contract_checks() -> list[Any]:
    """schemathesis's checks of each answer against the document: no 5xx, a status and
    headers the operation declares, a body of its schema and content type, bad input
    refused (4xx) and input the schema allows accepted."""
    from schemathesis import checks

    return [
        checks.not_a_server_error,
        checks.status_code_conformance,
        checks.content_type_conformance,
        checks.response_schema_conformance,
        checks.response_headers_conformance,
        checks.negative_data_rejection,
        checks.positive_data_acceptance,
    ]


# The title of schemathesis's positive-data check. A body the schema allows may still be
# refused by a rule across fields that JSON Schema cannot state (a preset's seat range, two
# options that clash, a table's places that must differ): counted on its own. So is a
# body with an integral float such as 3.0 where an integer goes: JSON Schema calls it an
# integer, the server takes JSON integers only (docs/protocol.md).
REFUSED_VALID = "Schema-valid request rejected"


def _whole_floats(value: Any) -> bool:
    """Whether ``value`` holds a float with no fraction (3.0) anywhere."""
    if isinstance(value, float):
        return value.is_integer()
    if isinstance(value, dict):
        return any(_whole_floats(v) for v in value.values())
    if isinstance(value, list):
        return any(_whole_floats(v) for v in value)
    return False


def _failures(err: BaseException) -> list[BaseException]:
    """The single failures of a check's exception (one, or a group of them)."""
    inner = getattr(err, "exceptions", None)
    return list(inner) if inner else [err]


def _rest_test(
    strategy: Any, base: str, headers: dict[str, str] | None, examples: int, counts: Counter[str]
) -> Any:
    """A hypothesis test calling the live server with ``strategy``'s cases, each answer
    checked against the document (:func:`_contract_checks`)."""
    contract = _contract_checks()

    @settings(
        max_examples=examples,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def call(case: Any) -> None:
        try:
            response = case.call(base_url=base, headers=headers, timeout=20)
        except Exception:
            counts["transport_errors"] += 1
            return
        counts["calls"] += 1
        if response.status_code >= 500:
            counts["5xx"] += 1
            counts[f"5xx {case.method} {case.operation.path} -> {response.status_code}"] += 1
        try:
            case.validate_response(response, checks=contract, headers=headers)
        except (Exception, BaseExceptionGroup) as err:  # schemathesis's FailureGroup
            for failure in _failures(err):
                title = getattr(failure, "title", type(failure).__name__)
                body = case.body if not isinstance(case.body, bytes) else "<bytes>"
                detail = f"{case.method} {case.operation.path} {str(body)[:60]}"
                if title != REFUSED_VALID:
                    kind = "contract"
                elif _whole_floats(case.body):
                    kind = "whole floats"  # 3.0 where an integer goes: refused as documented
                else:
                    kind = "valid refused"
                counts[kind] += 1
                counts[f"{kind}: {title}: {detail} -> {response.status_code}"] += 1

    return call


HTTP_METHODS = ("GET", "PUT", "POST", "DELETE", "PATCH")


def check_methods(base: str, schema: dict[str, Any], real: dict[str, str]) -> Counter[str]:
    """Every method the document does not declare for a path: 405 with an ``Allow``
    header naming exactly the methods it declares (schemathesis's unsupported-method
    check, made on every path with real ids where the path takes them)."""
    counts: Counter[str] = Counter()
    with httpx.Client(base_url=base, timeout=20) as http:
        for path, operations in schema["paths"].items():
            declared = {m.upper() for m in operations if m.upper() in HTTP_METHODS}
            url = path
            for name, value in real.items():
                url = url.replace("{" + name + "}", value)
            url = re.sub(r"\{[^}]+\}", "x", url)
            for method in HTTP_METHODS:
                if method in declared:
                    continue
                counts["calls"] += 1
                response = http.request(method, url)
                allow = {m.strip() for m in response.headers.get("allow", "").split(",")}
                if response.status_code != 405 or allow - {"HEAD", "OPTIONS"} != declared:
                    counts["contract"] += 1
                    counts[f"contract: method: {method} {path} -> {response.status_code}"] += 1
    return counts


def fuzz_rest(base: str, examples: int, room: dict[str, Any], match_id: str | None) -> Counter[str]:
    """schemathesis: positive and negative cases for every operation of /openapi.json,
    each answer checked against the document, then every undeclared method of each path."""
    import schemathesis
    from schemathesis import GenerationMode

    counts: Counter[str] = Counter()
    schema = schemathesis.openapi.from_url(f"{base}/openapi.json")
    sheet = httpx.post(f"{base}/api/scoresheets", json={"players": ["a", "b"]}, timeout=20).json()[
        "id"
    ]
    real = {
        "room_id": room["roomId"],
        "matchId": match_id or "none",
        "playerId": room["playerId"],
        "scoresheetId": sheet,
    }
    auth = {"Authorization": f"Bearer {room['hostToken']}"}
    for result in schema.get_all_operations():
        operation = result.ok()
        names = {p.name for p in operation.path_parameters}
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            for use_real in (False, True):
                fixed = {k: v for k, v in real.items() if k in names} if use_real else None
                try:
                    strategy = operation.as_strategy(mode, path_parameters=fixed or None)
                except Exception:  # an operation schemathesis cannot build cases for
                    counts["operations_skipped"] += 1
                    continue

                call = _rest_test(strategy, base, auth if use_real else None, examples, counts)
                try:
                    with with_reporter(lambda _text: None):
                        call()
                except Unsatisfiable:
                    counts["unsatisfiable"] += 1  # e.g. no negative case for a bare route
                except Exception as err:
                    counts["generation_errors"] += 1
                    counts[f"generation error: {type(err).__name__}: {str(err)[:80]}"] += 1
    document = httpx.get(f"{base}/openapi.json", timeout=20).json()
    counts.update(check_methods(base, document, real))
    return counts


# --- the run -----------------------------------------------------------------------------


async def run(
    frames: int = 1_000_000,
    rooms: int = 8,
    seats: int = 2,
    rest_examples: int = 100,
    seconds: float = 600,
    pool_size: int = 4000,
    seed: int = 1,
    oversize_rate: float = 1 / 20000,
) -> Report:
    started = time.monotonic()
    pool = await asyncio.to_thread(draw_pool, pool_size, seed)
    pooled = time.monotonic() - started
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="uno-fuzz-") as tmp:
        directory = Path(tmp)
        redis = RedisServer(directory, "everysec")
        redis.start()
        env = node_env(5000, UNO_RATE_PER_SECOND="1000000", UNO_RATE_BURST="1000000")
        node = Node(
            "fuzz", directory, redis.url, f"sqlite+aiosqlite:///{directory}/archive.db", env
        )
        try:
            await asyncio.to_thread(node.start)
            fuzz = Run(node, frames, seconds, pool)
            fuzz.oversize_rate = oversize_rate
            fuzzers = []
            first: dict[str, Any] | None = None
            for _ in range(rooms):
                room, joined = await open_room(fuzz.http, seats)
                room["playerId"] = joined[0]["playerId"]
                first = first or room
                for seat in joined:
                    fuzzers.append(Fuzzer(fuzz, room, seat["token"], random.Random(rng.random())))
                fuzzers.append(Fuzzer(fuzz, room, None, random.Random(rng.random())))
            socket_start = time.monotonic()
            await asyncio.gather(*(f.go() for f in fuzzers))
            socket_seconds = time.monotonic() - socket_start
            # Actions are answered by the room's writer: give the last ones time to arrive.
            end = time.monotonic() + 10
            while fuzz.pending and time.monotonic() < end:
                await asyncio.sleep(0.2)
            unanswered_actions = len(fuzz.pending)
            fuzz.examples += list(fuzz.pending.values())[:5]
            for f in fuzzers:
                if f.ws is not None:
                    with contextlib.suppress(Exception):
                        await f.ws.close()
            assert first is not None
            view = next((f.view for f in fuzzers if f.view), {}) or {}
            match_id = (view.get("room") or {}).get("matchId")
            rest_start = time.monotonic()
            rest = await asyncio.to_thread(fuzz_rest, node.base, rest_examples, first, match_id)
            rest_seconds = time.monotonic() - rest_start
            await fuzz.http.aclose()
            problems = node.problems()
            excerpt = node.log_excerpt()
        finally:
            await asyncio.to_thread(node.stop)
            redis.stop()
    sent = fuzz.sent
    rate = sent / socket_seconds if socket_seconds else 0
    report = Report(
        f"fuzz: {sent:,} socket frames on {len(fuzzers)} sockets, schemathesis over /openapi.json"
    )
    report.add("socket frames sent", sent, f"{frames:,}", sent >= frames)
    report.add("actions sent again after a reconnect", fuzz.counts["resent"])
    report.add("frames per second", round(rate))
    report.add(
        "frames unanswered",
        fuzz.counts["unanswered"] + unanswered_actions,
        "0",
        fuzz.counts["unanswered"] + unanswered_actions == 0,
    )
    report.add(
        "pings unanswered (socket stuck)",
        fuzz.counts["pings_unanswered"],
        "0",
        fuzz.counts["pings_unanswered"] == 0,
    )
    report.add("sockets closed 1011 (server error)", fuzz.closes[1011], "0", fuzz.closes[1011] == 0)
    exceptions = sum(problems.values())
    report.add("server exceptions in the log", exceptions, "0", exceptions == 0)
    report.add("REST calls (schemathesis)", rest["calls"])
    report.add("REST 5xx", rest["5xx"], "0", rest["5xx"] == 0)
    report.add("REST contract failures", rest["contract"], "0", rest["contract"] == 0)
    report.add("REST valid bodies refused by cross-field rules", rest["valid refused"])
    report.add("REST integral floats refused (strict integers)", rest["whole floats"])
    report.add(
        "seconds (pool, sockets, REST)", f"{pooled:.0f} + {socket_seconds:.0f} + {rest_seconds:.0f}"
    )
    if sent < frames and rate:
        report.notes.append(
            f"time ran out: {frames:,} frames would take ~{frames / rate / 60:.0f} min at this rate"
        )
    closes = ", ".join(f"{k}: {v}" for k, v in sorted(fuzz.closes.items()))
    report.notes.append(f"socket closes by code: {closes}")
    top = ", ".join(f"{k} {v}" for k, v in fuzz.codes.most_common(8))
    report.notes.append(f"error codes answered: {top}")
    for key, value in rest.items():
        if key.startswith(("5xx ", "generation error", "contract: ", "valid refused: ")):
            report.notes.append(f"{key}: {value}")
    report.notes += [f"log: {line}" for line in excerpt]
    report.notes += [f"unanswered frame: {e[:200]}" for e in fuzz.examples]
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m reliability.fuzz", description=__doc__)
    parser.add_argument("--frames", type=int, default=1_000_000)
    parser.add_argument("--seconds", type=float, default=600, help="stop sending after this long")
    parser.add_argument("--rooms", type=int, default=8)
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--rest-examples", type=int, default=100, help="per operation and mode")
    parser.add_argument("--pool", type=int, default=4000, help="frames drawn from hypothesis")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--oversize", type=float, default=1 / 20000, help="share of frames over the size limit"
    )
    args = parser.parse_args(argv)
    report = asyncio.run(
        run(
            args.frames,
            args.rooms,
            args.seats,
            args.rest_examples,
            args.seconds,
            args.pool,
            args.seed,
            args.oversize,
        )
    )
    return print_report(report)


if __name__ == "__main__":
    sys.exit(main())
