"""A bot's memory of the deal (engine.bots.memory): kept from what its seat was sent
only, it knows the discard pile exactly and never infers a lack the hands contradict when
the others play as sensible players do; samples built with it stay consistent."""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import apply, event_for, new_match, rules_from_json, view_for
from engine.bots import Memory, choose, replay
from engine.bots.memory import WILD
from engine.bots.sample import sample_state, unseen_of
from engine.cards import FACES
from engine.deal import deck_for

CLASSIC = rules_from_json({"preset": "classic", "matchMode": "oneAndDone"})


def kinds_of(card: str) -> set[str]:
    info = FACES["light"][card]
    return {WILD if info.is_wild else info.color or "", "#" + info.rank}


def play_deal(seed: str, watcher: int = 0) -> list[tuple[Any, Memory, list[dict[str, Any]]]]:
    """A deal of four normal bots; after each change, the state, the watcher's memory (fed
    that seat's events and view only) and the actions so far."""
    state, events = new_match(CLASSIC, 4, seed)
    memory = Memory()
    memory.update([event_for(e, watcher) for e in events], view_for(state, watcher))
    rng = random.Random(seed)
    log: list[dict[str, Any]] = []
    out = []
    start = state
    while state.phase == "playing" or state.phase == "chooseColor":
        seat = state.turn
        action = choose(view_for(state, seat), "normal", rng, memory=None)
        assert action is not None
        state, events = apply(state, seat, action)
        log.append({"seat": seat, "action": action})
        memory.update([event_for(e, watcher) for e in events], view_for(state, watcher))
        out.append((state, copy.deepcopy(memory), list(log)))
    assert out and start.deal == state.deal
    return out


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(min_size=1, max_size=8))
def test_the_memory_knows_the_discard_and_infers_no_lack_the_hands_contradict(
    seed: str,
) -> None:
    for state, memory, _ in play_deal(seed):
        assert memory.complete
        assert memory.discard == list(state.discard)
        for seat, void in memory.void.items():
            assert seat != 0  # its own hand it sees
            for kind, known in void.items():
                holding = sum(1 for c in state.hands[seat] if kind in kinds_of(c))
                assert known <= len(state.hands[seat]) - holding


def test_a_seat_that_draws_is_known_to_lack_the_colour_in_force() -> None:
    for seed in ("lack-1", "lack-2", "lack-3"):
        for state, memory, log in play_deal(seed):
            last = log[-1]
            if last["action"]["type"] == "draw" and last["seat"] != 0 and state.drawn is None:
                assert memory.lacks(last["seat"], WILD) > 0
                return
    raise AssertionError("no deal had a draw")


def test_a_memory_replayed_from_the_deal_log_is_the_one_kept_change_by_change() -> None:
    deal = play_deal("replay")
    start, _ = new_match(CLASSIC, 4, "replay")
    for _state, memory, log in deal[::7]:
        again = replay(start, log, 0)
        assert again.discard == memory.discard
        assert again.void == memory.void
        assert again.plays == memory.plays


def test_a_memory_that_missed_the_deal_start_is_not_used_for_the_discard() -> None:
    state, memory, _ = play_deal("late")[10]
    late = Memory()
    late.update([], view_for(state, 0))
    assert not late.complete
    unseen = unseen_of(view_for(state, 0), late)
    assert unseen is not None and unseen.under == ()


def test_samples_with_a_memory_put_the_laid_cards_under_the_top_and_honour_the_lacks() -> None:
    rng = random.Random(1)
    checked = 0
    for state, memory, _ in play_deal("sample"):
        if state.turn != 0 or state.phase != "playing":
            continue
        view = view_for(state, 0)
        unseen = unseen_of(view, memory)
        assert unseen is not None
        sample = sample_state(view, unseen, rng)
        assert sample is not None
        assert list(sample.discard) == memory.discard
        cards: Counter[str] = Counter(sample.draw_pile)
        cards.update(sample.discard)
        for hand in sample.hands:
            cards.update(hand)
        assert cards == Counter(deck_for(CLASSIC))
        for seat, void in memory.void.items():
            for kind, known in void.items():
                holding = sum(1 for c in sample.hands[seat] if kind in kinds_of(c))
                # The truth meets every lack, so a sample can: first fit finds one.
                assert known <= len(sample.hands[seat]) - holding
        checked += 1
    assert checked > 3
