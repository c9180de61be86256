"""The verifiable shuffle's construction and the verifier, engine only."""

from __future__ import annotations

import hashlib
import hmac
import random
from typing import Any

import orjson
import pytest

from engine import apply, legal_actions, new_match, rules_from_json
from engine.commitment import commitment, deal_seed, is_contribution, reseed, server_seed
from engine.verify import verify

SECRET = "11" * 32


def test_the_construction_is_hmac_and_sha256_as_documented() -> None:
    s1 = server_seed(SECRET, 1)
    assert s1 == hmac.new(bytes.fromhex(SECRET), b"uno-deal:1", hashlib.sha256).hexdigest()
    assert commitment(s1) == hashlib.sha256(bytes.fromhex(s1)).hexdigest()
    expected = hmac.new(bytes.fromhex(s1), b"00ff\nabc", hashlib.sha256).hexdigest()
    assert deal_seed(s1, ["abc", "00ff"]) == expected  # sorted, whatever the order sent
    assert server_seed(SECRET, 2) != s1  # every deal its own


@pytest.mark.parametrize("value", ["", "A1", "xyz", "1" * 65, 5, None])
def test_a_contribution_is_1_to_64_lowercase_hex_characters(value: object) -> None:
    assert not is_contribution(value)
    assert is_contribution("0" * 64) and is_contribution("beef")


@pytest.mark.parametrize("preset", ["classic", "duo", "flip", "rommy", "bottle"])
def test_a_reseeded_state_deals_from_its_new_seed_alone(preset: str) -> None:
    players = 2
    state, _ = new_match(rules_from_json({"preset": preset}), players, "first")
    ended = reseed(state, "second")
    assert ended.seed == "second" and ended.shuffles == 0
    assert reseed(state, "second").to_json() == ended.to_json()
    assert state.seed == "first"  # the original is untouched


def _record(seed_entropy: list[str]) -> dict[str, Any]:
    """A finished first deal's archive record, as the history REST serves it."""
    s1 = server_seed(SECRET, 1)
    state, _ = new_match(rules_from_json({"preset": "oneAndDone"}), 3, deal_seed(s1, seed_entropy))
    start = state.to_json()
    rng = random.Random(5)
    actions = []
    while state.phase not in ("dealOver", "matchOver"):
        seat = next(s for s in range(3) if legal_actions(state, s))
        action = rng.choice(legal_actions(state, seat)).to_json()
        actions.append({"seq": len(actions) + 1, "ts": 0, "seat": seat, "action": action})
        state, _ = apply(state, seat, action)
    start["shuffle"] = {
        "deal": 1,
        "commitment": commitment(s1),
        "serverSeed": s1,
        "entropy": sorted(seed_entropy),
    }
    return {
        "deal": 1,
        "startState": start,
        "actions": actions,
        "scores": list(state.deal_scores or []),
        "totals": list(state.totals),
    }


def test_the_verifier_passes_a_true_record_and_fails_each_tampered_part() -> None:
    record = _record(["abc", "0f"])
    assert verify(record) == {
        c: "ok" for c in ("commitment", "derivation", "deal", "actions", "scores")
    }
    bad = _record(["abc", "0f"])
    bad["startState"]["shuffle"]["commitment"] = "00" * 32
    assert verify(bad)["commitment"] != "ok"
    bad = _record(["abc", "0f"])
    bad["startState"]["shuffle"]["entropy"] = ["abc"]
    assert verify(bad)["derivation"] != "ok"
    bad = _record(["abc", "0f"])
    hand = bad["startState"]["hands"][1]
    hand[0], bad["startState"]["draw_pile"][-1] = bad["startState"]["draw_pile"][-1], hand[0]
    assert verify(bad)["deal"] != "ok"
    bad = _record(["abc", "0f"])
    bad["actions"][0]["seat"] = (bad["actions"][0]["seat"] + 1) % 3
    assert verify(bad)["actions"] != "ok"


def _play_out(state: Any, rng: random.Random) -> tuple[Any, list[dict[str, Any]]]:
    """Random legal moves (mostly not a plain draw) until the deal is over."""
    actions: list[dict[str, Any]] = []
    while state.phase not in ("dealOver", "matchOver"):
        seat = next(s for s in range(state.players) if legal_actions(state, s))
        legal = legal_actions(state, seat)
        moves = [a for a in legal if a.type != "draw"]
        action = rng.choice(moves if moves and rng.random() < 0.9 else legal).to_json()
        actions.append({"seq": len(actions) + 1, "ts": 0, "seat": seat, "action": action})
        state, _ = apply(state, seat, action)
    return state, actions


def _records(preset: str, players: int) -> list[dict[str, Any]]:
    """The archive records of a match's first two deals, dealt as the room deals them:
    the first by ``new_match`` from ``D_1``, the next by ``nextDeal`` on the finished deal
    reseeded with ``D_2`` (app.rooms.machine)."""
    rng = random.Random(preset)
    records = []
    state: Any = None
    for deal in (1, 2):
        s_k = server_seed(SECRET, deal)
        entropy = [f"{deal:02x}", "beef"]
        d_k = deal_seed(s_k, entropy)
        if state is None:
            state, _ = new_match(rules_from_json({"preset": preset}), players, d_k)
        else:
            state, _ = apply(reseed(state, d_k), 0, {"type": "nextDeal"})
        start = state.to_json()
        start["shuffle"] = {
            "deal": deal,
            "commitment": commitment(s_k),
            "serverSeed": s_k,
            "entropy": sorted(entropy),
        }
        state, actions = _play_out(state, rng)
        scores = getattr(state, "deal_scores", None)
        records.append(
            {
                "deal": deal,
                "startState": start,
                "actions": actions,
                "scores": list(scores or []),
                "totals": list(getattr(state, "totals", ())),
            }
        )
    return records


def _swap(cards: list[str]) -> None:
    """Swap the first card with the first different one (a deal the seed did not make)."""
    other = next(i for i, card in enumerate(cards) if card != cards[0])
    cards[0], cards[other] = cards[other], cards[0]


@pytest.mark.parametrize(("preset", "players"), [("rommy", 3), ("bottle", 3), ("classic", 3)])
def test_the_verifier_deals_every_game_again_and_sees_a_stacked_deal(
    preset: str, players: int
) -> None:
    for record in _records(preset, players):
        assert verify(record) == {
            c: "ok" for c in ("commitment", "derivation", "deal", "actions", "scores")
        }, (preset, record["deal"])
        start = record["startState"]
        pile = {"rommy": "stock", "bottle": "pile"}.get(preset, "draw_pile")
        stacked = orjson.loads(orjson.dumps(record))
        _swap(stacked["startState"][pile])
        assert verify(stacked)["deal"].startswith("dealing from the seed gives other")
        if "hands" in start:
            stacked = orjson.loads(orjson.dumps(record))
            hand, rest = stacked["startState"]["hands"][0], stacked["startState"][pile]
            hand[0], rest[-1] = rest[-1], hand[0]
            if hand[0] != rest[-1]:
                assert verify(stacked)["deal"] != "ok"
        if record["deal"] == 1:
            stacked = orjson.loads(orjson.dumps(record))
            stacked["startState"]["dealer"] = (start["dealer"] + 1) % players
            assert verify(stacked)["deal"] != "ok"
