"""Bots: every level plays every preset to the end from its own view, and the policies do
what docs/engine-api.md says."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    PRESETS,
    EngineError,
    InvalidAction,
    apply,
    event_for,
    new_match,
    rules_from_json,
    view_for,
)
from engine.bots import LEVELS, Memory, at_start, choose, hard, ismcts
from engine.bots.sample import sample_state, unseen_of
from engine.deal import deck_for
from tests.engine.uno_helpers import position

# Party games go on until the room closes them (Bottle) or run long (Rommy): a few deals.
SHORT = {"bottle": {"roundLimit": 2}, "rommy": {"roundLimit": 2}}
STEP_LIMIT = 20_000


def play_match(
    preset: str,
    levels: list[str],
    seed: str,
    options: dict[str, Any] | None = None,
    in_turn_only: bool = False,
    one_deal: bool = False,
) -> tuple[Any, int]:
    """A whole match of bots, each seeing only its view. Every step the seats are asked in
    a random order and the first action offered is applied, so out-of-turn moves race the
    turn holder's as they do in a room. Fails on any refused action or a table nobody moves.
    """
    rules = rules_from_json({"preset": preset, **SHORT.get(preset, {}), **(options or {})})
    state, _ = new_match(rules, len(levels), seed)
    rng = random.Random(seed)
    moves = 0
    for _ in range(STEP_LIMIT):
        if state.phase == "matchOver" or (one_deal and state.phase == "dealOver"):
            return state, moves
        if state.phase == "dealOver":
            out = getattr(state, "out", (False,) * len(levels))
            for seat in range(len(levels)):
                view = view_for(state, seat)
                if not out[seat]:
                    assert choose(view, levels[seat], rng) is None
            seat = out.index(False)
            state, _ = apply(state, seat, {"type": "nextDeal"})
            continue
        order = list(range(len(levels)))
        rng.shuffle(order)
        for seat in order:
            action = choose(view_for(state, seat), levels[seat], rng, in_turn_only=in_turn_only)
            if action is None:
                continue
            try:
                state, _ = apply(state, seat, action)
            except EngineError as err:  # pragma: no cover - the failure report
                pytest.fail(f"{preset}: seat {seat} ({levels[seat]}) sent {action}: {err}")
            moves += 1
            break
        else:
            pytest.fail(f"{preset}: no bot moves at {state!r}")
    pytest.fail(f"{preset}: no end after {STEP_LIMIT} steps")


def players_for(preset: str) -> int:
    return 2 if preset == "duo" else 4


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("level", ["easy", "normal"])
def test_bots_of_each_level_play_every_preset_to_the_end(preset: str, level: str) -> None:
    levels = ([level, "easy", "normal", level])[: players_for(preset)]
    state, moves = play_match(preset, levels, f"{preset}-{level}")
    assert state.phase == "matchOver"
    assert moves > 0


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("level", ["hard", "ismcts"])
def test_hard_bots_play_a_deal_of_every_preset(preset: str, level: str, monkeypatch: Any) -> None:
    # A smaller simulation budget: the same code paths in a fraction of the time.
    monkeypatch.setattr(hard, "BUDGET", 600)
    monkeypatch.setattr(ismcts, "BUDGET", 600)
    levels = ([level, "normal", level, "easy"])[: players_for(preset)]
    state, _ = play_match(preset, levels, f"{preset}-hard", one_deal=True)
    assert state.phase in ("dealOver", "matchOver")


@pytest.mark.parametrize("level", ["hard", "ismcts"])
def test_a_hard_bot_plays_a_classic_deal_at_its_full_budget(level: str) -> None:
    state, _ = play_match("classic", [level, "normal", "easy", "normal"], "full", one_deal=True)
    assert state.phase == "dealOver"


def test_the_autopilot_plays_a_match_without_acting_out_of_turn() -> None:
    state, _ = play_match("house", ["normal"] * 4, "autopilot", in_turn_only=True)
    assert state.phase == "matchOver"


bot_games = st.tuples(
    st.sampled_from(sorted(PRESETS)),
    st.lists(st.sampled_from(["easy", "normal"]), min_size=2, max_size=6),
    st.text(min_size=1, max_size=6),
    st.booleans(),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bot_games)
def test_any_table_of_bots_finishes_its_match_with_only_accepted_actions(game: tuple) -> None:
    preset, levels, seed, in_turn_only = game
    if preset == "duo":
        levels = levels[:2]
    play_match(preset, levels, seed, {"roundLimit": 2}, in_turn_only=in_turn_only)


# --- the policies ------------------------------------------------------------------------


def bot(state: Any, seat: int, level: str = "normal", **kw: Any) -> dict[str, Any] | None:
    return choose(view_for(state, seat), level, random.Random(0), **kw)


def test_unknown_level_is_refused() -> None:
    state = position(["R5 G7", "B1 B2"], "R1")
    with pytest.raises(InvalidAction):
        bot(state, 0, "expert")
    assert set(LEVELS) == {"easy", "normal", "hard", "ismcts"}


def test_easy_plays_the_first_listed_card() -> None:
    state = position(["G2 R5 R9", "B1 B2"], "R1")
    assert bot(state, 0, "easy") == {"type": "play", "cards": ["R5"], "at": 0}


def test_normal_keeps_its_wild_while_another_card_plays() -> None:
    state = position(["W R5 G2", "B1 B2 B3"], "R1")
    assert bot(state, 0)["cards"] == ["R5"]


def test_normal_plays_the_card_that_keeps_most_of_its_colour() -> None:
    # R1 on top: G1 leaves two greens to follow, R7 leaves no red.
    state = position(["R7 G1 G4 G8", "B1 B2 B3"], "R1")
    assert bot(state, 0)["cards"] == ["G1"]


def test_normal_plays_a_wild_when_stuck_and_names_the_colour_it_holds_most() -> None:
    state = position(["W B3 B5 G2", "Y1 Y2 Y3"], "R1")
    action = bot(state, 0)
    assert action is not None
    assert action["cards"] == ["W"] and action["color"] == "B"


def test_normal_never_bluffs_a_wild_draw_four() -> None:
    # Holding a red: the Wild Draw Four would be a bluff, so it plays the Wild.
    state = position(["W+4 W R2 B9", "Y1 Y2 Y3"], "R1")
    assert bot(state, 0)["cards"] == ["R2"]
    stuck = position(["W+4 W B9", "Y1 Y2 Y3"], "R1")
    assert bot(stuck, 0)["cards"] == ["W+4"]
    # Having drawn a Wild Draw Four while holding a red, it keeps the card.
    drew, _ = apply(position(["R5 B9", "Y1 Y2 Y3"], "R1", draw="W+4"), 0, {"type": "draw"})
    assert drew.drawn == "W+4"
    assert bot(drew, 0) == {"type": "pass", "at": drew.moves}


def test_bots_call_uno_with_their_next_to_last_card() -> None:
    state = position(["R5 G2", "B1 B2 B3"], "R1")
    for level in LEVELS:
        action = bot(state, 0, level)
        assert action is not None and action["uno"] is True


def facing_a_wild_draw_four(held: str) -> tuple[Any, Memory]:
    """Seat 0, holding ``held`` and a Wild Draw Four, lays it on a red card: seat 1's
    position then, and seat 1's memory of the play."""
    state = position([f"W+4 {held}", "G1 G2 B3 Y4", "B5 B6"], "R7", draw="G9 B4 Y5 Y6 Y7 R3")
    memory = at_start(view_for(state, 1))
    uno = len(held.split()) == 1
    state, events = apply(state, 0, {"type": "play", "cards": ["W+4"], "color": "B", "uno": uno})
    memory.update([event_for(e, 1) for e in events], view_for(state, 1))
    return state, memory


@pytest.mark.parametrize("level", ["hard", "ismcts"])
def test_hard_challenges_a_wild_draw_four_laid_from_a_big_hand(level: str) -> None:
    # Fifteen cards kept: almost surely one was red, so the Wild Draw Four was a bluff.
    state, memory = facing_a_wild_draw_four("R1 G3 G4 G5 B7 B8 B9 Y1 Y2 Y3 G6 G7 G8 B1 B2")
    assert bot(state, 1, level, memory=memory)["type"] == "challenge"  # type: ignore[index]
    after, _ = apply(state, 1, {"type": "challenge"})
    assert len(after.hands[0]) == 15 + 4  # the bluff is caught: its player draws
    # Without the play in memory, or kept to its own turn, it takes the penalty.
    assert bot(state, 1, level)["type"] == "draw"  # type: ignore[index]
    assert bot(state, 1, level, memory=memory, in_turn_only=True)["type"] == "draw"  # type: ignore[index]


@pytest.mark.parametrize("level", ["hard", "ismcts"])
def test_hard_takes_a_wild_draw_four_laid_as_a_next_to_last_card(level: str) -> None:
    # One card kept: most likely not red, and players seldom bluff.
    state, memory = facing_a_wild_draw_four("G3")
    assert bot(state, 1, level, memory=memory)["type"] == "draw"  # type: ignore[index]


def test_normal_draws_only_when_it_cannot_play() -> None:
    state = position(["G5 G2", "B1 B2 B3"], "R1", draw="Y7 Y8")
    assert bot(state, 0) == {"type": "draw", "at": 0}


def test_normal_catches_a_missed_uno_call_unless_kept_to_its_turn() -> None:
    state = position(["R5 G2 B9", "B1 B2 B3", "R4 Y5"], "R1", turn=2)
    state, _ = apply(state, 2, {"type": "play", "cards": ["R4"]})
    assert state.exposed == 2
    catch = bot(state, 1)
    assert catch == {"type": "catchUno", "target": 2, "at": state.moves}
    apply(state, 1, catch)
    assert bot(state, 1, in_turn_only=True) is None
    assert bot(state, 1, "easy") is None
    assert bot(state, 2) == {"type": "callUno", "at": state.moves}


def test_normal_jumps_in_with_a_copy_of_the_top_card_unless_kept_to_its_turn() -> None:
    rules = {"jumpIn": True}
    state = position(["R5 G2 B9", "B1 R1 B3", "Y4 Y5"], "R1", rules=rules)
    jump = bot(state, 1)
    assert jump == {"type": "play", "cards": ["R1"], "at": 0}
    apply(state, 1, jump)
    assert bot(state, 1, in_turn_only=True) is None


def test_normal_swaps_hands_with_the_opponent_holding_fewest_cards() -> None:
    rules = {"sevenZero": True}
    state = position(["R7 G2 B9 B4 Y6", "B1 R1 B3", "Y4", "G1 G2 G3 G4"], "R1", rules=rules)
    action = bot(state, 0)
    assert action == {"type": "play", "cards": ["R7"], "target": 2, "at": 0}
    apply(state, 0, action)


def test_normal_names_a_colour_and_drafts() -> None:
    state, _ = new_match(rules_from_json({"preset": "duo"}), 2, "draft")
    assert state.phase == "draft"
    action = bot(state, state.turn)
    assert action is not None and action["type"] in ("keep", "discard")
    apply(state, state.turn, action)


def test_no_bot_acts_between_deals() -> None:
    state, _ = play_match("classic", ["normal", "normal"], "between", one_deal=True)
    assert state.phase == "dealOver"
    for level in LEVELS:
        assert bot(state, 0, level) is None and bot(state, 1, level) is None


# --- hidden cards -------------------------------------------------------------------------


def positions_of(preset: str, seed: str, count: int) -> list[Any]:
    """Positions in play of a deal of normal bots (the turn holder's to decide)."""
    rules = rules_from_json({"preset": preset})
    state, _ = new_match(rules, players_for(preset), seed)
    rng = random.Random(seed)
    found = []
    while state.phase not in ("dealOver", "matchOver") and len(found) < count:
        if state.phase == "playing":
            found.append(state)
        for seat in [state.turn, *range(state.players)]:
            action = choose(view_for(state, seat), "normal", rng)
            if action is not None:
                state, _ = apply(state, seat, action)
                break
    return found


SHEDDING = ["classic", "house", "druk", "helsinki", "warszawa", "duo", "flip", "knockout"]


@pytest.mark.parametrize("preset", SHEDDING)
def test_sampled_positions_show_the_seat_exactly_its_own_view(preset: str) -> None:
    rng = random.Random(preset)
    for state in positions_of(preset, f"sample-{preset}", 30):
        seat = state.turn
        view = view_for(state, seat)
        unseen = unseen_of(view)
        assert unseen is not None
        sample = sample_state(view, unseen, rng)
        assert sample is not None
        seen = view_for(sample, seat)
        for key in ("hand", "legal", "players", "top", "color", "turn", "drawPile", "moves"):
            assert seen[key] == view[key], key
        assert all_cards_of(sample) == Counter(deck_for(state.rules))


def all_cards_of(state: Any) -> Counter[str]:
    cards: Counter[str] = Counter(state.draw_pile)
    cards.update(state.discard)
    for hand in state.hands:
        cards.update(hand)
    return cards


@pytest.mark.parametrize("level", LEVELS)
def test_bots_decide_the_same_whatever_the_cards_they_cannot_see(level: str) -> None:
    # Seat 0's view is the same in both positions; only the other hands and the pile differ.
    one = position(["R5 R7 W G2", "B1 B2 B3", "Y4 Y5 G9"], "R1", draw="G7 B9 Y2")
    two = position(["R5 R7 W G2", "Y2 G7 B9", "B1 B2 B3"], "R1", draw="Y4 Y5 G9")
    assert view_for(one, 0) == view_for(two, 0)
    for seed in range(5):
        first = choose(view_for(one, 0), level, random.Random(seed))
        second = choose(view_for(two, 0), level, random.Random(seed))
        assert first == second
        apply(one, 0, first)


def hidden_reshuffled(state: Any, seat: int, rng: random.Random) -> Any:
    """``state`` with every card ``seat`` cannot see (the other hands, the draw pile) dealt
    again at random into the same places, each place keeping its count."""
    hidden = [c for s, hand in enumerate(state.hands) if s != seat for c in hand]
    hidden += state.draw_pile
    rng.shuffle(hidden)
    other = state.copy()
    hands = []
    for s, hand in enumerate(state.hands):
        if s == seat:
            hands.append(hand)
        else:
            hands.append(tuple(hidden[: len(hand)]))
            del hidden[: len(hand)]
    other.hands = tuple(hands)
    other.draw_pile = tuple(hidden)
    return other


@pytest.mark.parametrize("level", LEVELS)
def test_bots_decide_alike_in_every_deal_their_view_and_history_allow(
    level: str, monkeypatch: Any
) -> None:
    """Through a deal, at each of seat 0's decisions, the bot (with its memory of the deal)
    chooses the same in the real position as in one whose hidden cards are dealt again."""
    monkeypatch.setattr(hard, "BUDGET", 400)
    monkeypatch.setattr(ismcts, "BUDGET", 400)
    rules = rules_from_json({"preset": "classic", "matchMode": "oneAndDone"})
    state, events = new_match(rules, 4, f"hidden-{level}")
    memory = Memory()
    memory.update([event_for(e, 0) for e in events], view_for(state, 0))
    rng = random.Random(level)
    decided = 0
    while state.phase == "playing" or state.phase == "chooseColor":
        seat = state.turn
        if seat == 0:
            other = hidden_reshuffled(state, 0, rng)
            assert other.hands != state.hands or other.draw_pile != state.draw_pile
            view = view_for(state, 0)
            assert view_for(other, 0) == view
            seed = rng.getrandbits(32)
            action = choose(view, level, random.Random(seed), memory=memory)
            again = choose(view_for(other, 0), level, random.Random(seed), memory=memory)
            assert action == again
            decided += 1
        else:
            action = choose(view_for(state, seat), "normal", rng)
        assert action is not None
        state, events = apply(state, seat, action)
        memory.update([event_for(e, 0) for e in events], view_for(state, 0))
    assert decided >= 5


# Every house-rule option (docs/rules.md "House rules") with the values a table may pick.
house_options = st.fixed_dictionaries(
    {},
    optional={
        "stacking": st.booleans(),
        "stackDrawFour": st.booleans(),
        "crossStack": st.sampled_from(["none", "drawTwoOnDrawFour", "drawFourOnDrawTwo", "both"]),
        "reverseDeflect": st.booleans(),
        "skipDeflect": st.booleans(),
        "forcedPlay": st.booleans(),
        "forcedPlayDrawn": st.booleans(),
        "blindDraw": st.booleans(),
        "strictUno": st.booleans(),
        "misplayPenalty": st.booleans(),
        "noWildFinish": st.booleans(),
        "multiPlay": st.booleans(),
        "bomb": st.booleans(),
        "handReveal": st.sampled_from([0, 5, 10]),
        "handLimit": st.sampled_from([0, 8, 10]),
        "handLimitRule": st.sampled_from(["out", "stopDrawing"]),
        "doubleScore": st.booleans(),
        "placings": st.booleans(),
        "blitzSeconds": st.sampled_from([0, 60]),
        "sevenZero": st.booleans(),
        "jumpIn": st.booleans(),
    },
)


def _consistent(options: dict[str, Any]) -> dict[str, Any]:
    """The options less those a clash names (contradictory settings are refused)."""
    import re

    from engine import InvalidRules

    options = dict(options)
    while True:
        try:
            rules_from_json(options)
            return options
        except InvalidRules as err:
            named = [n for n in sorted(options) if re.search(rf"\b{n}\b", err.message)]
            del options[named[0]]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    house_options,
    st.lists(st.sampled_from(["easy", "normal"]), min_size=2, max_size=5),
    st.text(min_size=1, max_size=6),
)
def test_bots_play_a_deal_to_its_end_under_random_house_rules(
    options: dict[str, Any], levels: list[str], seed: str
) -> None:
    """Whatever house rules a table picks, every bot sends only actions the engine accepts
    and the deal ends (play_match fails on a refused action or a table nobody moves)."""
    state, _ = play_match("classic", levels, seed, options=_consistent(options), one_deal=True)
    assert state.phase in ("dealOver", "matchOver")


@pytest.mark.parametrize("preset", ["party", "crazy"])
def test_hard_and_autopilot_bots_play_the_house_rule_presets(preset: str, monkeypatch: Any) -> None:
    monkeypatch.setattr(hard, "BUDGET", 600)
    state, _ = play_match(preset, ["hard", "normal", "normal", "easy"], preset, one_deal=True)
    assert state.phase in ("dealOver", "matchOver")
    state, _ = play_match(preset, ["normal"] * 3, preset, in_turn_only=True, one_deal=True)
    assert state.phase in ("dealOver", "matchOver")


@pytest.mark.parametrize(("teams", "players"), [(2, 4), (3, 6), (2, 6)])
def test_bots_play_a_team_match_to_its_end(teams: int, players: int) -> None:
    levels = (["normal", "easy"] * players)[:players]
    state, _ = play_match("classic", levels, f"teams{teams}", options={"teams": teams})
    assert state.phase == "matchOver"


@pytest.mark.parametrize("players", [3, 5])
def test_bots_play_a_placings_match_to_its_end(players: int, monkeypatch: Any) -> None:
    """placings: the bots play on after the first player goes out (a seat out of the deal
    is offered nothing), and every deal places every seat."""
    monkeypatch.setattr(hard, "BUDGET", 300)
    levels = (["hard", "normal", "easy"] * players)[:players]
    rules = {"placings": True, "targetScore": 200, "jumpIn": True, "sevenZero": True}
    state, _ = play_match("classic", levels, f"placings{players}", options=rules, one_deal=True)
    assert state.phase in ("dealOver", "matchOver")
    assert sorted(state.placed) == list(range(players)) and state.winner == state.placed[0]
    state, _ = play_match("classic", ["normal"] * players, "placings", options=rules)
    assert state.phase == "matchOver"


def test_no_bot_acts_for_a_seat_out_of_the_deal() -> None:
    from uno_helpers import position

    state = position(["R5", "G1 G2", "Y9 R8", "B3 B4"], "R7", rules={"placings": True})
    state, _ = apply(state, 0, {"type": "play", "cards": ["R5"]})
    assert state.out[0]
    for level in ("easy", "normal", "hard"):
        assert choose(view_for(state, 0), level, random.Random(1)) is None
