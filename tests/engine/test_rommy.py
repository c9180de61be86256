"""UNO Rommy (docs/variants-party.md): melds, lay-offs, jokers, the
discard pile, action cards on a matching discard, going out, scoring and drinks."""

from __future__ import annotations

import json
import random
from collections import Counter
from itertools import permutations
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    Action,
    EngineError,
    IllegalAction,
    InvalidAction,
    apply,
    legal_actions,
    new_match,
    rules_from_json,
    state_from_json,
    view_for,
)
from engine.cards import classic108
from engine.game_registry import GAMES
from engine.variants import rommy
from engine.variants.rommy import RommyState, card_points
from engine.variants.rommy.melds import Meld, lay_off, new_meld

CONTRACT_FIELDS = {
    "phase",
    "turn",
    "direction",
    "top",
    "color",
    "hands",
    "drawPile",
    "pendingDraw",
    "deal",
    "dealScores",
    "totals",
    "winner",
    "matchOver",
    "drinks",
}


def position(
    hands: list[str],
    discard: str = "Y9",
    stock: str = "B1 B2 B3 B4 B5 B6",
    melds: list[dict[str, Any]] | None = None,
    turn: int = 0,
    step: str = "play",
    **rules: Any,
) -> RommyState:
    """A set-up position: hands as space-separated cards, piles top first."""
    return rommy.from_setup(
        rules_from_json({"preset": "rommy", **rules}),
        len(hands),
        "test",
        len(hands) - 1,
        {
            "hands": [h.split() for h in hands],
            "discard": discard.split(),
            "stock": stock.split(),
            "melds": melds or [],
            "turn": turn,
            "step": step,
        },
    )


def act(state: RommyState, seat: int, kind: str, **fields: Any) -> RommyState:
    return apply(state, seat, {"type": kind, **fields})[0]


def refused(state: RommyState, seat: int, kind: str, **fields: Any) -> str:
    """The error code of a refused action, checking that it changed nothing."""
    before = json.dumps(state.to_json())
    with pytest.raises(EngineError) as err:
        apply(state, seat, {"type": kind, **fields})
    assert json.dumps(state.to_json()) == before
    return err.value.code


# --- Dealing and the draw step -------------------------------------------------------------


def test_rommy_preset_is_registered_as_its_own_game() -> None:
    assert GAMES["rommy"].state_class is RommyState
    assert rules_from_json({"preset": "rommy"}).game == "rommy"


def test_rommy_new_match_deals_seven_each_and_starts_the_discard_pile() -> None:
    state, events = new_match(rules_from_json({"preset": "rommy"}), 3, "seed", 0)
    assert isinstance(state, RommyState)
    assert [len(h) for h in state.hands] == [7, 7, 7]
    assert len(state.discard) == 1
    assert len(state.stock) == 108 - 21 - 1
    assert (state.phase, state.step, state.turn, state.deal) == ("playing", "draw", 1, 1)
    assert Counter(rommy.all_cards(state)) == Counter(classic108())
    assert [e["type"] for e in events] == ["deal", "firstCard"]


def test_rommy_draw_takes_the_top_of_the_stock_and_moves_to_the_play_step() -> None:
    state = position(["R1 G2", "B7 B8"], stock="Y3 Y4", step="draw")
    new, events = apply(state, 0, {"type": "draw"})
    assert new.hands[0] == ("R1", "G2", "Y3")
    assert new.step == "play"
    assert events[0]["type"] == "draw" and events[0]["private"] == {"cards": ["Y3"]}
    assert "cards" not in {k for k in events[0] if k != "private"}


def test_rommy_take_discard_takes_the_top_discard() -> None:
    state = position(["R1 G2", "B7 B8"], discard="G5 Y3", step="draw")
    new = act(state, 0, "takeDiscard")
    assert new.hands[0] == ("R1", "G2", "G5")
    assert new.discard == ("Y3",)


def test_rommy_actions_of_the_play_step_are_refused_before_drawing() -> None:
    state = position(["R1 R2 R3 G2", "B7 B8"], step="draw")
    assert refused(state, 0, "meld", cards=["R1", "R2", "R3"]) == "draw_first"
    assert refused(state, 0, "discardCard", cards=["G2"]) == "draw_first"
    assert refused(state, 1, "draw") == "not_your_turn"


def test_rommy_a_second_draw_in_one_turn_is_refused() -> None:
    state = position(["R1 G2", "B7 B8"], step="play")
    assert refused(state, 0, "draw") == "already_drew"
    assert refused(state, 0, "takeDiscard") == "already_drew"


def test_rommy_take_pile_requires_a_meld_of_three() -> None:
    state = position(["R1 G2 B9", "B7 B8"], discard="Y5 Y6 G7", step="draw")
    assert refused(state, 0, "takePile") == "pile_needs_meld"
    assert Action("takePile") not in legal_actions(state, 0)

    state = position(["R5 G5 B9", "B7 B8"], discard="Y5 Y6 G7", step="draw")
    assert Action("takePile") in legal_actions(state, 0)
    took = act(state, 0, "takePile")
    assert Counter(took.hands[0]) == Counter("R5 G5 B9 Y5 Y6 G7".split())
    assert took.discard == () and took.must_meld
    assert refused(took, 0, "discardCard", cards=["B9"]) == "must_meld"
    assert {a.type for a in legal_actions(took, 0)} == {"meld"}
    melded = act(took, 0, "meld", cards=["R5", "G5", "Y5"])
    assert not melded.must_meld
    done = act(melded, 0, "discardCard", cards=["B9"])
    assert done.turn == 1 and done.discard == ("B9",)


def test_rommy_after_taking_the_pile_the_first_move_must_be_a_new_meld() -> None:
    melds = [{"cards": ["B1", "B2", "B3"], "seat": 1}]
    state = position(["R5 G5 B4", "B7 B8"], discard="Y5 G7", step="draw", melds=melds)
    took = act(state, 0, "takePile")
    assert refused(took, 0, "layOff", cards=["B4"], target=0) == "must_meld"


# --- Melds --------------------------------------------------------------------------------


def test_rommy_meld_of_one_number_in_any_colours_is_a_set() -> None:
    state = position(["R7 G7 R7 B1", "B8"])
    new = act(state, 0, "meld", cards=["R7", "G7", "R7"])
    assert new.melds[0].kind == "set"
    assert new.melds[0].seats == (0, 0, 0)
    assert new.hands[0] == ("B1",)


def test_rommy_meld_of_consecutive_numbers_in_one_colour_is_a_run_listed_low_to_high() -> None:
    state = position(["G5 G3 G4 B1", "B8"])
    new = act(state, 0, "meld", cards=["G5", "G3", "G4"])
    assert new.melds[0].kind == "run"
    assert new.melds[0].cards == ("G3", "G4", "G5")


@pytest.mark.parametrize(
    ("cards", "code"),
    [
        ("R1 R2", "not_a_meld"),  # too few
        ("R1 G2 B3", "not_a_meld"),  # neither a set nor a run
        ("R1 R2 R4", "not_a_meld"),  # a gap
        ("RS GS BS", "not_a_meld"),  # action cards do not meld
        ("R1 W W+4", "meld_needs_two_naturals"),
        ("R3 W R7", "not_a_meld"),  # one joker cannot close a gap of three
        ("R7 W R3", "not_a_meld"),  # nor in another order
        ("R3 W G4", "not_a_meld"),  # two colours, two numbers
        ("R3 R4 W R4", "not_a_meld"),  # a number twice in a run
    ],
)
def test_rommy_meld_refuses_cards_that_are_no_set_or_run(cards: str, code: str) -> None:
    state = position([cards + " Y9 Y9", "B8"])
    assert refused(state, 0, "meld", cards=cards.split()) == code


def test_rommy_meld_refuses_cards_not_in_hand() -> None:
    state = position(["R1 R2 G9", "B8"])
    assert refused(state, 0, "meld", cards=["R1", "R2", "R3"]) == "card_not_in_hand"


def test_rommy_joker_in_a_run_stands_for_the_number_of_its_place() -> None:
    state = position(["R3 W R5 W+4 B1", "B8"])
    new = act(state, 0, "meld", cards=["R3", "W", "R5", "W+4"])
    assert new.melds[0].stands == ("R3", "R4", "R5", "R6")
    low = act(state, 0, "meld", cards=["W", "R3", "W+4", "R5"])
    assert low.melds[0].stands == ("R2", "R3", "R4", "R5")


@pytest.mark.parametrize(
    ("cards", "laid", "stands"),
    [
        ("R5 R3 R4", "R3 R4 R5", "R3 R4 R5"),
        ("R5 W R3", "R3 W R5", "R3 R4 R5"),  # the joker fills the gap
        ("R3 W R4", "R3 R4 W", "R3 R4 R5"),  # a spare joker goes on the high end
        ("W R4 R3", "R3 R4 W", "R3 R4 R5"),
        ("R9 W R8 W+4", "W W+4 R8 R9", "R6 R7 R8 R9"),  # past 9: the low end, in listed order
        ("W+4 R6 W R3", "R3 W+4 W R6", "R3 R4 R5 R6"),  # jokers fill the gaps in listed order
        ("R6 W+4 R3 W W", "R3 W+4 W R6 W", "R3 R4 R5 R6 R7"),
    ],
)
def test_rommy_run_given_in_any_order_is_laid_low_to_high_with_jokers_in_its_gaps(
    cards: str, laid: str, stands: str
) -> None:
    state = position([cards + " B1", "B8"])
    new, events = apply(state, 0, {"type": "meld", "cards": cards.split()})
    assert new.melds[0].kind == "run"
    assert new.melds[0].cards == tuple(laid.split())
    assert new.melds[0].stands == tuple(stands.split())
    assert events[0]["cards"] == laid.split() and events[0]["as"] == stands.split()
    assert new.hands[0] == ("B1",)


def test_rommy_run_longer_than_zero_to_nine_is_refused_in_any_order() -> None:
    with pytest.raises(IllegalAction) as err:
        new_meld(["W", "R1", *["W", "W+4"] * 4, "R0"], 0)
    assert err.value.code == "not_a_meld"


def test_rommy_run_listed_in_run_order_keeps_its_jokers_where_listed() -> None:
    state = position(["W R3 R4 B1", "B8"])
    assert act(state, 0, "meld", cards=["W", "R3", "R4"]).melds[0].stands == ("R2", "R3", "R4")
    assert act(state, 0, "meld", cards=["R3", "R4", "W"]).melds[0].stands == ("R3", "R4", "R5")


def test_rommy_joker_in_a_set_stands_for_its_number_in_any_colour() -> None:
    state = position(["R3 G3 W B1", "B8"])
    new = act(state, 0, "meld", cards=["R3", "W", "G3"])
    assert new.melds[0].kind == "set"
    assert new.melds[0].stands == ("R3", "3", "G3")


def test_rommy_cannot_meld_or_lay_off_the_last_card() -> None:
    state = position(["R1 R2 R3", "B8"], melds=[{"cards": ["G4", "G5", "G6"], "seat": 1}])
    assert refused(state, 0, "meld", cards=["R1", "R2", "R3"]) == "must_keep_a_discard"
    alone = position(["G7", "B8"], melds=[{"cards": ["G4", "G5", "G6"], "seat": 1}])
    assert refused(alone, 0, "layOff", cards=["G7"], target=0) == "must_keep_a_discard"


# --- Lay-offs and jokers ---------------------------------------------------------------------


def test_rommy_lay_off_onto_another_players_meld_counts_for_the_one_who_laid_it() -> None:
    state = position(["G7 B2", "B8 B9"], melds=[{"cards": ["G4", "G5", "G6"], "seat": 1}])
    new = act(state, 0, "layOff", cards=["G7"], target=0)
    assert new.melds[0].cards == ("G4", "G5", "G6", "G7")
    assert new.melds[0].seats == (1, 1, 1, 0)
    out = act(new, 0, "discardCard", cards=["B2"])
    assert out.deal_scores == (5, 15 - 10)


def test_rommy_lay_off_extends_a_run_at_either_end() -> None:
    melds = [{"cards": ["G4", "G5", "G6"], "seat": 1}]
    state = position(["G2 G3 G8 B1", "B8"], melds=melds)
    low = act(state, 0, "layOff", cards=["G2", "G3"], target=0)
    assert low.melds[0].cards == ("G2", "G3", "G4", "G5", "G6")
    assert refused(state, 0, "layOff", cards=["G8"], target=0) == "cannot_lay_off"
    assert refused(state, 0, "layOff", cards=["G3"], target=1) == "no_such_meld"


@pytest.mark.parametrize(
    ("cards", "laid", "stands"),
    [
        ("G3 G2", "G2 G3", "G2 G3 G4 G5 G6"),
        ("G2 W", "G2 W", "G2 G3 G4 G5 G6"),
        ("G8 W", "W G8", "G4 G5 G6 G7 G8"),
        ("G9 G7 W+4", "G7 W+4 G9", "G4 G5 G6 G7 G8 G9"),
    ],
)
def test_rommy_lay_off_on_a_run_takes_the_cards_in_any_order(
    cards: str, laid: str, stands: str
) -> None:
    melds = [{"cards": ["G4", "G5", "G6"], "seat": 1}]
    state = position([cards + " G2 G7 G8 G9 W B1", "B8"], melds=melds)
    new, events = apply(state, 0, {"type": "layOff", "cards": cards.split(), "target": 0})
    assert new.melds[0].stands == tuple(stands.split())
    assert new.melds[0].cards in (
        ("G4", "G5", "G6", *laid.split()),
        (*laid.split(), "G4", "G5", "G6"),
    )
    assert events[0]["cards"] == laid.split()  # as they now lie
    for bad in ("G8 G2", "G7 G9", "G2 G8 W"):
        assert refused(state, 0, "layOff", cards=bad.split(), target=0) == "cannot_lay_off"


# --- Any order: property tests against a brute-force reading -------------------------------

JOKER_CODES = ("W", "W+4")


def _reads_as_run(cards: tuple[str, ...], low: int, colour: str | None = None) -> bool:
    """``cards`` listed as a run from ``low`` up (of ``colour``, if given): each natural of
    one colour and the number of its place."""
    colours = {c[0] for c in cards if c not in JOKER_CODES}
    one = colours <= {colour} if colour else len(colours) <= 1
    return one and all(
        0 <= low + i <= 9 and (c in JOKER_CODES or c[1:] == str(low + i))
        for i, c in enumerate(cards)
    )


def _some_order_melds(cards: list[str]) -> bool:
    """Whether some order of ``cards`` is a meld, tried one order at a time."""
    naturals = [c for c in cards if c not in JOKER_CODES]
    if len(cards) < 3 or len(naturals) < 2 or any(not c[1:].isdigit() for c in naturals):
        return False
    if len({c[1:] for c in naturals}) == 1:
        return True
    return any(
        _reads_as_run(order, low) for order in set(permutations(cards)) for low in range(-9, 10)
    )


def _check_run(meld: Meld, given: list[str]) -> None:
    """A laid run: the cards given, low to high, each natural at its number, the jokers in
    the order given."""
    assert Counter(meld.cards) == Counter(given)
    low = int(meld.stands[0][1:])
    colour = meld.stands[0][0]
    assert meld.stands == tuple(f"{colour}{low + i}" for i in range(len(given)))
    assert all(c in JOKER_CODES or c == a for c, a in zip(meld.cards, meld.stands, strict=True))
    jokers = [c for c in given if c in JOKER_CODES]
    assert [c for c in meld.cards if c in JOKER_CODES] == jokers


MELD_POOL = ["R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9", "G4", "RS", "W", "W+4"]


@settings(max_examples=300, deadline=None)
@given(cards=st.lists(st.sampled_from(MELD_POOL), min_size=3, max_size=6))
def test_rommy_meld_accepts_cards_in_any_order_exactly_when_some_order_melds(
    cards: list[str],
) -> None:
    if not _some_order_melds(cards):
        with pytest.raises(IllegalAction) as err:
            new_meld(cards, 0)
        assert err.value.code in ("not_a_meld", "meld_needs_two_naturals")
        return
    meld = new_meld(cards, 0)
    if meld.kind == "set":
        assert meld.cards == tuple(cards)
        return
    _check_run(meld, cards)
    if any(_reads_as_run(tuple(cards), low) for low in range(-9, 10)):
        assert meld.cards == tuple(cards)  # a list in run order is laid as listed


@settings(max_examples=200, deadline=None)
@given(
    colour=st.sampled_from("RGBY"),
    low=st.integers(0, 7),
    size=st.integers(3, 7),
    jokers=st.lists(st.sampled_from(JOKER_CODES), max_size=5),
    order=st.randoms(use_true_random=False),
)
def test_rommy_a_shuffled_run_with_jokers_in_its_gaps_is_laid_as_the_run_it_is(
    colour: str, low: int, size: int, jokers: list[str], order: random.Random
) -> None:
    size = min(size, 10 - low)
    run = [f"{colour}{low + i}" for i in range(size)]
    inner = list(range(1, size - 1))  # a joker in a gap: its place is not in doubt
    for joker, at in zip(jokers, order.sample(inner, min(len(jokers), len(inner))), strict=False):
        run[at] = joker
    given = order.sample(run, len(run))
    meld = new_meld(given, 2)
    assert meld.kind == "run" and meld.seats == (2,) * size
    assert meld.stands == tuple(f"{colour}{low + i}" for i in range(size))
    _check_run(meld, given)


@settings(max_examples=200, deadline=None)
@given(
    low=st.integers(0, 7),
    extra=st.lists(
        st.sampled_from(
            ["B0", "B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8", "B9", "R5", "W", "W+4"]
        ),
        min_size=1,
        max_size=4,
    ),
)
def test_rommy_lay_off_on_a_run_accepts_any_order_exactly_when_some_order_fits(
    low: int, extra: list[str]
) -> None:
    table = new_meld([f"B{low}", f"B{low + 1}", f"B{low + 2}"], 1)
    k = len(extra)
    ends = [(low + 3, True), (low - k, False)]
    fits_at = [
        (start, high)
        for start, high in ends
        if any(_reads_as_run(order, start, "B") for order in set(permutations(extra)))
    ]
    if not fits_at:
        with pytest.raises(IllegalAction) as err:
            lay_off(table, extra, 0)
        assert err.value.code == "cannot_lay_off"
        return
    new = lay_off(table, extra, 0)
    start, high = fits_at[0]  # the high end first
    _check_run(new, [*table.cards, *extra])
    assert new.stands[0] == f"B{min(start, low)}"
    laid = new.cards[3:] if high else new.cards[:k]
    assert new.cards == ((*table.cards, *laid) if high else (*laid, *table.cards))
    assert new.seats == ((1, 1, 1, *[0] * k) if high else (*[0] * k, 1, 1, 1))


def test_rommy_lay_off_joker_on_a_run_goes_on_the_high_end() -> None:
    melds = [{"cards": ["G4", "G5", "G6"], "seat": 1}]
    state = position(["W B1", "B8"], melds=melds)
    new = act(state, 0, "layOff", cards=["W"], target=0)
    assert new.melds[0].stands[-1] == "G7"
    top = position(["W B1", "B8"], melds=[{"cards": ["G7", "G8", "G9"], "seat": 1}])
    assert act(top, 0, "layOff", cards=["W"], target=0).melds[0].stands[0] == "G6"


def test_rommy_lay_off_on_a_set_needs_its_number() -> None:
    state = position(["B4 B5 W G1", "B8"], melds=[{"cards": ["G4", "R4", "Y4"], "seat": 1}])
    assert act(state, 0, "layOff", cards=["B4", "W"], target=0).melds[0].stands[-2:] == (
        "B4",
        "4",
    )
    assert refused(state, 0, "layOff", cards=["B5"], target=0) == "cannot_lay_off"


def test_rommy_swap_joker_puts_the_real_card_in_and_the_joker_in_hand() -> None:
    state = position(["R4 G1", "B8"], melds=[{"cards": ["R3", "W", "R5"], "seat": 1}])
    new, events = apply(state, 0, {"type": "swapJoker", "cards": ["R4"], "target": 0})
    assert new.melds[0].cards == ("R3", "R4", "R5")
    assert new.melds[0].seats == (1, 0, 1)
    assert Counter(new.hands[0]) == Counter(["G1", "W"])
    assert events[0]["joker"] == "W" and events[0]["jokerOwner"] == 1
    assert new.drinks is None
    assert refused(state, 0, "swapJoker", cards=["G1"], target=0) == "no_joker_for_card"


def test_rommy_swap_joker_in_a_set_takes_any_colour_of_its_number() -> None:
    state = position(["B3 G1", "B8"], melds=[{"cards": ["R3", "G3", "W"], "seat": 1}])
    new = act(state, 0, "swapJoker", cards=["B3"], target=0)
    assert new.melds[0].cards == ("R3", "G3", "B3")


def test_rommy_swapping_a_wild_draw_four_joker_makes_its_layer_drink_four() -> None:
    melds = [{"cards": ["R3", "W+4", "R5"], "seat": 1}]
    state = position(["R4 G1", "B8", "Y1"], melds=melds, drinks=True)
    new, events = apply(state, 0, {"type": "swapJoker", "cards": ["R4"], "target": 0})
    assert new.drinks == (0, 4, 0)
    assert {"type": "sips", "seat": 1, "count": 4, "reason": "jokerSwapped"} in events
    plain = position(["R4 G1", "B8", "Y1"], melds=[{"cards": ["R3", "W", "R5"]}], drinks=True)
    assert act(plain, 0, "swapJoker", cards=["R4"], target=0).drinks == (0, 0, 0)


# --- Action cards on a matching discard --------------------------------------------------------


def test_rommy_skip_discarded_on_its_colour_skips_the_next_player() -> None:
    state = position(["RS G1", "B8", "Y1"], discard="R9")
    new, events = apply(state, 0, {"type": "discardCard", "cards": ["RS"]})
    assert new.turn == 2
    assert {"type": "skip", "seat": 1} in events


def test_rommy_skip_on_another_colour_does_nothing() -> None:
    state = position(["RS G1", "B8", "Y1"], discard="G9")
    assert act(state, 0, "discardCard", cards=["RS"]).turn == 1


def test_rommy_reverse_discarded_on_its_colour_reverses_play() -> None:
    state = position(["RR G1", "B8", "Y1"], discard="R2")
    new = act(state, 0, "discardCard", cards=["RR"])
    assert (new.direction, new.turn) == (-1, 2)


def test_rommy_draw_two_on_its_colour_makes_the_next_draw_two_cards_and_two_sips() -> None:
    state = position(["R+2 G1", "B8", "Y1"], discard="R2", stock="B1 B2 B3", drinks=True)
    new = act(state, 0, "discardCard", cards=["R+2"])
    assert (new.turn, new.pending) == (1, 2)
    assert legal_actions(new, 1) == [Action("draw")]
    assert refused(new, 1, "takeDiscard") == "must_draw"
    drew = act(new, 1, "draw")
    assert drew.hands[1] == ("B8", "B1", "B2")
    assert drew.drinks == (0, 2, 0) and drew.pending == 0 and drew.step == "play"


# --- Going out, scoring, drinks, the match ---------------------------------------------------


def test_rommy_going_out_needs_a_final_discard_and_scores_melds_minus_hands() -> None:
    melds = [{"cards": ["R1", "R2", "R3"], "seat": 0}, {"cards": ["G0", "B0", "Y0"], "seat": 1}]
    state = position(["B5", "W RS G2"], melds=melds)
    new, events = apply(state, 0, {"type": "discardCard", "cards": ["B5"]})
    assert new.phase == "dealOver"
    assert new.winner == 0
    assert new.deal_scores == (15, 30 - 25 - 15 - 5)
    assert new.totals == new.deal_scores
    assert events[-1]["type"] == "dealOver" and events[-1]["hands"][1] == ["W", "RS", "G2"]
    assert legal_actions(new, 1) == [Action("nextDeal")]


@pytest.mark.parametrize(
    ("card", "points"),
    [("R1", 5), ("G9", 5), ("B0", 10), ("YS", 15), ("Y+2", 15), ("GR", 15), ("W", 25), ("W+4", 25)],
)
def test_rommy_card_values(card: str, points: int) -> None:
    assert card_points(card) == points


def test_rommy_deal_end_drinks_per_card_left_in_hand() -> None:
    state = position(["B5", "R1 RS GR W Y+2 W+4", "G3"], drinks=True)
    new, events = apply(state, 0, {"type": "discardCard", "cards": ["B5"]})
    assert new.drinks == (0, 1 + 1 + 1 + 1 + 2 + 4, 1)
    assert {"type": "sips", "seat": 1, "count": 10, "reason": "cardsInHand"} in events


def test_rommy_a_finishing_draw_two_is_drawn_before_scoring() -> None:
    state = position(["R+2", "G1"], discard="R5", stock="B1 B2", drinks=True)
    new = act(state, 0, "discardCard", cards=["R+2"])
    assert new.hands[1] == ("G1", "B1", "B2")
    assert new.drinks == (0, 2 + 3)
    assert new.deal_scores == (0, -15)


def test_rommy_match_ends_when_a_total_reaches_the_target_and_the_highest_wins() -> None:
    state = position(["B5", "G1"], melds=[{"cards": ["R0", "G0", "B0"], "seat": 1}])
    state = rommy.RommyState.from_json({**state.to_json(), "totals": [90, 480]})
    new = act(state, 0, "discardCard", cards=["B5"])
    assert new.phase == "matchOver" and new.match_over
    assert new.totals == (90, 480 + 30 - 5)
    assert new.winner == 1
    assert legal_actions(new, 0) == []
    assert refused(new, 0, "nextDeal") == "wrong_phase"


def test_rommy_one_and_done_ends_the_match_with_the_first_player_out_as_winner() -> None:
    melds = [{"cards": ["R0", "G0", "B0"], "seat": 1}]
    state = position(["B5", "G1"], melds=melds, matchMode="oneAndDone")
    new = act(state, 0, "discardCard", cards=["B5"])
    assert new.phase == "matchOver" and new.match_over
    assert new.winner == 0  # out first, though seat 1 has more points
    assert legal_actions(new, 0) == []


def test_rommy_next_deal_moves_the_dealer_left_and_deals_again() -> None:
    state, _ = new_match(rules_from_json({"preset": "rommy"}), 3, "x", 0)
    over = rommy.RommyState.from_json({**state.to_json(), "phase": "dealOver"})
    new, events = apply(over, 2, {"type": "nextDeal"})
    assert (new.deal, new.dealer, new.turn, new.phase) == (2, 1, 2, "playing")
    assert Counter(rommy.all_cards(new)) == Counter(classic108())


def test_rommy_empty_stock_reshuffles_the_discard_pile_under_its_top_card() -> None:
    state = position(["R1 G2", "B7"], discard="Y1 Y2 Y3", stock="", step="draw")
    new, events = apply(state, 0, {"type": "draw"})
    assert new.discard == ("Y1",)
    assert len(new.hands[0]) == 3 and len(new.stock) == 1
    assert events[0] == {"type": "reshuffle", "cards": 2}


def test_rommy_refuses_actions_of_other_games() -> None:
    state = position(["R1 G2", "B7"])
    assert refused(state, 0, "play", cards=["R1"]) == "not_in_this_game"
    with pytest.raises(InvalidAction):
        apply(state, 5, {"type": "draw"})
    with pytest.raises(IllegalAction):
        apply(state, 0, {"type": "turnCard"})


# --- Views, the scenario summary, JSON -----------------------------------------------------


def test_rommy_view_shows_own_hand_and_only_counts_of_the_others() -> None:
    state, _ = new_match(rules_from_json({"preset": "rommy"}), 3, "v", 0)
    view = view_for(state, 1)
    assert view["you"] == 1 and view["hand"] == list(state.hands[1])
    assert [p["cards"] for p in view["players"]] == [7, 7, 7]
    public = {k: v for k, v in view.items() if k not in ("hand", "top", "discard")}
    text = json.dumps(public)
    assert not any(f'"{card}"' in text for card in set(classic108()))
    assert view["legal"] == [a.to_json() for a in legal_actions(state, 1)]
    assert view["reveal"] is None and view["drinks"] is None
    spectator = view_for(state, None)
    assert spectator["hand"] == [] and spectator["legal"] == []


def test_rommy_view_at_the_deal_end_holds_each_seats_points_laid_and_in_hand() -> None:
    state = position(["R1 R2 R3 G1", "B7 W"])
    assert view_for(state, 0)["pointsLaid"] is None
    state = act(state, 0, "meld", cards=["R1", "R2", "R3"])
    state = act(state, 0, "discardCard", cards=["G1"])
    view = view_for(state, 1)
    assert view["phase"] in ("dealOver", "matchOver")
    assert view["pointsLaid"] == [3 * card_points("R1"), 0]
    assert view["pointsInHand"] == [0, card_points("B7") + card_points("W")]
    assert view["dealScores"] == [
        laid - held for laid, held in zip(view["pointsLaid"], view["pointsInHand"], strict=True)
    ]


def test_rommy_summary_has_the_contract_fields_plus_melds_and_stock() -> None:
    state = position(["R1 R2 R3 G1", "B7"], melds=[{"cards": ["G4", "G5", "G6"], "seat": 1}])
    out = GAMES["rommy"].summary(state)
    assert CONTRACT_FIELDS <= set(out)
    assert out["melds"][0]["cards"] == ["G4", "G5", "G6"]
    assert out["stock"] == ["B1", "B2", "B3", "B4", "B5", "B6"]
    assert out["hands"] == [["R1", "R2", "R3", "G1"], ["B7"]]


def test_rommy_state_survives_a_json_round_trip() -> None:
    state = position(["R3 W R5 B1", "B8"], drinks=True)
    state = act(state, 0, "meld", cards=["R3", "W", "R5"])
    again = state_from_json(json.loads(json.dumps(state.to_json())))
    assert again == state and isinstance(again, RommyState)


# --- Random playouts -------------------------------------------------------------------------


def _playout(players: int, seed: str, drinks: bool, max_steps: int = 3000) -> int:
    """A random bot plays; returns the deals finished. Checks every invariant on the way."""
    rules = rules_from_json({"preset": "rommy", "drinks": drinks, "targetScore": 200})
    state, _ = new_match(rules, players, seed)
    rng = random.Random(seed)
    full = Counter(classic108())
    finished = 0
    for step in range(max_steps):
        if state.match_over:
            break
        seat = 0 if state.phase == "dealOver" else state.turn
        options = legal_actions(state, seat)
        assert options, f"no legal action for the seat to move at step {step}"
        for other in range(players):
            if other != seat and state.phase == "playing":
                assert legal_actions(state, other) == []
                with pytest.raises(EngineError):
                    apply(state, other, {"type": "draw"})
        if step % 7 == 0:  # every listed action is accepted
            for option in options:
                apply(state, seat, option)
        before = state.to_json()
        choice = rng.choice(options)
        state, _ = apply(state, seat, choice)
        assert state.to_json() != before or choice.type == "nextDeal"
        assert Counter(rommy.all_cards(state)) == full
        if state.phase in ("dealOver", "matchOver"):
            finished += 1
        if step % 25 == 0:
            assert state_from_json(json.loads(json.dumps(state.to_json()))) == state
    return finished


@pytest.mark.parametrize(("players", "drinks"), [(2, False), (3, True), (4, False), (6, True)])
def test_rommy_random_playouts_conserve_cards_and_accept_every_listed_action(
    players: int, drinks: bool
) -> None:
    finished = sum(_playout(players, f"p{players}-{k}", drinks) for k in range(2))
    assert finished >= 1


def test_rommy_random_bot_finishes_a_match() -> None:
    rules = rules_from_json({"preset": "rommy", "targetScore": 100})
    state, _ = new_match(rules, 3, "match")
    rng = random.Random(3)
    for _ in range(20000):
        if state.match_over:
            break
        seat = 0 if state.phase == "dealOver" else state.turn
        state, _ = apply(state, seat, rng.choice(legal_actions(state, seat)))
    assert state.match_over
    assert state.winner == max(range(3), key=lambda s: state.totals[s])


def test_rommy_scenario_start_from_a_stacked_deck_deals_from_the_dealers_left() -> None:
    rules = rules_from_json({"preset": "rommy"})
    deck = [f"{c}{n}" for c in "RGBY" for n in range(1, 10)][:15]
    state = rommy.initial_state(rules, 2, "s", 0, {"deck": deck})
    assert state.hands[1][0] == deck[0] and state.hands[0][0] == deck[1]
    assert state.top == deck[14] and state.stock == ()


def test_rommy_scenario_setup_reads_melds_and_refuses_malformed_input() -> None:
    rules = rules_from_json({"preset": "rommy"})
    setup = {"hands": [["R1"], ["G2"]], "discard": ["Y5"], "melds": [["B1", "W", "B3"]]}
    state = rommy.initial_state(rules, 2, "s", 0, {"setup": setup})
    assert state.melds[0].stands == ("B1", "B2", "B3") and state.turn == 1
    for bad in (
        {"hands": [["R1"]]},
        {"hands": [["X9"], []]},
        {"hands": [[], []], "melds": [["R1", "G2", "B3"]]},
        {"hands": [[], []], "direction": 2},
    ):
        with pytest.raises(ValueError):
            rommy.initial_state(rules, 2, "s", 0, {"setup": bad})


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.text(min_size=1, max_size=8),
    players=st.integers(2, 8),
    decks=st.integers(1, 2),
    drinks=st.booleans(),
    bot=st.integers(0, 2**32),
)
def test_rommy_invariants_hold_in_random_legal_playouts(
    seed: str, players: int, decks: int, drinks: bool, bot: int
) -> None:
    rules = rules_from_json({"preset": "rommy", "decks": decks, "drinks": drinks})
    state, _ = new_match(rules, players, seed)
    full = Counter(classic108() * decks)
    rng = random.Random(bot)
    for _ in range(150):
        if state.match_over:
            break
        seat = 0 if state.phase == "dealOver" else state.turn
        before = state.to_json()
        state, _ = apply(state, seat, rng.choice(legal_actions(state, seat)))
        assert Counter(rommy.all_cards(state)) == full
        assert all(len(h) >= 1 for h in state.hands) or state.phase != "playing"
        for meld in state.melds:
            assert len(meld.cards) >= 3 and len(meld.cards) == len(meld.stands) == len(meld.seats)
        for viewer in range(players):
            view = view_for(state, viewer)
            assert view["hand"] == list(state.hands[viewer])
            assert [p["cards"] for p in view["players"]] == [len(h) for h in state.hands]
        assert before != state.to_json()
