"""Calling UNO, and catching a player who did not (``unoPenalty``, ``strictUno``).

A player calls UNO as they play their next-to-last card (the play's ``uno`` flag), or
before it with ``callUno`` while holding two cards on their turn (``state.declared``). A
player who played down to one card without calling is ``exposed``: any other seat may
catch them (``catchUno``: they draw ``unoPenalty`` cards) until the next table move, and
they may still call it themselves first, unless the room plays strict UNO: then the call
had to come with the next-to-last card, never after. Without a penalty (``unoPenalty``
0) nobody is exposed and nobody can be caught.

The listing (engine.legal) and apply (engine.transition) both use the tests here.
"""

from __future__ import annotations

from engine.actions import Action
from engine.errors import IllegalAction, InvalidAction
from engine.events import Event
from engine.state import State
from engine.turns import draw_cards

CALL = Action("callUno")
LATE = "this room plays strict UNO: call it with your next-to-last card, not after"


def call_needed(left: int, played: int) -> bool:
    """Must a play leaving ``left`` cards, ``played`` laid at once, call UNO to be legal?
    One that empties the hand with more than one card passes through one card: without
    the call it is refused (``uno_before_last_card``)."""
    return left == 0 and played > 1


def calls_with(left: int, played: int) -> bool:
    """Does a player who means to call UNO call it with this play: the next-to-last card,
    or the last cards laid together (which must)?"""
    return left == 1 or call_needed(left, played)


def late_call_refused(state: State) -> bool:
    """strictUno: is an exposed player's own late call refused?"""
    return state.rules.strict_uno


def may_declare(state: State, seat: int) -> bool:
    """May ``seat`` call UNO ahead of its next-to-last card: the turn holder during play,
    holding two cards?"""
    return state.phase == "playing" and seat == state.turn and len(state.hands[seat]) == 2


def catch_problem(state: State, seat: int, target: int) -> str | None:
    """Why ``seat`` may not catch ``target`` now (an error code), or None."""
    if not 0 <= target < state.players or target == seat:
        return "bad_target"
    if state.rules.uno_penalty == 0:
        return "uno_penalty_off"
    if state.exposed != target:
        if state.caught == target or len(state.hands[target]) == 1:
            return "too_late"
        return "nothing_to_catch"
    return None


def settle_call(new: State, seat: int, left: int, uno: bool, events: list[Event]) -> None:
    """After ``seat``'s play left it ``left`` cards (a working copy): down to one card (or
    out with ``uno``), the call was made (with the play, or declared before it) or the
    player is exposed; a declared call is used up by the play."""
    if left == 1 or (left == 0 and uno):
        if uno or new.declared == seat:
            events.append({"type": "callUno", "seat": seat})
        elif new.rules.uno_penalty > 0:
            new.exposed = seat
    if new.declared == seat:
        new.declared = None


def add_declare(state: State, seat: int, actions: list[Action]) -> None:
    """The listing: the turn holder's call ahead of its next-to-last card (once)."""
    if state.declared != seat and may_declare(state, seat):
        actions.append(CALL)


def add_window(state: State, seat: int, actions: list[Action]) -> None:
    """The listing while a seat is exposed: its own late call, or the others' catch."""
    exposed = state.exposed
    if exposed is None:
        return
    if exposed == seat:
        if not late_call_refused(state):
            actions.append(CALL)
    elif catch_problem(state, seat, exposed) is None:
        actions.append(Action("catchUno", target=exposed))


def call_uno(state: State, seat: int, act: Action) -> tuple[State, list[Event]]:
    """``callUno``: an exposed player's late call, or the turn holder's call ahead."""
    if state.exposed == seat:
        if late_call_refused(state):
            raise IllegalAction("too_late", LATE)
        new = state.copy()
        new.exposed = None
        return new, [{"type": "callUno", "seat": seat}]
    if may_declare(state, seat):
        new = state.copy()
        new.declared = seat
        return new, [{"type": "callUno", "seat": seat}]
    if state.caught == seat:
        raise IllegalAction("too_late", "you were caught before you called UNO")
    raise IllegalAction("nothing_to_call", "call UNO as you play your next-to-last card")


_CATCH_TEXT = {
    "bad_target": "seat {target!r} cannot be caught by seat {seat}",
    "uno_penalty_off": "this room has no penalty for a missed UNO call",
    "too_late": "seat {target} called UNO or was caught already",
    "nothing_to_catch": "seat {target} has nothing to be caught for",
}


def catch_uno(state: State, seat: int, act: Action) -> tuple[State, list[Event]]:
    """``catchUno``: the exposed player draws the room's penalty."""
    target = act.target
    if target is None:
        raise InvalidAction("target_required", "name the seat you catch ('target')")
    problem = catch_problem(state, seat, target)
    if problem is not None:
        raise IllegalAction(problem, _CATCH_TEXT[problem].format(target=target, seat=seat))
    new = state.copy()
    new.exposed = None
    new.caught = target
    events: list[Event] = [{"type": "catchUno", "seat": seat, "target": target}]
    draw_cards(new, target, state.rules.uno_penalty, events, reason="unoPenalty")
    return new, events
