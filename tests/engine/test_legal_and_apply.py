"""legal_actions and apply share their checks, and apply_legal is apply without them.

``legal_actions`` lists what ``apply`` accepts (the rules' checks in engine.transition), and
``apply`` checks every action it is given, whether or not it was listed: nothing in the
state remembers a list. ``apply_legal`` skips the checks of a listed play or draw, for
bots and simulations; a property test plays random games through it and ``apply``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from option_space import any_rules

from engine import (
    Action,
    EngineError,
    IllegalAction,
    State,
    apply,
    apply_legal,
    legal_actions,
    new_match,
    rules_from_json,
)
from engine.cards import FACES, SIDE_COLORS
from engine.legal import _add_checked, _turn_actions
from engine.matching import MATCHING
from engine.rules import Rules
from engine.seven_zero import needs_target


def _started(preset: str, players: int = 4, seed: str = "agree") -> State:
    state, _ = new_match(rules_from_json({"preset": preset}), players, seed, dealer=0)
    while state.phase != "playing":
        state, _ = apply(state, state.turn, legal_actions(state, state.turn)[0])
    return state


def test_apply_refuses_an_unplayable_card_even_after_listing() -> None:
    """The list is no permission: a held card that matches nothing is refused by apply,
    right after legal_actions listed the seat's actions for this very state."""
    state = _started("classic").copy()
    seat = state.turn
    top = FACES["light"][state.discard[-1]]
    color = next(c for c in "RGBY" if c != state.color)
    rank = next(r for r in "123456789" if r != top.rank)
    unplayable = color + rank
    state.hands = tuple(h + (unplayable,) if s == seat else h for s, h in enumerate(state.hands))
    listed = legal_actions(state, seat)
    assert Action("play", (unplayable,)) not in listed
    before = state.to_json()
    with pytest.raises(IllegalAction) as err:
        apply(state, seat, Action("play", (unplayable,)))
    assert err.value.code == "card_not_playable"
    assert state.to_json() == before


def test_changing_the_returned_list_does_not_make_an_action_legal() -> None:
    state = _started("classic")
    seat = state.turn
    actions = legal_actions(state, seat)
    not_held = next(c for c in ("R1", "G2", "B3", "Y4", "R5") if c not in state.hands[seat])
    smuggled = Action("play", (not_held,))
    actions.append(smuggled)
    with pytest.raises(IllegalAction):
        apply(state, seat, smuggled)
    assert smuggled not in legal_actions(state, seat)


def test_a_play_listed_for_one_seat_is_refused_to_another() -> None:
    state = _started("house")
    other = (state.turn + 1) % 4
    mine = legal_actions(state, state.turn)
    theirs = legal_actions(state, other)
    assert legal_actions(state, state.turn) == mine
    refused = 0
    for action in mine:
        if action not in theirs and action.type == "play":
            with pytest.raises(IllegalAction):
                apply(state, other, action)
            refused += 1
    assert refused


# Every option over its own values (tests/engine/option_space.py), not a handful of rule
# sets: a fast path that a rarely set option breaks is found.
fuzzed = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _players(rules: Rules, wanted: int) -> int:
    players = max(rules.min_players, min(rules.max_players, wanted))
    if rules.teams:
        players = rules.teams * max(2, players // rules.teams)
    return players


def _playouts(
    rules: Rules, seed: int, steps: int = 80
) -> Iterator[tuple[State, int, list[Action]]]:
    """(state, seat, listed actions) met in a random playout, plays preferred as bots do."""
    rng = random.Random(seed)
    state, _ = new_match(rules, _players(rules, 2 + seed % 4), f"agree-{seed}", dealer=0)
    for _ in range(steps):
        if state.phase == "matchOver":
            break
        seat = state.turn
        actions = legal_actions(state, seat)
        if not actions:
            break
        yield state, seat, actions
        plays = [a for a in actions if a.type == "play"]
        state, _ = apply(state, seat, rng.choice(plays or actions))


@fuzzed
@given(any_rules(), st.integers(0, 2**16))
def test_apply_legal_equals_apply_on_every_listed_action(rules: Rules, seed: int) -> None:
    for state, seat, actions in _playouts(rules, seed):
        for action in actions:
            before = state.to_json()
            checked = apply(state, seat, action)
            unchecked = apply_legal(state, seat, action)
            assert unchecked[0] == checked[0]
            assert unchecked[1] == checked[1]
            assert state.to_json() == before


def _checked_listing(state: State, seat: int) -> list[Action]:
    """The turn holder's plays by turn_play_problem, card by card (each with the group
    plays it may start), without the listing's fast paths (the matching table, and no
    card checked while no card could answer a pending penalty)."""
    plays: list[Action] = []
    _add_checked(state, seat, state.hands[seat], plays)
    return plays


@fuzzed
@given(any_rules(), st.integers(0, 2**16))
def test_the_table_listing_matches_the_checks(rules: Rules, seed: int) -> None:
    for state, seat, _ in _playouts(rules, seed):
        if state.phase != "playing" or state.drawn is not None or state.follow:
            continue
        listed = [a for a in _turn_actions(state, seat) if a.type == "play"]
        assert listed == _checked_listing(state, seat)


def test_a_card_code_first_seen_in_a_hand_is_learnt() -> None:
    state = _started("flip", players=2, seed="pairing").copy()
    seat = state.turn
    odd = "R1|P1"  # a pairing of faces that the fixed Flip deck may not hold
    state.hands = tuple(h + (odd,) if s == seat else h for s, h in enumerate(state.hands))
    MATCHING.pop((state.side, state.color, state.discard[-1]), None)
    listed = [a for a in legal_actions(state, seat) if a.type == "play"]
    assert listed == _checked_listing(state, seat)


def _single_plays(state: State, seat: int) -> list[Action]:
    """Every one-card play of ``seat``'s hand, in the form the listing writes it."""
    faces = FACES[state.side]
    plays: list[Action] = []
    for card in dict.fromkeys(state.hands[seat]):
        info = faces[card]
        colors = SIDE_COLORS[state.side] if info.is_wild else (None,)
        # (A target where none is needed, a last 7, is ignored, not refused.)
        seven = state.rules.seven_swaps and needs_target(state, seat, (card,))
        targets = [t for t in range(state.players) if t != seat] if seven else [None]
        plays += [Action("play", (card,), color=c, target=t) for c in colors for t in targets]
    return plays


@fuzzed
@given(any_rules(), st.integers(0, 2**16))
def test_apply_accepts_a_single_card_play_exactly_when_it_is_listed(
    rules: Rules, seed: int
) -> None:
    """Both ways: every one-card play of every seat's hand is accepted by apply if and
    only if legal_actions lists it (jump-ins and the turn holder alike)."""
    for state, _, _ in _playouts(rules, seed, steps=60):
        for seat in range(state.players):
            listed = set(legal_actions(state, seat))
            for play in _single_plays(state, seat):
                try:
                    apply(state, seat, play)
                    accepted = True
                except EngineError:
                    accepted = False
                assert accepted == (play in listed), (play, seat, state)
