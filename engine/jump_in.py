"""Jumping in (``jumpIn``): a player holding a card identical to the top card (same
colour and same number or symbol; never a wild) may play it out of turn, while no penalty
is pending and no Wild Draw Four colour is owed. Play then goes on from the player who
jumped in, or (``jumpInContinuesFrom: turnHolder``, number cards only) the turn holder's
turn goes on as it was.

The listing (engine.legal) and apply (engine.transition) both ask :func:`jump_in_problem`;
apply runs the jump-in's play between :func:`take_turn` and :func:`turn_after`.
"""

from __future__ import annotations

from engine.action_finish import PROBLEM as ACTION_FINISH
from engine.action_finish import action_finish_refused
from engine.cards import FACES
from engine.events import Event
from engine.state import State


def jump_in_problem(state: State, seat: int, card: str) -> str | None:
    """Why ``seat`` may not jump in with ``card`` now (an error code), or None. (A stale
    ``at`` was refused before: see engine.transition.apply.)"""
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


def jump_cards(state: State, seat: int) -> list[str]:
    """The cards ``seat`` may jump in with now, each once: its copies of the top card
    (by the face in play: in UNO Flip two cards may share it and differ on the other
    side), as :func:`jump_in_problem` judges them."""
    if not state.rules.jump_in:
        return []
    return [
        card
        for card in dict.fromkeys(state.hands[seat])
        if jump_in_problem(state, seat, card) is None
    ]


def take_turn(new: State, seat: int, events: list[Event]) -> None:
    """``seat`` jumps in (a working copy, every check passed): the play that follows, run
    as any play (engine.effects), is theirs."""
    events.append({"type": "jumpIn", "seat": seat})
    new.turn = seat


def turn_after(state: State, new: State) -> None:
    """After the jump-in's play: under ``jumpInContinuesFrom: turnHolder`` the turn
    holder's turn goes on as it was, a drawn card still in hand included."""
    turn_holder = state.turn
    if state.rules.jump_in_continues_from == "turnHolder" and new.phase == "playing":
        new.turn = turn_holder
        if state.drawn in new.hands[turn_holder]:
            new.drawn = state.drawn
