"""The checks a play, a draw or a pass must pass: shared by the listing (engine.legal) and
apply (engine.transition), so the two cannot disagree.

Each check answers with an error code (None: allowed); apply turns a code into a refusal
(``PROBLEM_TEXT`` holds the English text), the listing lists what none of them refuses.
Checks that belong to one rule live in that rule's module and are called from here:
the Wild Draw Four restriction (engine.wild_draw_four), jump-in (engine.jump_in), stacking
(engine.stacking), seven-zero's targets (engine.seven_zero), the UNO call
(engine.uno_call), forced play (engine.forced_play), the last card (engine.action_finish,
engine.wild_finish), following the colour (engine.follow_color), the Duo dump
(engine.duo_dump).
"""

from __future__ import annotations

from collections import Counter

from engine.action_finish import PROBLEM as ACTION_FINISH
from engine.action_finish import TEXT as ACTION_FINISH_TEXT
from engine.action_finish import action_finish_refused
from engine.cards import FACES, NUMBERS
from engine.duo_dump import PROBLEM as DUMP
from engine.duo_dump import TEXT as DUMP_TEXT
from engine.duo_dump import dump_problem, is_dump
from engine.errors import IllegalAction
from engine.follow_color import follow_problem
from engine.follow_color import pass_problem as follow_pass_problem
from engine.forced_play import MUST_PLAY_DRAWN, keeping_forbidden
from engine.jump_in import jump_in_problem
from engine.matching import plain_match
from engine.stacking import answers_pending
from engine.state import State
from engine.uno_call import call_needed
from engine.wild_draw_four import restricted_play_refused
from engine.wild_finish import PROBLEM as WILD_FINISH
from engine.wild_finish import TEXT as WILD_FINISH_TEXT
from engine.wild_finish import wild_finish_refused

MULTI_RANKS = frozenset(NUMBERS + ("S", "R", "+2"))


def turn_play_problem(state: State, seat: int, card: str) -> str | None:
    """Why the turn holder may not start a play with ``card`` now (an error code), or None."""
    faces = FACES[state.side]
    info = faces[card]
    rules = state.rules
    if state.follow:
        return follow_problem(state, info)
    if state.drawn is not None and card != state.drawn:
        return "only_drawn_card"
    if state.pending:
        return None if answers_pending(state, info) else "penalty_pending"
    if not plain_match(info, state.color, faces[state.discard[-1]].rank):
        return "card_not_playable"
    if rules.plain_checks:
        return None
    if restricted_play_refused(state, state.hands[seat], card, info.rank):
        return "wild_draw_four_restricted"
    hand = state.hands[seat]
    if action_finish_refused(rules, info, len(hand) - 1):
        return ACTION_FINISH
    if wild_finish_refused(rules, info, len(hand) - 1):
        return WILD_FINISH
    return None


def multi_problem(state: State, seat: int, cards: tuple[str, ...], uno: bool) -> str | None:
    """Why ``cards`` (two or more) cannot be played together now, or None."""
    hand = state.hands[seat]
    faces = FACES[state.side]
    if Counter(cards) - Counter(hand):
        return "card_not_in_hand"
    if is_dump(state, cards):
        dump = dump_problem(state, hand, cards)
        if dump is not None:
            return dump
    elif not state.rules.multi_play:
        return "one_card_only"
    else:
        ranks = {faces[c].rank for c in cards}
        if len(ranks) != 1 or not ranks <= MULTI_RANKS:
            return "bad_combination"
    if len(cards) == len(hand):
        if not uno and call_needed(0, len(cards)):
            return "uno_before_last_card"
        if action_finish_refused(state.rules, faces[cards[-1]], 0):
            return ACTION_FINISH
        if wild_finish_refused(state.rules, faces[cards[-1]], 0):
            return WILD_FINISH
    return None


PROBLEM_TEXT = {
    "only_drawn_card": "after drawing you may play only the card you drew",
    "penalty_pending": "a draw penalty is pending: stack a matching card or draw",
    "card_not_playable": "that card matches neither the colour nor the number or symbol",
    "wild_draw_four_restricted": "a Wild Draw Four may not be played while you hold a"
    " matching card",
    ACTION_FINISH: ACTION_FINISH_TEXT,
    "not_your_turn": "it is not your turn",
    "must_follow_color": "after a Wild Draw Four you must play its colour",
    "card_not_in_hand": "you do not hold all of those cards",
    DUMP: DUMP_TEXT,
    "one_card_only": "this room plays one card at a time",
    "bad_combination": "cards played together must share one number or one action type",
    "uno_before_last_card": 'call UNO before your last card: send the play with "uno": true',
    "must_play_drawn": MUST_PLAY_DRAWN,
    WILD_FINISH: WILD_FINISH_TEXT,
}


def play_refusal(
    state: State, seat: int, cards: tuple[str, ...], uno: bool
) -> IllegalAction | None:
    """Why ``seat`` may not play ``cards`` now (during play), or None."""
    card = cards[0]
    hand = state.hands[seat]
    if card not in hand:
        return IllegalAction("card_not_in_hand", f"you do not hold {card!r}")
    jump = seat != state.turn
    if jump:
        problem = jump_in_problem(state, seat, card) if len(cards) == 1 else "not_your_turn"
    else:
        problem = turn_play_problem(state, seat, card)
        if problem is None and len(cards) > 1:
            problem = multi_problem(state, seat, cards, uno)
    if problem is None:
        return None
    text = PROBLEM_TEXT[problem]
    if problem == "not_your_turn":
        text = f"it is seat {state.turn}'s turn, and {card!r} cannot jump in"
    return IllegalAction(problem, text)


def can_play(state: State, seat: int) -> bool:
    """Could the turn holder start a play with some card of its hand now?"""
    return any(turn_play_problem(state, seat, c) is None for c in dict.fromkeys(state.hands[seat]))


def pass_problem(state: State, seat: int) -> str | None:
    if state.follow:
        return follow_pass_problem(state, seat)
    if state.drawn is None:
        return "cannot_pass"
    if state.rules.forced_play_drawn:
        playable = turn_play_problem(state, seat, state.drawn) is None
        return "must_play_drawn" if keeping_forbidden(state, playable) else None
    return None
