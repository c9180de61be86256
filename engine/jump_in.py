"""Jumping in (``jumpIn``): a player holding a card identical to the top card (same
colour and same number or symbol; never a wild) may play it out of turn, while no penalty
is pending and no Wild Draw Four colour is owed. Play then goes on from the player who
jumped in, or (``jumpInContinuesFrom: turnHolder``, number cards only) the turn holder's
turn goes on as it was.

The listing (engine.legal) and apply (engine.game) both ask :func:`jump_in_problem`.
"""

from __future__ import annotations

from engine.action_finish import PROBLEM as ACTION_FINISH
from engine.action_finish import action_finish_refused
from engine.actions import Action
from engine.cards import FACES
from engine.effects import play_cards
from engine.events import Event
from engine.state import State


def jump_in_problem(state: State, seat: int, card: str) -> str | None:
    """Why ``seat`` may not jump in with ``card`` now (an error code), or None. (A stale
    ``at`` was refused before: see engine.game.apply.)"""
    rules = state.rules
    faces = FACES[state.side]
    info = faces[card]
    if not rules.jump_in:
        return "not_your_turn"
    top = state.discard[-1]
    same = card == top or info.code == faces[top].code
    if info.is_wild or state.pending or not same:
        return "not_your_turn"
    if state.follow or (rules.jump_in_continues_from == "turnHolder" and not info.is_number):
        return "not_your_turn"
    if action_finish_refused(rules, info, len(state.hands[seat]) - 1):
        return ACTION_FINISH
    return None


def jump_card(state: State, seat: int) -> str | None:
    """The card ``seat`` may jump in with now (a copy of the top card), or None."""
    if not state.rules.jump_in:
        return None
    top = state.discard[-1]
    if top in state.hands[seat] and jump_in_problem(state, seat, top) is None:
        return top
    return None


def jump_in(state: State, new: State, seat: int, act: Action, events: list[Event]) -> None:
    """``seat`` plays ``act`` out of turn (a working copy ``new`` of ``state``, every check
    passed): the play takes the turn, unless the turn holder's turn goes on."""
    events.append({"type": "jumpIn", "seat": seat})
    new.turn = seat
    play_cards(new, seat, act.cards, act.color, act.uno, act.target, events)
    turn_holder = state.turn
    if state.rules.jump_in_continues_from == "turnHolder" and new.phase == "playing":
        # The turn holder's turn goes on as it was, a drawn card still in hand included.
        new.turn = turn_holder
        if state.drawn in new.hands[turn_holder]:
            new.drawn = state.drawn
