"""Weighing sampled positions by the opponents' plays (engine.bots.likelihood): a hand
that explains a seat's plays better counts more, plays that involved no choice count for
nothing, and the memory records plays only from the hand the seat still holds."""

from __future__ import annotations

import random

from engine import apply, event_for, new_match, view_for
from engine.bots import Memory, choose
from engine.bots.likelihood import EARLY_WILD, evidence, likelihood
from engine.bots.memory import Play
from engine.bots.sample import likely_state, unseen_of
from engine.cards import FACES
from tests.engine.test_bot_memory import CLASSIC, play_deal

FACE = FACES["light"]


def test_a_seat_that_laid_one_of_many_cards_that_played_is_less_likely_to_have_held_them() -> None:
    laid = {1: [Play(("R5",), "R", "R3", 0, False)]}
    few = likelihood([[], ["G1", "B2"]], evidence(laid, FACE))
    many = likelihood([[], ["R1", "R2"]], evidence(laid, FACE))
    assert few == 1.0
    assert many == 1 / 3  # R5 was one of R5, R1, R2


def test_a_card_of_the_top_rank_counts_among_the_choices_and_a_wild_does_not() -> None:
    laid = {1: [Play(("R5",), "R", "R3", 0, False)]}
    assert likelihood([[], ["G3", "W"]], evidence(laid, FACE)) == 1 / 2


def test_a_wild_laid_while_a_coloured_card_played_is_unlikely() -> None:
    laid = {1: [Play(("W",), "R", "R3", 0, False)]}
    assert likelihood([[], ["G1", "B2"]], evidence(laid, FACE)) == 1.0
    assert likelihood([[], ["R1", "B2"]], evidence(laid, FACE)) == EARLY_WILD


def test_a_play_of_the_card_just_drawn_or_against_a_penalty_tells_nothing() -> None:
    drawn = {1: [Play(("R5",), "R", "R3", 0, True)]}
    stacked = {1: [Play(("R+2",), "G", "G+2", 2, False)]}
    for laid in (drawn, stacked):
        assert likelihood([[], ["R1", "R2", "R7"]], evidence(laid, FACE)) == 1.0


def test_earlier_plays_are_judged_on_the_hand_with_the_later_cards_put_back() -> None:
    # Seat 1 laid G5 on G2, then R5 on G5: it chose G5 from G7, R5, G5 (two of them play
    # on G2) and R5 from G7, R5 (both play on G5).
    laid = {1: [Play(("G5",), "G", "G2", 0, False), Play(("R5",), "G", "G5", 0, False)]}
    assert likelihood([[], ["G7"]], evidence(laid, FACE)) == 1 / 4


def test_the_memory_keeps_a_seats_plays_only_since_it_last_drew() -> None:
    state, events = new_match(CLASSIC, 4, "plays")
    memory = Memory()
    memory.update([event_for(e, 0) for e in events], view_for(state, 0))
    rng = random.Random(3)
    since: dict[int, list[tuple[str, ...]]] = {}
    checked = 0
    while state.phase in ("playing", "chooseColor"):
        seat = state.turn
        action = choose(view_for(state, seat), "normal", rng)
        assert action is not None
        state, events = apply(state, seat, action)
        for event in events:  # the whole truth, drawn cards and all
            if event["type"] == "draw":
                since[event["seat"]] = []
            elif event["type"] == "play":
                since.setdefault(event["seat"], []).append(tuple(event["cards"]))
        memory.update([event_for(e, 0) for e in events], view_for(state, 0))
        for seat, made in since.items():
            assert [p.cards for p in memory.plays.get(seat, [])] == made
            checked += 1
    assert checked > 50


def test_resampled_positions_are_positions_the_view_allows() -> None:
    rng = random.Random(2)
    checked = 0
    for state, memory, _ in play_deal("resample"):
        if state.turn != 0 or state.phase != "playing":
            continue
        view = view_for(state, 0)
        unseen = unseen_of(view, memory)
        assert unseen is not None
        sample = likely_state(view, unseen, rng, 4)
        assert sample is not None
        seen = view_for(sample, 0)
        for key in ("hand", "legal", "players", "top", "color", "turn", "drawPile"):
            assert seen[key] == view[key], key
        checked += 1
    assert checked > 3
