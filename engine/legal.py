"""Every action a seat may take right now, as :class:`~engine.actions.Action` values.

Built from the same checks :func:`engine.game.apply` runs, so the list and the transition
cannot disagree: a property test plays random games choosing only from this list.
"""

from __future__ import annotations

from engine.actions import Action
from engine.cards import CARD_INFO, COLORS
from engine.game import jump_in_problem, turn_play_problem
from engine.state import State

_DRAW = Action("draw")
_PASS = Action("pass")
_CHALLENGE = Action("challenge")
_CALL = Action("callUno")
_NEXT = Action("nextDeal")
_CHOOSE = tuple(Action("chooseColor", color=c) for c in COLORS)
# Plays that need no target, built once: legal_actions runs before every decision.
_PLAYS = {
    card: tuple(Action("play", (card,), color=c) for c in COLORS)
    if info.is_wild
    else (Action("play", (card,)),)
    for card, info in CARD_INFO.items()
}


def legal_actions(state: State, seat: int) -> list[Action]:
    """Every action ``seat`` may take now; wild plays once per colour, seven swaps once per
    target seat."""
    if not 0 <= seat < state.players or state.out[seat]:
        return []
    phase = state.phase
    if phase == "dealOver":
        return [_NEXT]
    if phase == "chooseColor":
        return list(_CHOOSE) if seat == state.turn else []
    if phase != "playing":
        return []
    actions: list[Action] = []
    hand = state.hands[seat]
    if seat == state.turn:
        _turn_actions(state, seat, hand, actions)
    elif state.rules.jump_in:
        top = state.discard[-1]
        if top in hand and jump_in_problem(state, seat, top, None) is None:
            _add_plays(state, seat, top, actions)
    exposed = state.exposed
    if exposed is not None:
        if exposed == seat:
            actions.append(_CALL)
        elif state.rules.uno_penalty > 0:
            actions.append(Action("catchUno", target=exposed))
    return actions


def _turn_actions(state: State, seat: int, hand: tuple[str, ...], actions: list[Action]) -> None:
    if state.drawn is not None:
        _add_plays(state, seat, state.drawn, actions)
        actions.append(_PASS)
        return
    if state.pending or _needs_full_check(state, hand):
        for card in dict.fromkeys(hand):
            if turn_play_problem(state, seat, card) is None:
                _add_plays(state, seat, card, actions)
    else:
        # The common case, inlined: a colour, number/symbol or wild match is enough.
        color = state.color
        top_rank = CARD_INFO[state.discard[-1]].rank
        seven_zero = state.rules.seven_zero
        for card in dict.fromkeys(hand):
            info = CARD_INFO[card]
            if info.color is None or info.color == color or info.rank == top_rank:
                if seven_zero and info.rank == "7":
                    _add_plays(state, seat, card, actions)
                else:
                    actions.extend(_PLAYS[card])
    actions.append(_DRAW)
    if state.wd4 is not None:
        actions.append(_CHALLENGE)
    if len(hand) == 2 and state.declared != seat:
        actions.append(_CALL)


def _needs_full_check(state: State, hand: tuple[str, ...]) -> bool:
    """Whether a rule beyond plain matching could refuse some card in ``hand``."""
    rules = state.rules
    if rules.forbid_action_finish and len(hand) == 1:
        return True
    return not rules.wild_draw_four_challenge and "W+4" in hand


def _add_plays(state: State, seat: int, card: str, actions: list[Action]) -> None:
    if state.rules.seven_zero and CARD_INFO[card].rank == "7" and len(state.hands[seat]) > 1:
        actions.extend(
            Action("play", (card,), target=t)
            for t in range(state.players)
            if t != seat and not state.out[t]
        )
    else:
        actions.extend(_PLAYS[card])
