"""Rules stated once: each test here would fail if a second copy of a rule drifted away
from its home module (an option's default, plain matching, a Wild Draw Four's penalty
drawn by different paths, the last card's rules, the bots' reading of the rules)."""

from __future__ import annotations

import ast
import random
from itertools import combinations
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from option_space import any_rules

from engine import apply, final_state, legal_actions, parse_action, replay_log, view_for
from engine.action_finish import action_finish_refused
from engine.bots.normal import is_bluff, play_score
from engine.bots.reading import complete_play, swap_targets
from engine.bots.reading import needs_target as bot_needs_target
from engine.bots.sample import sample_state, unseen_of
from engine.cards import FACES, build_deck
from engine.checks import turn_play_problem
from engine.duo_dump import dump_color_of
from engine.matching import plain_match
from engine.rules import OPTIONS, Rules
from engine.seven_zero import needs_target, targets
from engine.stacking import STACK_FAMILY, answers_pending
from engine.state import State
from engine.wild_draw_four import restricted_play_refused, wd4_is_bluff
from engine.wild_finish import wild_finish_refused
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


# --- the fast paths' flags -------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(
    any_rules().filter(lambda r: r.deck != "flip112"),
    st.lists(st.sampled_from(CODES), max_size=2),
    st.sampled_from(COLORS),
    st.sampled_from(CODES),
    st.sampled_from(sorted(STACK_FAMILY)),
)
def test_the_fast_path_flags_hold_exactly_when_the_rule_modules_agree(
    rules: Rules, rest: list[str], color: str, top: str, pending: str
) -> None:
    """``plain_checks`` (no check after plain matching refuses), ``answers_pending`` (some
    card may answer a penalty) and ``plain_plays`` (a play is one card, no seat named)
    skip the rule modules' checks: over every option, never where a module would act.
    Every card is tried, beside ``rest`` (none: the last card)."""
    players = 2 * rules.teams or min(3, rules.max_players)
    others = ["B2 B3", "Y4", "G5", "R6", "B7"][: players - 1]
    state = position([" ".join(rest), *others], top, color=color, rules=rules.to_json())
    faces = FACES["light"]
    for card in CODES:
        info = faces[card]
        state.hands = ((card, *rest), *state.hands[1:])
        if rules.plain_checks:
            assert not restricted_play_refused(state, state.hands[0], card, info.rank)
            assert not action_finish_refused(rules, info, len(rest))
            assert not wild_finish_refused(rules, info, len(rest))
        if rules.plain_plays:
            assert not needs_target(state, 0, (card,))
            assert dump_color_of(state, (card,)) is None
            assert not rules.multi_play
        if not rules.answers_pending:
            waiting = state.copy()
            waiting.pending, waiting.pending_kind = 2, STACK_FAMILY[pending]
            assert not answers_pending(waiting, info)


# --- a draw penalty, however it is drawn -------------------------------------------------

# Every option off that makes a penalty wait: it is drawn at once.
AT_ONCE: dict[str, Any] = {
    "stacking": False,
    "stackWildDrawFour": False,
    "stackDrawFour": False,
    "crossStack": "none",
    "reverseDeflect": False,
    "skipDeflect": False,
    "wildDrawFourChallenge": False,
}
# Each option that makes a card's penalty wait for its victim, by card.
WAITS_BY: dict[str, list[dict[str, Any]]] = {
    "B+2": [
        {"stacking": True},
        {"crossStack": "drawFourOnDrawTwo"},
        {"reverseDeflect": True},
        {"skipDeflect": True},
    ],
    "W+4": [
        {"wildDrawFourChallenge": True},
        {"stacking": True, "stackWildDrawFour": True},
        {"stackDrawFour": True},
        {"crossStack": "drawTwoOnDrawFour"},
        {"reverseDeflect": True},
        {"skipDeflect": True},
    ],
    "W+8": [
        {"stacking": True, "stackWildDrawFour": True},
        {"stackDrawFour": True},
        {"skipDeflect": True},
    ],
}
# The options that act once a penalty is drawn, alone and together.
AFTER = ("penaltyDrawToMatch", "drawFourFollowColor", "wildDrawFourPlaysAgain")
AFTER_SETS = [
    dict.fromkeys(names, True) for n in range(len(AFTER) + 1) for names in combinations(AFTER, n)
]
# The penalty brings no playable card, so penaltyDrawToMatch draws on.
PILE = "Y1 Y2 G7 G8 Y6 G3 Y3 R5 B5 G1 G2 Y7"


def _penalty_drawn(card: str, options: dict[str, Any]) -> State:
    """Seat 0 lays ``card``; its penalty is drawn at once, or (waiting) seat 1 draws it."""
    if card == "W+8":
        options = {**options, "wildDrawEight": 2}
    state = position(
        ["R1 " + card + " G2", "B2 B3", "Y4 Y5"], "B9", color="B", draw=PILE, rules=options
    )
    play: dict[str, Any] = {"type": "play", "cards": [card]}
    if card.startswith("W"):
        play["color"] = "R"
    state, _ = apply(state, 0, parse_action(play))
    if state.pending:
        state, _ = apply(state, 1, parse_action({"type": "draw"}))
    return state


def _after(state: State) -> tuple[Any, ...]:
    return (state.turn, state.follow, state.drawn, state.hands, state.draw_pile, state.pending)


def test_a_penalty_leaves_the_same_table_drawn_at_once_or_after_waiting() -> None:
    """Whatever made it wait (stacking, cross-stacking, a deflecting card, the challenge),
    a penalty its victim draws leaves the table the one drawn at once leaves, under every
    option that acts once a penalty is drawn (engine.drawn_penalty)."""
    compared = 0
    for card, ways in WAITS_BY.items():
        for after in AFTER_SETS:
            at_once = _penalty_drawn(card, {**AT_ONCE, **after})
            assert not at_once.pending
            for waits in ways:
                waited = _penalty_drawn(card, {**AT_ONCE, **after, **waits})
                assert _after(waited) == _after(at_once), (card, after, waits)
                compared += 1
    assert compared == 8 * 13


def test_penalty_draw_to_match_acts_on_a_penalty_drawn_at_once() -> None:
    state = _penalty_drawn("B+2", {**AT_ONCE, "penaltyDrawToMatch": True})
    assert (state.turn, state.drawn) == (1, "B5")
    assert state.hands[1] == ("B2", "B3", "Y1", "Y2", "G7", "G8", "Y6", "G3", "Y3", "R5", "B5")


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


def test_a_bots_sample_keeps_a_pending_penaltys_player_as_the_engine_does() -> None:
    # With the challenge off, a stacked Wild Draw Four still keeps its player (for
    # wildDrawFourPlaysAgain); a Draw Two keeps none.
    for card, challenge in (("W+4", True), ("W+4", False), ("R+2", False)):
        rules = {"stacking": True, "stackWildDrawFour": True, "wildDrawFourChallenge": challenge}
        state = position(["B1 " + card + " G2", "B2 B3 W+4", "Y4 Y5"], "R9", rules=rules)
        play = {"type": "play", "cards": [card], "color": "R"}
        state, _ = apply(state, 0, parse_action(play))
        view = view_for(state, 1)
        unseen = unseen_of(view)
        assert unseen is not None
        sampled = sample_state(view, unseen, random.Random(1))
        assert sampled is not None
        assert sampled.wd4 == (state.wd4 and (state.wd4[0], False)), (card, challenge)


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
