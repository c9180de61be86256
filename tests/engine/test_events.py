"""The event kinds the app reads are declared (engine.events' TypedDicts) as the engine
makes them: random deals of each game, every ``dealOver`` and ``flip`` held to its
declaration, and the guards pick out exactly their kind."""

from __future__ import annotations

import random

import pytest
from typed_shapes import mismatch

from engine import (
    PRESETS,
    DealOver,
    Event,
    Flip,
    apply,
    is_deal_over,
    is_flip,
    legal_actions,
    new_match,
    rules_from_json,
)


def _deal_events(preset: str, seed: int) -> list[Event]:
    """Every event of a match's first deal under ``preset``, random legal moves."""
    rules = rules_from_json({"preset": preset})
    players = 2 if preset == "duo" else 3
    state, events = new_match(rules, players, f"seed-{preset}-{seed}")
    rng = random.Random(seed)
    for _ in range(3000):
        moves = [(s, a) for s in range(players) for a in legal_actions(state, s)]
        moves = [(s, a) for s, a in moves if a.type != "nextDeal"]
        if not moves:
            break
        state, made = apply(state, *rng.choice(moves))
        events.extend(made)
    return events


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_deal_over_and_flip_event_is_as_declared(preset: str) -> None:
    events = [e for seed in range(3) for e in _deal_events(preset, seed)]
    dealt = [e for e in events if is_deal_over(e)]
    assert dealt, "no deal ended"
    for event in dealt:
        assert mismatch(event, DealOver) is None, mismatch(event, DealOver)
    for event in filter(is_flip, events):
        assert mismatch(event, Flip) is None, mismatch(event, Flip)
    if preset == "flip":
        assert any(map(is_flip, events))


def test_the_guards_pick_out_their_kind_only() -> None:
    assert is_deal_over({"type": "dealOver", "winner": 1})
    assert is_flip({"type": "flip", "seat": 0, "side": "dark", "top": "R5"})
    assert not is_deal_over({"type": "matchOver", "winner": 1})
    assert not is_flip({"type": "play", "seat": 0, "cards": ["R5"]})
