"""legal_actions and apply share their checks, and apply_legal is apply without them.

``legal_actions`` lists what ``apply`` accepts (the rules' checks in engine.game), and
``apply`` checks every action it is given, whether or not it was listed: nothing in the
state remembers a list. ``apply_legal`` skips the checks of a listed play or draw, for
bots and simulations; a property test plays random games through it and ``apply``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

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
from engine.checks import turn_play_problem
from engine.legal import _turn_actions
from engine.plays import MATCHING, PLAYS

RULE_SETS = [
    {"preset": "classic"},
    {"preset": "classic", "wildDrawFourChallenge": False},
    {"preset": "classic", "forbidActionFinish": True, "unoPenalty": 0},
    {"preset": "house"},
    {"preset": "druk"},
    {"preset": "flip"},
    {"preset": "knockout"},
    {"preset": "classic", "handLimit": 12, "drawToMatch": True},
]


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


def _playouts(
    rules_json: dict[str, object], games: int, steps: int = 200
) -> Iterator[tuple[State, int, list[Action]]]:
    """(state, seat, listed actions) met in random playouts, plays preferred as bots do."""
    rules = rules_from_json(rules_json)
    rng = random.Random(7)
    for game in range(games):
        players = max(rules.min_players, min(rules.max_players, 2 + game % 3))
        state, _ = new_match(rules, players, f"agree-{game}", dealer=0)
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


@pytest.mark.parametrize("rules_json", RULE_SETS, ids=lambda r: "-".join(map(str, r.values())))
def test_apply_legal_equals_apply_on_every_listed_action(rules_json: dict[str, object]) -> None:
    tried = 0
    for state, seat, actions in _playouts(rules_json, games=3):
        for action in actions:
            before = state.to_json()
            checked = apply(state, seat, action)
            unchecked = apply_legal(state, seat, action)
            assert unchecked[0] == checked[0]
            assert unchecked[1] == checked[1]
            assert state.to_json() == before
            tried += 1
    assert tried > 100


def _checked_listing(state: State, seat: int) -> list[Action]:
    """The turn holder's single-card plays by turn_play_problem, card by card."""
    plays: list[Action] = []
    for card in dict.fromkeys(state.hands[seat]):
        if turn_play_problem(state, seat, card) is None:
            plays.extend(PLAYS[state.side][card])
    return plays


@pytest.mark.parametrize("rules_json", [*RULE_SETS[:3], RULE_SETS[5]], ids=str)
def test_the_table_listing_matches_the_checks(rules_json: dict[str, object]) -> None:
    for state, seat, _ in _playouts(rules_json, games=4):
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
        seven = info.rank == "7" and state.rules.seven_swaps
        targets = [t for t in range(state.players) if t != seat] if seven else [None]
        plays += [Action("play", (card,), color=c, target=t) for c in colors for t in targets]
    return plays


@pytest.mark.parametrize("rules_json", RULE_SETS, ids=lambda r: "-".join(map(str, r.values())))
def test_apply_accepts_a_single_card_play_exactly_when_it_is_listed(
    rules_json: dict[str, object],
) -> None:
    """Both ways: every one-card play of every seat's hand is accepted by apply if and
    only if legal_actions lists it (jump-ins and the turn holder alike)."""
    tried = accepted_plays = 0
    for state, _, _ in _playouts(rules_json, games=2, steps=120):
        for seat in range(state.players):
            listed = set(legal_actions(state, seat))
            for play in _single_plays(state, seat):
                try:
                    apply(state, seat, play)
                    accepted = True
                except EngineError:
                    accepted = False
                assert accepted == (play in listed), (play, seat, state)
                tried += 1
                accepted_plays += accepted
    assert tried > 100
    assert 0 < accepted_plays < tried
