"""The transition function: ``apply`` and, for bots and simulations, ``apply_legal``.

``apply(state, seat, action)`` checks everything first and raises a typed
:class:`~engine.errors.EngineError` on the first problem, so a refused action changes
nothing; only then does it copy the state and resolve the action, collecting events. The
checks are the ones ``legal_actions`` (engine.legal) lists by: engine.checks and each
rule's own module (docs/engine-api.md, *Where is the rule for X*), so the list and
``apply`` cannot disagree; nothing is kept on the state between the two.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NoReturn, overload

from engine import jump_in
from engine.actions import Action, ActionType, check_seat, parse_action
from engine.blind_draw import play_blind
from engine.blitz import clock_out
from engine.cards import FACES, SIDE_COLORS
from engine.challenge import challenge
from engine.checks import (
    PROBLEM_TEXT,
    can_play,
    pass_problem,
    play_refusal,
    turn_play_problem,
)
from engine.deal import start_deal
from engine.draft import draft_step
from engine.draw_to_match import turn_draw
from engine.drawn_penalty import take_penalty
from engine.effects import play_cards
from engine.errors import IllegalAction, InvalidAction
from engine.events import Event
from engine.follow_color import draw_to_follow
from engine.forced_play import MUST_PLAY, draw_forbidden
from engine.game_registry import other_game
from engine.game_state import GameState
from engine.hand_limit import knocked_out
from engine.hand_limit_out import settle
from engine.misplay import misplay
from engine.seven_zero import check_target, needs_target
from engine.state import State
from engine.turns import next_seat
from engine.uno_call import call_uno, catch_uno

Transition = tuple[State, list[Event]]


@overload
def apply(state: State, seat: int, action: Action) -> Transition: ...
@overload
def apply(state: GameState, seat: int, action: Action) -> tuple[GameState, list[Event]]: ...
def apply(state: GameState, seat: int, action: Action) -> tuple[GameState, list[Event]]:
    """The state after ``seat`` takes ``action``, and what happened (never mutates
    ``state``). Works for every game: UNO's own :class:`State` comes back as one, any
    other game's state as its own class.

    ``action`` is an :class:`Action` (parsed once where it came in, with
    :func:`~engine.actions.parse_action`). A caller without types (a test, a script) may
    pass the wire form instead: it is parsed here with that same function.

    :raises InvalidAction: the action or seat is malformed.
    :raises IllegalAction: the action is not allowed now (``err.code`` says why).
    """
    act = action if type(action) is Action else parse_action(action)
    if act.at is not None and act.at != state.moves:
        raise_too_late(state.moves, act.at)
    if type(state) is not State:
        return other_game(state).apply(state, seat, act)
    if type(seat) is not int or not 0 <= seat < state.players or state.out[seat]:
        _check_seat(state, seat)
    handler = _HANDLERS.get(act.type)
    if handler is None:
        raise IllegalAction("wrong_game", f"{act.type!r} is not an action of this game")
    if state.rules.hand_limit:
        return _settled(handler(state, seat, act))
    return handler(state, seat, act)


def _settled(transition: Transition) -> Transition:
    """handLimit: seats whose hands reached the limit leave the deal (engine.hand_limit_out)."""
    new, events = transition
    settle(new, events)
    return new, events


def raise_too_late(moves: int, at: int) -> NoReturn:
    """The one rule of ``at``: an action answering a position the table has left (or not
    reached) is refused, whatever it is, before anything else is checked. Every game's
    state counts its table moves in ``moves``."""
    raise IllegalAction(
        "too_late",
        f"too late: the table moved on (your action answers move {at}, the table is at {moves})",
    )


def _check_seat(state: State, seat: object) -> None:
    seat = check_seat(seat, state.players)
    if state.out[seat]:
        where = "the match" if knocked_out(state, seat) or not state.rules.placings else "the deal"
        raise IllegalAction("knocked_out", f"seat {seat} is out of {where}")


def _check_phase(state: State, phase: str, what: str) -> None:
    if state.phase != phase:
        raise IllegalAction("wrong_phase", f"cannot {what} during {state.phase!r}")


def _check_turn(state: State, seat: int, what: str) -> None:
    _check_phase(state, "playing", what)
    if seat != state.turn:
        raise IllegalAction("not_your_turn", f"it is seat {state.turn}'s turn, not seat {seat}'s")


# --- play ---------------------------------------------------------------------------------


def _play(state: State, seat: int, act: Action) -> Transition:
    if state.phase != "playing":
        _check_phase(state, "playing", "play")
    cards = act.cards
    if len(cards) == 1 and seat == state.turn and cards[0] in state.hands[seat]:
        # The commonest play, one card from the turn holder's hand: its one check, without
        # play_refusal's dispatch (which says the same).
        problem = turn_play_problem(state, seat, cards[0])
        if problem is not None:
            raise IllegalAction(problem, PROBLEM_TEXT[problem])
    else:
        refusal = play_refusal(state, seat, cards, act.uno)
        if refusal is not None:
            raise refusal
    last = FACES[state.side][cards[-1]]
    if last.is_wild and act.color not in SIDE_COLORS[state.side]:
        colors = list(SIDE_COLORS[state.side])
        raise InvalidAction("color_required", f"name a colour for {cards[-1]!r}: one of {colors}")
    if state.rules.seven_swaps and needs_target(state, seat, cards):
        check_target(state, seat, act.target)
    return _resolve_play(state, seat, act)


def _resolve_play(state: State, seat: int, act: Action) -> Transition:
    """The play, once every check has passed."""
    cards = act.cards
    new = state.moved()
    events: list[Event] = []
    jumps_in = seat != state.turn
    if jumps_in:
        jump_in.take_turn(new, seat, events)
    play_cards(new, seat, cards, act.color, act.uno, act.target, events)
    if jumps_in:
        jump_in.turn_after(state, new)
    return new, events


# --- draw, pass, challenge, colour -------------------------------------------------------


def _draw(state: State, seat: int, act: Action) -> Transition:
    if state.phase != "playing" or seat != state.turn:
        _check_turn(state, seat, "draw")
    if state.drawn is not None:
        raise IllegalAction("already_drew", "you drew already: play the drawn card or pass")
    if state.rules.forced_play and draw_forbidden(state, can_play(state, seat)):
        raise IllegalAction("must_play", MUST_PLAY)
    return _resolve_draw(state, seat, act)


def _resolve_draw(state: State, seat: int, act: Action) -> Transition:
    """The draw, once the turn and an earlier draw have been checked."""
    if state.follow:
        return draw_to_follow(state, seat)
    rules = state.rules
    new = state.moved()
    new.declared = None
    new.dump_color = None
    events: list[Event] = []
    if state.pending:
        _take_penalty(state, new, seat, events)
    else:
        turn_draw(new, seat, events)
    if rules.blind_draw and new.drawn is not None:
        play_blind(new, seat, events)
    return new, events


def _take_penalty(state: State, new: State, seat: int, events: list[Event]) -> None:
    """The turn holder draws the pending penalty (engine.drawn_penalty says who moves)."""
    new.pending = 0
    new.pending_kind = None
    new.wd4 = None
    layer = state.wd4[0] if state.wd4 is not None else None
    kind = state.pending_kind
    take_penalty(new, seat, kind, state.pending, layer, events, reason="penalty")


def _pass(state: State, seat: int, act: Action) -> Transition:
    _check_turn(state, seat, "pass")
    problem = pass_problem(state, seat)
    if problem is not None:
        raise IllegalAction(problem, PROBLEM_TEXT.get(problem, "draw a card before passing"))
    new = state.moved()
    new.drawn = None
    new.follow = 0
    new.turn = next_seat(new, seat, 1)
    return new, [{"type": "pass", "seat": seat}]


def _choose_color(state: State, seat: int, act: Action) -> Transition:
    _check_phase(state, "chooseColor", "choose a colour")
    if seat != state.turn:
        raise IllegalAction("not_your_turn", f"seat {state.turn} names the colour")
    colors = SIDE_COLORS[state.side]
    if act.color not in colors:
        raise InvalidAction("color_required", f"name a colour: one of {list(colors)}")
    new = state.moved()
    new.color = act.color
    new.phase = "playing"
    if state.after_color is not None:
        new.turn = state.after_color
        new.after_color = None
    return new, [{"type": "chooseColor", "seat": seat, "color": act.color}]


# --- between deals ------------------------------------------------------------------------


def _next_deal(state: State, seat: int, act: Action) -> Transition:
    _check_phase(state, "dealOver", "start the next deal")
    new = state.moved()
    new.direction = 1
    new.dealer = next_seat(new, state.dealer, 1)
    events = start_deal(new)
    return new, events


_HANDLERS: dict[ActionType, Callable[[State, int, Action], Transition]] = {
    "play": _play,
    "draw": _draw,
    "pass": _pass,
    "challenge": challenge,
    "chooseColor": _choose_color,
    "callUno": call_uno,
    "catchUno": catch_uno,
    "nextDeal": _next_deal,
    "misplay": misplay,
    "clockOut": lambda state, seat, act: clock_out(state, seat),
    "keep": draft_step,
    "discard": draft_step,
}


@overload
def apply_legal(state: State, seat: int, action: Action) -> Transition: ...
@overload
def apply_legal(state: GameState, seat: int, action: Action) -> tuple[GameState, list[Event]]: ...
def apply_legal(state: GameState, seat: int, action: Action) -> tuple[GameState, list[Event]]:
    """:func:`apply` for an action that ``legal_actions(state, seat)`` listed, without
    checking it again: for bots and simulations that choose from that list.

    The play and the draw skip their checks (they are most decisions); every other action
    goes through :func:`apply`'s own handler. The result equals :func:`apply`'s (a
    property test plays random games through both); for an action that was not listed
    it is undefined: it may return a state no rule allows instead of raising. Other
    games than UNO's own states take :func:`apply`.
    """
    if type(state) is not State:
        return apply(state, seat, action)
    resolve = _UNCHECKED.get(action.type) or _HANDLERS[action.type]
    if state.rules.hand_limit:
        return _settled(resolve(state, seat, action))
    return resolve(state, seat, action)


# The resolutions apply_legal runs without their checks.
_UNCHECKED: dict[ActionType, Callable[[State, int, Action], Transition]] = {
    "play": _resolve_play,
    "draw": _resolve_draw,
}
