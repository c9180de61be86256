"""Races between a near and a far player, over real sockets, with and without claim windows.

Two simulated players race many times: one 20 ms from the server (round trip), one
200 ms. Their distance is a reliability.netdelay link in front of the server (a loopback
TCP proxy holding every chunk half the round trip each way), so that everything on the
wire is delayed: messages, and WebSocket ping frames and their pongs, which the clients'
WebSocket library answers. Both react with the same reaction-time distribution
(lognormal, median 350 ms, sigma 0.35), timed from the moment each of them sees the
position, and honestly report it (``react``).

Each race is a fresh seeded room on our server (in this process, memory store):

- **jump-in**: a third seat (no delay) plays R5; both racers hold an R5 and jump in.
- **UNO call against catch**: one racer (near and far alternately) plays its next-to-last
  card without calling UNO; both see the position, it calls, the other catches.

Modes: ``off`` (``fairRaces: false``: arrival order), ``on`` (claim windows), and two
fakers against an honest racer, both 20 ms away, windows on: ``slow-pong`` answers the
server's ping *messages* 300 ms late (what a page's code can do: its WebSocket stack
still answers ping frames at once), ``slow-frames`` answers ping frames 300 ms late too
(a client of its own making: on the wire it looks like a racer 320 ms away). Reports each
mode's share of wins of the far (or faking) racer, the model's share (what the rules of
docs/fairness.md give from the reaction model alone), the delay the server added to each
claim (answer time less the round trip, p50/p99), and the longest window a race event
reported.

    python bench/races.py [--races 2000] [--parallel 20] [--window 250] [--margin 25]
                          [--sigma 0.35] [--kinds jump-in,call-catch]
                          [--modes off,on,slow-pong,slow-frames] [--json FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import random
import secrets
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
import uvicorn
import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.main import create_app  # noqa: E402
from app.rooms import tokens  # noqa: E402
from app.rooms.doc import PLAYING, new_doc  # noqa: E402
from app.rooms.races import RaceSettings  # noqa: E402
from app.settings import Settings  # noqa: E402
from app.ws.transport import uvicorn_options  # noqa: E402
from engine.scenario import initial_state  # noqa: E402
from reliability.netdelay import DelayedLink  # noqa: E402

NEAR_RTT, FAR_RTT = 0.020, 0.200
MEDIAN_S, SIGMA = 0.350, 0.35
SETTLE_S = 0.45  # after connecting: the server's first pings have been answered
FAKE_PONG_S = 0.300
# A faker's (ping message, ping frame) answer delays, by mode.
FAKERS = {"slow-pong": (FAKE_PONG_S, 0.0), "slow-frames": (FAKE_PONG_S, FAKE_PONG_S)}
Fakes = tuple[tuple[float, float], tuple[float, float]]
_DRAW = ["G7", "G8", "G9", "G4", "Y7", "Y8", "Y9", "B7", "B8", "B9"]


class SimClient:
    """A WebSocket (through a delayed link: ``rtt`` is the link's); answers the server's
    ping messages (``pong_extra`` later than at once)."""

    def __init__(self, ws: Any, rtt: float, pong_extra: float = 0.0) -> None:
        self.ws = ws
        self.rtt = rtt
        self.pong_extra = pong_extra
        self.moves: int | None = None
        self.positions: dict[int, asyncio.Event] = {}
        self.answers: dict[str, tuple[float, dict[str, Any]]] = {}
        self.answered: dict[str, asyncio.Event] = {}
        self.races: list[dict[str, Any]] = []
        self._loop = asyncio.get_running_loop()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for raw in self.ws:
                self._seen(raw)

    def _seen(self, raw: str | bytes) -> None:
        message = orjson.loads(raw)
        kind = message["type"]
        if kind == "ping":
            self.send({"type": "pong", "n": message["n"]}, self.pong_extra)
        elif kind == "snapshot":
            self._position(message["view"].get("moves"))
        elif kind == "patch":
            for op in message["ops"]:
                if op["path"] == "/moves":
                    self._position(op["value"])
                elif op["path"] == "":
                    self._position(op["value"].get("moves"))
            self.races += [e for e in message["events"] if e["type"] == "race"]
        elif kind in ("ack", "error"):
            ref = message["ref"]
            self.answers[ref] = (time.monotonic(), message)
            self.answered.setdefault(ref, asyncio.Event()).set()

    def _position(self, moves: int | None) -> None:
        if moves is not None and moves != self.moves:
            self.moves = moves
            self.positions.setdefault(moves, asyncio.Event()).set()

    async def seen(self, moves: int) -> None:
        await self.positions.setdefault(moves, asyncio.Event()).wait()

    def send(self, message: dict[str, Any], extra: float = 0.0) -> None:
        text = orjson.dumps(message).decode()

        def go() -> None:
            task = asyncio.create_task(self._send(text))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

        if extra:
            self._loop.call_later(extra, go)
        else:
            go()

    async def _send(self, text: str) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            await self.ws.send(text)

    async def answer(self, ref: str) -> tuple[float, dict[str, Any]]:
        await self.answered.setdefault(ref, asyncio.Event()).wait()
        return self.answers[ref]

    async def close(self) -> None:
        await self.ws.close()
        with contextlib.suppress(Exception):
            await self._reader


@dataclass
class Tally:
    """One kind x mode: who won, what the window added."""

    races: int = 0
    far_wins: int = 0
    added_ms: list[float] = field(default_factory=list)
    windows: list[int] = field(default_factory=list)
    superhuman: int = 0
    failures: int = 0


class Bench:
    def __init__(self, app: Any, port: int, seed: int) -> None:
        self.app = app
        self.port = port
        self.ws_base = f"ws://127.0.0.1:{port}"
        self.rng = random.Random(seed)
        self.links: dict[tuple[float, float], DelayedLink] = {}

    async def link(self, rtt: float, extra_pong: float) -> DelayedLink:
        """The delayed link of that round trip (and that much later pong frames)."""
        key = (rtt, extra_pong)
        if key not in self.links:
            self.links[key] = await DelayedLink.start(("127.0.0.1", self.port), rtt, extra_pong)
        return self.links[key]

    sigma = SIGMA

    def reaction(self) -> float:
        return MEDIAN_S * math.exp(self.rng.gauss(0.0, self.sigma))

    async def room(self, players: int, setup: dict[str, Any], fair: bool) -> tuple[str, list[str]]:
        rules = {"jumpIn": True}
        state = initial_state({"rules": rules, "players": players, "setup": setup})
        room_id, host = tokens.new_room_id(), tokens.new_token()
        doc = new_doc(
            room_id=room_id,
            name="bench",
            code=tokens.new_code(),
            private=True,
            spectators=True,
            seats=players,
            rules=state.rules.to_json(),
            host_hash=tokens.hash_token(host),
            now_ms=0,
        )
        seat_tokens = [tokens.new_token() for _ in range(players)]
        doc["players"] = [
            {"seat": s, "pid": f"p{s}", "name": f"p{s}", "token": tokens.hash_token(t), "conn": 0}
            for s, t in enumerate(seat_tokens)
        ]
        doc.update(status=PLAYING, matchId=tokens.new_id(), listed=False, fairRaces=fair)
        store = self.app.state.store
        await store.create(room_id, doc, doc["code"], False, [{"start": state.to_json()}])
        return room_id, seat_tokens

    async def connect(
        self, room_id: str, token: str, rtt: float, pong: float = 0, frames: float = 0
    ) -> SimClient:
        """A client ``rtt`` away answering ping messages ``pong`` and ping frames
        ``frames`` s late (a client with no delay at all connects directly)."""
        base = self.ws_base
        if rtt or frames:
            base = f"ws://127.0.0.1:{(await self.link(rtt, frames)).port}"
        url = f"{base}/ws/rooms/{room_id}?token={token}"
        ws = await websockets.connect(url, compression=None, max_queue=None)
        return SimClient(ws, rtt, pong)

    async def claim(
        self, client: SimClient, at: int, action: dict[str, Any]
    ) -> tuple[float, float, dict[str, Any]]:
        """React to position ``at`` like a person; (sent, answered, answer)."""
        await client.seen(at)
        react = self.reaction()
        await asyncio.sleep(react)
        ref = secrets.token_hex(4)
        sent = time.monotonic()
        message = {"type": "action", "id": ref, "action": {**action, "at": at}}
        client.send({**message, "react": round(react * 1000)})
        answered, answer = await client.answer(ref)
        return sent, answered, answer

    async def jump_in(self, fair: bool, rtts: tuple[float, float], pongs: Fakes):
        setup = {
            "hands": [["R5", "G1", "G2"], ["Y1", "Y2", "Y3"], ["R5", "B1", "B2"], ["R5", "B3"]],
            "discard": ["R9"],
            "color": "R",
            "drawPile": _DRAW,
            "turn": 0,
        }
        room_id, seat_tokens = await self.room(4, setup, fair)
        trigger = await self.connect(room_id, seat_tokens[0], 0.0)
        racers = [
            await self.connect(room_id, seat_tokens[2 + i], rtts[i], *pongs[i]) for i in (0, 1)
        ]
        await asyncio.sleep(SETTLE_S)
        trigger.send({"type": "action", "id": "t", "action": {"type": "play", "cards": ["R5"]}})
        play = {"type": "play", "cards": ["R5"]}
        results = await asyncio.gather(*(self.claim(c, 1, play) for c in racers))
        return results, racers, [trigger, *racers]

    async def call_catch(self, fair: bool, rtts: tuple[float, float], pongs: Fakes, caller: int):
        setup = {
            "hands": [["Y1", "Y2", "Y3"], ["R1", "R2", "G5"], ["B1", "B2", "B3"]],
            "discard": ["R5"],
            "color": "R",
            "drawPile": _DRAW,
            "turn": 1 + caller,
        }
        setup["hands"][1 + caller] = ["R1", "R2"]
        room_id, seat_tokens = await self.room(3, setup, fair)
        racers = [
            await self.connect(room_id, seat_tokens[1 + i], rtts[i], *pongs[i]) for i in (0, 1)
        ]
        await asyncio.sleep(SETTLE_S)
        racers[caller].send(
            {"type": "action", "id": "t", "action": {"type": "play", "cards": ["R1"]}}
        )
        actions = [{"type": "callUno"}, {"type": "catchUno", "target": 1 + caller}]
        if caller == 1:
            actions.reverse()
        results = await asyncio.gather(
            *(self.claim(c, 1, a) for c, a in zip(racers, actions, strict=True))
        )
        return results, racers, racers


async def one_race(
    bench: Bench, kind: str, mode: str, index: int, tally: Tally, gate: asyncio.Semaphore
) -> None:
    fair = mode != "off"
    faking = mode in FAKERS
    rtts = (NEAR_RTT, NEAR_RTT) if faking else (NEAR_RTT, FAR_RTT)
    pongs: Fakes = ((0.0, 0.0), FAKERS.get(mode, (0.0, 0.0)))
    async with gate:
        clients: list[SimClient] = []
        try:
            async with asyncio.timeout(30):
                if kind == "jump-in":
                    results, racers, clients = await bench.jump_in(fair, rtts, pongs)
                else:
                    results, racers, clients = await bench.call_catch(fair, rtts, pongs, index % 2)
        except TimeoutError:
            tally.failures += 1
            return
        finally:
            for client in clients:
                await client.close()
    kinds = [answer["type"] for _, _, answer in results]
    if sorted(kinds) != ["ack", "error"]:
        tally.failures += 1
        return
    tally.races += 1
    tally.far_wins += kinds[1] == "ack"
    for racer, (sent, answered, _) in zip(racers, results, strict=True):
        tally.added_ms.append(max(0.0, (answered - sent - racer.rtt) * 1000))
    for event in racers[0].races:
        tally.windows.append(event["window"])
        tally.superhuman += sum(c["superhuman"] for c in event["claims"])


def model_share(mode: str, races: RaceSettings, sigma: float, samples: int = 200_000) -> float:
    """What the far (or faking) racer should win if the server did exactly what
    docs/fairness.md says, from the reaction model alone (no sockets, no clocks): the
    credit it gets over the other racer (its edge), as far as the window lets it count."""
    rng = random.Random(1)
    cap = races.delay_cap_ms / 1000
    gap = FAR_RTT - NEAR_RTT
    if mode == "off":
        edge = -gap  # arrival order: faster by the whole gap, or lose
    elif mode == "on":
        # Credited its own round trip, the far racer makes up the gap in every race its
        # claim reaches the window for: all of them once the window covers the gap.
        window = min(races.window_ms, races.margin_ms + 1000 * (min(cap, FAR_RTT) - NEAR_RTT))
        edge = -max(0.0, gap - window / 1000)
    else:
        # A page stretching its pong messages is credited its ping frames' round trip
        # plus the slack; a client stretching its ping frames too, up to the cap. What it
        # gains over the honest racer counts as far as the window reaches.
        stretch = FAKE_PONG_S if mode == "slow-frames" else races.ws_slack_ms / 1000
        credit = min(cap, NEAR_RTT + min(FAKE_PONG_S, stretch)) - NEAR_RTT
        window = min(races.window_ms, races.margin_ms + 1000 * credit) / 1000
        edge = min(credit, window)
    wins = 0
    for _ in range(samples):
        mine = MEDIAN_S * math.exp(rng.gauss(0.0, sigma))
        theirs = MEDIAN_S * math.exp(rng.gauss(0.0, sigma))
        wins += mine < theirs + edge
    return wins / samples


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(
            database_url=f"sqlite+aiosqlite:///{tmp}/bench.db",
            race_window_ms=args.window,
            race_window_margin_ms=args.margin,
            rate_per_second=1000.0,
            rate_burst=1000,
            ping_seconds=0.5,
        )
        app = create_app(settings)
        # The server's own WebSocket options (its protocol times ping frames).
        config = uvicorn.Config(
            app, host="127.0.0.1", port=0, log_level="warning", **uvicorn_options(settings)
        )
        server = uvicorn.Server(config)
        task = asyncio.create_task(server.serve())
        while not server.started:
            await asyncio.sleep(0.01)
        port = server.servers[0].sockets[0].getsockname()[1]
        bench = Bench(app, port, args.seed)
        bench.sigma = args.sigma
        gate = asyncio.Semaphore(args.parallel)
        out: dict[str, Any] = {
            "races": args.races,
            "window": args.window,
            "margin": args.margin,
            "results": [],
        }
        races = RaceSettings(
            window_ms=args.window,
            margin_ms=args.margin,
            delay_cap_ms=settings.race_delay_cap_ms,
            ws_slack_ms=settings.race_ws_slack_ms,
        )
        try:
            for kind in args.kinds.split(","):
                for mode in args.modes.split(","):
                    tally = Tally()
                    started = time.monotonic()
                    await asyncio.gather(
                        *(one_race(bench, kind, mode, i, tally, gate) for i in range(args.races))
                    )
                    row = {
                        "kind": kind,
                        "mode": mode,
                        "races": tally.races,
                        "failures": tally.failures,
                        "share": tally.far_wins / tally.races if tally.races else float("nan"),
                        "model": model_share(mode, races, args.sigma),
                        "added_p50": percentile(tally.added_ms, 0.5),
                        "added_p99": percentile(tally.added_ms, 0.99),
                        "window_max": max(tally.windows, default=0),
                        "superhuman": tally.superhuman,
                        "seconds": time.monotonic() - started,
                    }
                    out["results"].append(row)
                    print(format_row(row), flush=True)
        finally:
            for link in bench.links.values():
                await link.close()
            server.should_exit = True
            await task
    return out


def format_row(row: dict[str, Any]) -> str:
    who = "faking racer" if row["mode"] in FAKERS else "far racer"
    return (
        f"{row['kind']:<10} {row['mode']:<9} {who} wins {row['share'] * 100:5.1f} %"
        f" of {row['races']} (model {row['model'] * 100:4.1f} %, {row['failures']} failed)"
        f" | added delay p50"
        f" {row['added_p50']:5.1f} ms p99 {row['added_p99']:5.1f} ms | longest window"
        f" {row['window_max']} ms | {row['seconds']:.0f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--races", type=int, default=2000, help="races per kind and mode")
    parser.add_argument("--parallel", type=int, default=20, help="races run at once")
    parser.add_argument("--window", type=int, default=250, help="UNO_RACE_WINDOW_MS")
    parser.add_argument("--margin", type=int, default=25, help="UNO_RACE_WINDOW_MARGIN_MS")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--sigma", type=float, default=SIGMA, help="of the log reaction time")
    parser.add_argument("--json", type=Path, help="write the figures here too")
    parser.add_argument("--kinds", default="jump-in,call-catch")
    parser.add_argument("--modes", default="off,on,slow-pong,slow-frames")
    args = parser.parse_args()
    print(
        f"near RTT {NEAR_RTT * 1000:.0f} ms, far RTT {FAR_RTT * 1000:.0f} ms, reaction lognormal"
        f" median {MEDIAN_S * 1000:.0f} ms sigma {args.sigma}, windows up to {args.window} ms"
        f" (gap + {args.margin} ms),"
        f" fake pong +{FAKE_PONG_S * 1000:.0f} ms"
    )
    out = asyncio.run(run(args))
    if args.json:
        args.json.write_text(orjson.dumps(out, option=orjson.OPT_INDENT_2).decode())


if __name__ == "__main__":
    main()
