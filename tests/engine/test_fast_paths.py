"""The engine's shortcuts change nothing a caller can see.

``legal_actions`` keeps its list on the state (``memo``) so that ``apply`` can accept a
listed action without checking it again; the commonest play and draw take one-step paths;
the plain listing reads per-position tables. Each is checked here against the general
path it stands in for, on random games under several rule sets.
"""

from __future__ import annotations

import random

import pytest

from engine import Action, IllegalAction, State, apply, legal_actions, new_match, rules_from_json
from engine.cards import FACES
from engine.effects import finish_play, play_cards
from engine.game import (
    RESTRICTED,
    _begin_move,
    _draw_one,
    _play_one_card,
    turn_play_problem,
    wd4_is_bluff,
)
from engine.legal import _turn_actions
from engine.plays import MATCHING, PLAYS
from engine.turns import give_cards, next_seat, record_draw, take_cards

RULE_SETS = [
    {"preset": "classic"},
    {"preset": "oneAndDone"},
    {"preset": "classic", "wildDrawFourChallenge": False},
    {"preset": "classic", "forbidActionFinish": True, "unoPenalty": 0},
    {"preset": "house"},
    {"preset": "druk"},
    {"preset": "flip"},
    {"preset": "knockout"},
]


def positions(rules_json: dict[str, object], games: int = 6, steps: int = 250) -> list[State]:
    """States met in random playouts (plays preferred, as bots do), memo-free."""
    rules = rules_from_json(rules_json)
    rng = random.Random(7)
    found: list[State] = []
    for game in range(games):
        players = max(rules.min_players, min(rules.max_players, 2 + game % 3))
        state, _ = new_match(rules, players, f"fast-{game}", dealer=0)
        for _ in range(steps):
            if state.phase == "matchOver":
                break
            seat = state.turn
            actions = legal_actions(state, seat)
            if not actions:
                break
            found.append(State.from_json(state.to_json()))
            plays = [a for a in actions if a.type == "play"]
            state, _ = apply(state, seat, rng.choice(plays or actions))
    return found


@pytest.mark.parametrize("rules_json", RULE_SETS, ids=lambda r: "-".join(map(str, r.values())))
def test_apply_is_the_same_with_and_without_the_memo(rules_json: dict[str, object]) -> None:
    for state in positions(rules_json):
        seat = state.turn
        for action in legal_actions(State.from_json(state.to_json()), seat):
            checked = apply(State.from_json(state.to_json()), seat, action)
            fresh = State.from_json(state.to_json())
            legal_actions(fresh, seat)
            trusted = apply(fresh, seat, action)
            assert trusted[0].to_json() == checked[0].to_json()
            assert trusted[1] == checked[1]


def test_the_memo_is_no_part_of_the_state() -> None:
    state, _ = new_match(rules_from_json({"preset": "classic"}), 4, "memo", dealer=0)
    before = state.to_json()
    legal_actions(state, state.turn)
    assert state.memo is not None
    assert state.to_json() == before
    assert "memo" not in before and "memo_seat" not in before
    assert state == State.from_json(before)
    assert state.copy().memo is None


def test_changing_the_returned_list_does_not_make_an_action_legal() -> None:
    state, _ = new_match(rules_from_json({"preset": "classic"}), 4, "memo", dealer=0)
    seat = state.turn
    actions = legal_actions(state, seat)
    not_held = next(c for c in ("R1", "G2", "B3", "Y4", "R5") if c not in state.hands[seat])
    smuggled = Action("play", (not_held,))
    actions.append(smuggled)
    with pytest.raises(IllegalAction):
        apply(state, seat, smuggled)
    assert smuggled not in legal_actions(state, seat)


def test_a_list_is_kept_for_one_seat_at_a_time() -> None:
    state, _ = new_match(rules_from_json({"preset": "house"}), 4, "memo", dealer=0)
    other = (state.turn + 1) % 4
    mine = legal_actions(state, state.turn)
    theirs = legal_actions(state, other)
    assert legal_actions(state, state.turn) == mine
    assert legal_actions(state, other) == theirs
    for action in mine:
        if action not in theirs and action.type == "play":
            with pytest.raises(IllegalAction):
                apply(state, other, action)


def general_play(state: State, seat: int, act: Action) -> tuple[State, list[dict[str, object]]]:
    """A single-card play through play_cards + finish_play (the general path)."""
    new = _begin_move(state)
    events: list[dict[str, object]] = []
    card = act.cards[0]
    rank = FACES[state.side][card].rank
    bluff = rank in RESTRICTED and wd4_is_bluff(state, state.hands[seat], card)
    play_cards(new, seat, act.cards, act.color, act.uno, events)
    finish_play(new, seat, act.cards, act.target, bluff, events)
    return new, events


def general_draw(state: State, seat: int) -> tuple[State, list[dict[str, object]]]:
    """A one-card draw through take_cards + give_cards + record_draw (the general path)."""
    new = _begin_move(state)
    new.declared = None
    new.dump_color = None
    events: list[dict[str, object]] = []
    cards = take_cards(new, 1, events)
    give_cards(new, seat, cards)
    record_draw(new, seat, cards, "draw", events)
    if new.rules.drawn_card_playable and turn_play_problem(new, seat, cards[-1]) is None:
        new.drawn = cards[-1]
    else:
        new.turn = next_seat(new, seat, 1)
    return new, events


@pytest.mark.parametrize("rules_json", RULE_SETS, ids=lambda r: "-".join(map(str, r.values())))
def test_one_step_paths_match_the_general_ones(rules_json: dict[str, object]) -> None:
    plays = draws = 0
    for state in positions(rules_json):
        seat = state.turn
        for action in legal_actions(state, seat):
            if action.type == "play" and len(action.cards) == 1:
                fast = _play_one_card(state, seat, action)
                slow = general_play(state, seat, action)
                plays += 1
            elif (
                action.type == "draw"
                and not state.pending
                and not state.follow
                and state.draw_pile
                and not state.rules.draw_to_match
                and state.drinks is None
            ):
                fast = _draw_one(state, seat)
                slow = general_draw(state, seat)
                draws += 1
            else:
                continue
            assert fast[0].to_json() == slow[0].to_json()
            assert fast[1] == slow[1]
    assert plays
    assert draws or rules_json["preset"] not in ("classic", "oneAndDone", "knockout")


def checked_listing(state: State, seat: int) -> list[Action]:
    """The turn holder's single-card plays by turn_play_problem, card by card."""
    plays: list[Action] = []
    for card in dict.fromkeys(state.hands[seat]):
        if turn_play_problem(state, seat, card) is None:
            plays.extend(PLAYS[state.side][card])
    return plays


@pytest.mark.parametrize("rules_json", RULE_SETS[:4] + [RULE_SETS[6]], ids=str)
def test_the_table_listing_matches_the_checks(rules_json: dict[str, object]) -> None:
    for state in positions(rules_json):
        seat = state.turn
        if state.phase != "playing" or state.drawn is not None or state.follow:
            continue
        listed = [a for a in _turn_actions(state, seat) if a.type == "play"]
        assert listed == checked_listing(state, seat)


def test_a_card_code_first_seen_in_a_hand_is_learnt() -> None:
    state, _ = new_match(rules_from_json({"preset": "flip"}), 2, "pairing", dealer=0)
    while state.phase != "playing":
        state, _ = apply(state, state.turn, legal_actions(state, state.turn)[0])
    seat = state.turn
    odd = "R1|P1"  # a pairing of faces that the fixed Flip deck may not hold
    state = state.copy()
    state.hands = tuple(h + (odd,) if s == seat else h for s, h in enumerate(state.hands))
    MATCHING.pop((state.side, state.color, state.discard[-1]), None)
    listed = [a for a in legal_actions(state, seat) if a.type == "play"]
    assert listed == checked_listing(state, seat)


@pytest.mark.parametrize("card", ["R+2", "W+4", "RS", "RR"])
@pytest.mark.parametrize("pile", [0, 1, 2, 5])
@pytest.mark.parametrize(
    "rules_json",
    [
        {"preset": "classic"},
        {"preset": "house"},
        {"preset": "classic", "wildDrawFourChallenge": False},
    ],
    ids=str,
)
def test_one_step_action_cards_with_short_piles(
    rules_json: dict[str, object], pile: int, card: str
) -> None:
    """An action card's one-step effect when the draw pile runs short (a reshuffle, or
    fewer cards than the penalty) is the general path's."""
    for players in (2, 3, 4):
        state, _ = new_match(rules_from_json(rules_json), players, "short", dealer=0)
        state = state.copy()
        seat = state.turn
        state.phase = "playing"
        state.color = "R"
        state.hands = tuple(
            (card, "G5", "B7") if s == seat else h for s, h in enumerate(state.hands)
        )
        state.discard = state.discard + state.draw_pile[pile:]
        state.draw_pile = state.draw_pile[:pile]
        state.pending = state.follow = 0
        state.pending_kind = state.wd4 = state.drawn = None
        action = Action("play", (card,), color="B" if card == "W+4" else None)
        fast = _play_one_card(state, seat, action)
        slow = general_play(state, seat, action)
        assert fast[0].to_json() == slow[0].to_json()
        assert fast[1] == slow[1]
