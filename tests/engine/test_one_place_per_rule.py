"""Rules stated once: each test here would fail if a second copy of a rule drifted away
from its home module (an option's default, plain matching, a Wild Draw Four's penalty
drawn by different paths, the last card's rules, the bots' reading of the rules)."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import apply, final_state, legal_actions, parse_action, replay_log, view_for
from engine.bots.normal import is_bluff, play_score
from engine.bots.reading import complete_play, swap_targets
from engine.bots.reading import needs_target as bot_needs_target
from engine.cards import FACES, build_deck
from engine.checks import turn_play_problem
from engine.plays import plain_match
from engine.rules import OPTIONS, Rules
from engine.seven_zero import needs_target, targets
from engine.stacking import answers_pending
from engine.state import State
from engine.wild_draw_four import wd4_is_bluff
from tests.engine.uno_helpers import position

ROOT = Path(__file__).resolve().parents[2]
CODES = sorted(set(build_deck("classic108", 1)))
COLORS = ["R", "Y", "G", "B"]


# --- option defaults ---------------------------------------------------------------------


def test_no_rules_field_restates_an_options_default() -> None:
    # The Rules fields of options read OPTIONS' defaults (engine/rules.py's _DEFAULTS).
    tree = ast.parse((ROOT / "engine" / "rules.py").read_text(encoding="utf-8"))
    rules_class = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Rules")
    snake = {"".join("_" + c.lower() if c.isupper() else c for c in o.name) for o in OPTIONS}
    literal = [
        stmt.target.id
        for stmt in rules_class.body
        if isinstance(stmt, ast.AnnAssign)
        and isinstance(stmt.target, ast.Name)
        and stmt.target.id in snake
        and isinstance(stmt.value, ast.Constant)
    ]
    assert literal == []


def test_every_option_defaults_to_its_rules_default() -> None:
    wire = Rules().to_json()
    assert {o.name: o.default for o in OPTIONS} == {o.name: wire[o.name] for o in OPTIONS}


# --- plain matching ------------------------------------------------------------------------


def _on(card: str, color: str, top: str, **rules: Any) -> State:
    return position([f"{card} R1", "B2 B3"], top, color=color, rules=rules)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(CODES), st.sampled_from(COLORS), st.sampled_from(CODES))
def test_a_turn_play_matches_exactly_when_plain_matching_says(
    card: str, color: str, top: str
) -> None:
    state = _on(card, color, top, wildDrawFourRestriction="none")
    top_rank = FACES["light"][top].rank
    matches = plain_match(FACES["light"][card], color, top_rank)
    assert (turn_play_problem(state, 0, card) != "card_not_playable") == matches


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["RS", "GS", "BR", "YR"]), st.sampled_from(COLORS), st.sampled_from(CODES))
def test_a_deflecting_card_answers_a_penalty_exactly_when_it_plainly_matches(
    card: str, color: str, top: str
) -> None:
    state = _on(card, color, top, reverseDeflect=True, skipDeflect=True)
    state.pending, state.pending_kind = 2, "+2"
    info = FACES["light"][card]
    assert answers_pending(state, info) == plain_match(info, color, FACES["light"][top].rank)


# --- a Wild Draw Four's penalty, however it is drawn -------------------------------------


def _after_wild_four(card: str, waits: bool, **rules: Any) -> State:
    """Seat 0 lays ``card``; the penalty is drawn at once, or (``waits``) seat 1 draws it."""
    options: dict[str, Any] = {"wildDrawFourChallenge": waits, **rules}
    if card == "W+8":
        options["wildDrawEight"] = 2
        options["stackDrawFour"] = waits  # (a Wild Draw Eight is never challenged)
    state = position(["R1 " + card + " G2", "B2 B3", "Y4 Y5"], "B9", color="B", rules=options)
    state, _ = apply(state, 0, parse_action({"type": "play", "cards": [card], "color": "R"}))
    if waits:
        assert state.pending
        state, _ = apply(state, 1, parse_action({"type": "draw"}))
    return state


def test_a_wild_draw_fours_penalty_leaves_the_same_table_drawn_at_once_or_after_waiting() -> None:
    for card in ("W+4", "W+8"):
        for rule in ({"wildDrawFourPlaysAgain": True}, {"drawFourFollowColor": True}, {}):
            at_once = _after_wild_four(card, False, **rule)
            waited = _after_wild_four(card, True, **rule)
            assert (at_once.turn, at_once.follow, at_once.hands) == (
                waited.turn,
                waited.follow,
                waited.hands,
            ), (card, rule)


# --- the last card ---------------------------------------------------------------------------


def test_a_last_action_card_is_refused_alike_alone_together_and_jumping_in() -> None:
    rules = {"forbidActionFinish": True, "multiPlay": True, "jumpIn": True}
    alone = position(["GS", "B2 B3"], "G9", rules=rules)
    together = position(["GS RS", "B2 B3"], "GS", rules=rules)
    jump = position(["B2 B3", "GS"], "GS", rules=rules)
    refusals = []
    for state, seat, cards in ((alone, 0, ["GS"]), (together, 0, ["GS", "RS"]), (jump, 1, ["GS"])):
        try:
            apply(state, seat, parse_action({"type": "play", "cards": cards, "uno": True}))
        except Exception as err:  # noqa: BLE001 - the code is what is compared
            refusals.append(getattr(err, "code", None))
    assert refusals == ["action_finish_forbidden"] * 3


def test_a_bots_completed_play_calls_uno_as_the_engine_lists_it() -> None:
    # One card to go, or the last ones laid together: the play must carry the call.
    for hand in ("R5 G5", "R5 G5 B5", "R5 G5 B5 Y5"):
        state = position([hand, "B2 B3"], "Y5", color="Y", rules={"multiPlay": True})
        view = view_for(state, 0)
        listed = legal_actions(state, 0)
        plays = {a.cards for a in listed if a.type == "play"}
        for cards in plays:
            assert complete_play(view, cards, None, None) in listed, cards


# --- the bots ask the engine -------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(CODES), min_size=1, max_size=5),
    st.sampled_from(COLORS),
    st.sampled_from(CODES),
    st.sampled_from(["noMatchingColor", "noPlayableCard", "none"]),
)
def test_the_bots_judge_a_bluff_as_the_engine_does(
    rest: list[str], color: str, top: str, restriction: str
) -> None:
    hand = ["W+4", *rest]
    state = position(
        [" ".join(hand), "B2 B3"], top, color=color, rules={"wildDrawFourRestriction": restriction}
    )
    assert is_bluff(view_for(state, 0), ("W+4",)) == wd4_is_bluff(state, state.hands[0], "W+4")


def test_the_bots_know_when_a_seven_names_a_seat_as_the_engine_does() -> None:
    for rules in (
        {"sevenZero": True},
        {"sevenSwap": True},
        {"sevenSwap": True, "swapOnLastCard": True},
        {},
    ):
        for hand in ("R7", "R7 G1", "R7 G7"):
            state = position([hand, "B2 B3", "Y2"], "R9", rules={"multiPlay": True, **rules})
            view = view_for(state, 0)
            for cards in (("R7",), ("R7", "G7")):
                if all(c in hand.split() for c in cards):
                    held = list(state.hands[0])
                    assert bot_needs_target(view, cards, held) == needs_target(state, 0, cards)


def test_the_bots_swap_a_seven_with_the_seats_the_engine_allows() -> None:
    state = position(["R7 G1", "B2 B3", "Y2", "G4 G5"], "R9", rules={"sevenZero": True})
    for out in ((False, False, False, False), (False, True, False, False)):
        state.out = out
        seats = [p["seat"] for p in swap_targets(view_for(state, 0))]
        assert seats == targets(state, 0)


def test_the_bots_count_a_cards_points_by_the_rules_values() -> None:
    state = position(["RS R1 R2", "B2 B3"], "R9", rules={"actionValue": 40})
    assert play_score(view_for(state, 0), ("RS",))[-1] == 40


# --- replaying a deal's log ----------------------------------------------------------------


def test_a_deal_log_replays_to_the_states_and_events_its_actions_made() -> None:
    state = position(["R1 R2 G3", "R5 B2 B3"], "R9", draw="Y1 Y2 Y3")
    log: list[dict[str, Any]] = [{"acks": []}, {"start": state.to_json()}]
    made = [state]
    made_events = []
    for seat, action in ((0, {"type": "play", "cards": ["R1"]}), (1, {"type": "draw"})):
        after, events = apply(made[-1], seat, parse_action(action))
        log.append({"seat": seat, "action": action, "seq": len(log)})
        made.append(after)
        made_events.append(events)
    steps = list(replay_log(log))
    assert [s.entry for s in steps] == log
    assert steps[0].after is None and steps[1].before is None
    assert [s.after for s in steps[1:]] == made
    assert [s.events for s in steps[2:]] == made_events
    assert final_state(log) == made[-1]
    assert final_state(log[2:], made[0]) == made[-1]
