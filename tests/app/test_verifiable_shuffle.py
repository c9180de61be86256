"""The verifiable shuffle on a live server: each deal's commitment is shown before the
deal, seated clients contribute entropy before it is dealt, the deal's end reveals only
that deal's server seed, and ``python -m engine.verify`` checks a finished deal's archive
record (commitment, derivation, the deal, every action, the scores)."""

from __future__ import annotations

import asyncio
import hashlib
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson
from live import Client, Server
from test_full_game import archived_match, play_to_the_end

ROOT = Path(__file__).resolve().parents[2]
RULES = {"targetScore": 1000, "roundLimit": 2}


def _contributed(client: Client, deal: int) -> int:
    you = client.view["you"]
    return sum(
        e["type"] == "entropy" and e["seat"] == you and e["deal"] == deal for e in client.events
    )


async def _entropy(client: Client, deal: int, value: str) -> dict[str, Any] | None:
    """Send a contribution; the error it got, or None once its event arrived."""
    errors, events = len(client.errors.get(None, [])), _contributed(client, deal)
    await client.send({"type": "entropy", "deal": deal, "value": value})
    async with asyncio.timeout(5):
        while True:
            if len(client.errors.get(None, [])) > errors:
                return client.errors[None][-1]
            if _contributed(client, deal) > events:
                return None
            await asyncio.sleep(0.005)


def verify(record: dict[str, Any], tmp: Path) -> tuple[int, dict[str, Any]]:
    path = tmp / "deal.json"
    path.write_bytes(orjson.dumps(record))
    done = subprocess.run(
        [sys.executable, "-m", "engine.verify", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    return done.returncode, orjson.loads(done.stdout)


async def test_contributions_commitments_reveals_and_the_verifier(
    fast_server: Server, tmp_path: Path
) -> None:
    server = fast_server
    room, seats = await server.table(2, rules=RULES, start=False)
    room_id = room["roomId"]
    clients = [await server.connect(room_id, s["token"]) for s in seats]
    await clients[0].wait_seq(clients[1].seq)
    upcoming = clients[0].view["shuffle"]["next"]
    assert upcoming["deal"] == 1 and upcoming["entropy"] == []
    assert await _entropy(clients[0], 1, "00ff" * 8) is None
    assert await _entropy(clients[1], 1, "abc123") is None
    # Once per seat and deal; 64 hex characters at most; hex only; the next deal only.
    seq = clients[0].seq
    assert (await _entropy(clients[0], 1, "11"))["code"] == "entropy_twice"
    assert (await _entropy(clients[1], 1, "1" * 65))["code"] == "entropy_too_large"
    assert (await _entropy(clients[1], 1, "xyz"))["code"] == "bad_entropy"
    assert (await _entropy(clients[1], 2, "12"))["code"] == "entropy_too_late"
    await asyncio.sleep(0.05)
    assert clients[0].seq == seq  # nothing changed
    await server.start(room_id, room["hostToken"])
    for client in clients:
        await client.wait_seq(seq + 1)
    shuffle = clients[0].view["shuffle"]
    assert shuffle == {"deal": 1, "commitment": upcoming["commitment"]}  # nothing revealed
    assert (await _entropy(clients[0], 2, "12"))["code"] == "entropy_too_late"  # dealt
    assert (await _entropy(clients[0], 1, "12"))["code"] == "entropy_too_late"

    await play_to_the_end(clients, random.Random(7))
    assert clients[0].view["phase"] == "dealOver"
    shown = clients[1].view["shuffle"]
    revealed = shown["revealed"]
    # What the browser checks: the revealed server seed is the one committed to before.
    assert (
        hashlib.sha256(bytes.fromhex(revealed["serverSeed"])).hexdigest() == shuffle["commitment"]
    )
    assert revealed["entropy"] == sorted(["00ff" * 8, "abc123"])
    second = shown["next"]
    assert second["deal"] == 2 and second["commitment"] != shuffle["commitment"]
    assert await _entropy(clients[1], 2, "beef") is None
    ref = await clients[0].act({"type": "nextDeal"})
    assert (await clients[0].outcome(ref))["type"] == "ack"
    await play_to_the_end(clients, random.Random(8))
    assert clients[0].view["phase"] == "matchOver"
    match_id = clients[0].view["room"]["matchId"]
    await archived_match(server, match_id, 2)
    for number, commitment in ((1, shuffle["commitment"]), (2, second["commitment"])):
        r = await server.http.get(f"/api/matches/{match_id}/deals/{number}/replay")
        assert r.status_code == 200, r.text
        record = r.json()
        assert record["startState"]["shuffle"]["commitment"] == commitment
        code, out = verify(record, tmp_path)
        assert code == 0 and out["ok"], out
        assert set(out["checks"]) == {"commitment", "derivation", "deal", "actions", "scores"}
    # A record tampered with fails the check that covers it.
    tampered = orjson.loads(orjson.dumps(record))
    hand, pile = tampered["startState"]["hands"][0], tampered["startState"]["draw_pile"]
    # A card of the pile other than the hand's first (a deck holds two of most cards).
    other = next(i for i, card in enumerate(pile) if card != hand[0])
    hand[0], pile[other] = pile[other], hand[0]
    code, out = verify(tampered, tmp_path)
    assert code == 1 and out["checks"]["deal"] != "ok", out
    tampered = orjson.loads(orjson.dumps(record))
    tampered["startState"]["shuffle"]["entropy"].append("00")
    code, out = verify(tampered, tmp_path)
    assert code == 1 and out["checks"]["derivation"] != "ok"
    tampered["startState"]["shuffle"]["serverSeed"] = "00" * 32
    code, out = verify(tampered, tmp_path)
    assert out["checks"]["commitment"] != "ok"
    tampered = orjson.loads(orjson.dumps(record))
    tampered["totals"] = [t + 1 for t in tampered["totals"]]
    code, out = verify(tampered, tmp_path)
    assert code == 1 and out["checks"]["scores"] != "ok"
    for client in clients:
        await client.close()


def test_the_verifier_refuses_what_is_not_a_deal_record(tmp_path: Path) -> None:
    path = tmp_path / "deal.json"
    path.write_text("[1, 2]")
    done = subprocess.run(
        [sys.executable, "-m", "engine.verify", str(path)], cwd=ROOT, capture_output=True
    )
    assert done.returncode == 2


async def test_a_bottle_uno_round_is_verified_from_its_archive_record(
    fast_server: Server, tmp_path: Path
) -> None:
    """Bottle UNO deals its own way (a turned deck, no hands): the verifier deals it again
    too (UNO Rommy's deal: tests/engine/test_commitment.py)."""
    server = fast_server
    room = await server.create(rules={"preset": "bottle", "roundLimit": 1}, seats=2)
    seats = [await server.join(room["roomId"], f"p{i}", ageConfirmed=True) for i in range(2)]
    clients = [await server.connect(room["roomId"], s["token"]) for s in seats]
    await clients[0].wait_seq(clients[1].seq)
    assert await _entropy(clients[1], 1, "c0ffee") is None
    await server.start(room["roomId"], room["hostToken"])
    for _ in range(200):
        await clients[0].wait_seq(clients[1].seq)
        view = clients[0].view
        if view["phase"] == "matchOver":
            break
        mover = next(c for c in clients if c.view["legal"])
        ref = await mover.act(mover.view["legal"][0])
        outcome = await mover.outcome(ref)
        assert outcome["type"] == "ack", outcome
        for client in clients:
            await client.wait_seq(outcome["seq"])
    assert clients[0].view["phase"] == "matchOver"
    match_id = clients[0].view["room"]["matchId"]
    await archived_match(server, match_id, 1)
    r = await server.http.get(f"/api/matches/{match_id}/deals/1/replay")
    assert r.status_code == 200, r.text
    record = r.json()
    assert record["startState"]["shuffle"]["entropy"] == ["c0ffee"]
    code, out = verify(record, tmp_path)
    assert code == 0 and out["ok"] and out["checks"]["deal"] == "ok", out
    stacked = orjson.loads(orjson.dumps(record))
    pile = stacked["startState"]["pile"]
    other = next(i for i, card in enumerate(pile) if card != pile[0])
    pile[0], pile[other] = pile[other], pile[0]
    code, out = verify(stacked, tmp_path)
    assert code == 1 and out["checks"]["deal"] != "ok", out
    for client in clients:
        await client.close()
