"""``at``: an action answering a position the table has left is refused with ``too_late``
before any other check, for every action type in every game; ``at`` is a non-negative
whole number; an ``at`` naming the current position changes nothing about the action."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from uno_helpers import outcomes, play, position, run_setup

from engine import EngineError, apply, legal_actions, new_match, parse_action, rules_from_json
from engine.actions import ACTION_TYPES

PRESETS = ["classic", "house", "druk", "helsinki", "warszawa", "duo", "flip", "rommy", "bottle"]
# One well-formed example of every action type (the fields each one needs).
EXAMPLES = {
    "play": {"type": "play", "cards": ["R5"]},
    "draw": {"type": "draw"},
    "pass": {"type": "pass"},
    "callUno": {"type": "callUno"},
    "catchUno": {"type": "catchUno", "target": 1},
    "challenge": {"type": "challenge"},
    "chooseColor": {"type": "chooseColor", "color": "R"},
    "nextDeal": {"type": "nextDeal"},
    "misplay": {"type": "misplay", "cards": ["R5"]},
    "clockOut": {"type": "clockOut"},
    "keep": {"type": "keep"},
    "discard": {"type": "discard"},
    "meld": {"type": "meld", "cards": ["R5", "G5", "B5"]},
    "layOff": {"type": "layOff", "cards": ["R5"], "target": 0},
    "takeDiscard": {"type": "takeDiscard"},
    "takePile": {"type": "takePile"},
    "discardCard": {"type": "discardCard", "cards": ["R5"]},
    "swapJoker": {"type": "swapJoker", "cards": ["R5"], "target": 0},
    "turnCard": {"type": "turnCard"},
}
assert set(EXAMPLES) == ACTION_TYPES


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("kind", sorted(ACTION_TYPES))
def test_a_stale_at_is_too_late_for_every_action_type_in_every_game(preset: str, kind: str) -> None:
    players = 2 if preset == "duo" else 3
    state, _ = new_match(rules_from_json({"preset": preset}), players, "at-seed")
    for seat in range(players):
        for at in (state.moves + 1, state.moves + 999_999):
            with pytest.raises(EngineError) as err:
                apply(state, seat, {**EXAMPLES[kind], "at": at})
            assert err.value.code == "too_late", (seat, at, err.value)


@pytest.mark.parametrize("preset", PRESETS)
def test_every_legal_action_with_the_current_at_is_accepted_as_without(preset: str) -> None:
    players = 2 if preset == "duo" else 3
    state, _ = new_match(rules_from_json({"preset": preset}), players, "at-legal")
    rng = random.Random(7)
    for _ in range(60):
        seats = [s for s in range(players) if legal_actions(state, s)]
        if not seats:
            break
        seat = rng.choice(seats)
        action = rng.choice(legal_actions(state, seat)).to_json()
        plain, _ = apply(state, seat, action)
        stamped, _ = apply(state, seat, {**action, "at": state.moves})
        assert stamped.to_json() == plain.to_json()
        with pytest.raises(EngineError) as err:
            apply(state, seat, {**action, "at": state.moves + 1})
        assert err.value.code == "too_late"
        if state.moves:
            with pytest.raises(EngineError) as err:
                apply(state, seat, {**action, "at": state.moves - 1})
            assert err.value.code == "too_late"
        state = plain


@pytest.mark.parametrize("bad", [-1, -5, 1.5, "3", True, False, [1], {"n": 1}])
def test_at_that_is_not_a_non_negative_whole_number_is_refused_as_bad_at(bad: object) -> None:
    with pytest.raises(EngineError) as err:
        parse_action({"type": "draw", "at": bad})
    assert err.value.code == "bad_at"


# The reproduction: classic + jumpIn, 4 seats, top Y2, seat 2 to play and seat 1 next.
HANDS = ["R1 R3", "Y2 G5 G6", "Y4 B5 B6", "G1 G3"]


def test_a_stale_jump_in_arriving_on_your_own_turn_is_too_late_not_a_play() -> None:
    actions = [play(2, "Y4"), play(1, "Y2", at=0)]
    hands = ["R1 R3", "Y2 G5 G6", "Y4 B5 B6", "G1 G3"]
    result = run_setup(hands, "Y2", rules={"jumpIn": True}, turn=2, direction=-1, actions=actions)
    assert outcomes(result) == ["ok", "too_late"]
    assert result["state"]["hands"][1] == ["Y2", "G5", "G6"]


def test_too_late_comes_before_any_other_check() -> None:
    """Card not held, card not playable, wrong phase, out of turn, knocked-out seat or
    unknown target: a stale ``at`` is named first."""
    state = position(HANDS, "Y2", rules={"jumpIn": True}, turn=2)
    stale = state.moves + 3
    for seat, action in [
        (1, {"type": "play", "cards": ["R9"]}),  # not held
        (2, {"type": "play", "cards": ["B5"]}),  # not playable
        (2, {"type": "chooseColor", "color": "R"}),  # wrong phase
        (0, {"type": "draw"}),  # not your turn
        (0, {"type": "catchUno", "target": 3}),  # nothing to catch
        (0, {"type": "challenge"}),  # nothing to challenge
        (1, {"type": "nextDeal"}),  # wrong phase
        (1, {"type": "meld", "cards": ["R5", "G5", "B5"]}),  # not this game
    ]:
        with pytest.raises(EngineError) as err:
            apply(state, seat, {**action, "at": stale})
        assert err.value.code == "too_late", (action, err.value)
    with pytest.raises(EngineError) as err:
        apply(state, 9, {"type": "draw", "at": stale})
    assert err.value.code == "too_late"


def test_in_turn_actions_with_a_wrong_at_are_refused() -> None:
    state = position(HANDS, "Y2", rules={"jumpIn": True}, turn=2)
    for at in (999_999, state.moves + 1):
        with pytest.raises(EngineError) as err:
            apply(state, 2, {"type": "play", "cards": ["Y4"], "at": at})
        assert err.value.code == "too_late"
    with pytest.raises(EngineError) as err:
        apply(state, 2, {"type": "play", "cards": ["Y4"], "at": -5})
    assert err.value.code == "bad_at"
    after, _ = apply(state, 2, {"type": "play", "cards": ["Y4"], "at": state.moves})
    assert after.moves == state.moves + 1


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.sampled_from(PRESETS),
    seed=st.text(min_size=1, max_size=6),
    steps=st.integers(0, 80),
    pick=st.randoms(use_true_random=False),
)
def test_any_action_with_any_other_at_is_too_late_and_changes_nothing(
    preset: str, seed: str, steps: int, pick: random.Random
) -> None:
    players = 2 if preset == "duo" else pick.randint(2, 5)
    state, _ = new_match(rules_from_json({"preset": preset, "jumpIn": True}), players, seed)
    for _ in range(steps):
        seats = [s for s in range(players) if legal_actions(state, s)]
        if not seats:
            break
        seat = pick.choice(seats)
        state, _ = apply(state, seat, pick.choice(legal_actions(state, seat)))
    before = state.to_json()
    seat = pick.randrange(players)
    candidates = [a.to_json() for a in legal_actions(state, seat)] or [EXAMPLES["draw"]]
    action = pick.choice(candidates + list(EXAMPLES.values()))
    at = pick.choice([v for v in (state.moves - 1, state.moves + 1, 10**9) if v >= 0])
    with pytest.raises(EngineError) as err:
        apply(state, seat, {**action, "at": at})
    assert err.value.code == "too_late"
    assert state.to_json() == before
