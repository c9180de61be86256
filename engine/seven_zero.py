"""Seven-zero (``sevenZero``, or ``sevenSwap`` and ``zeroPass`` alone): a 7 swaps hands
with a seat its player names (the play's ``target``), a 0 passes every hand one seat on
(``zeroPassDirection``: with the direction of play or against it). ``swapOnLastCard``
lets a last 7 or 0 still swap: the player who went out then holds cards again, and
whoever holds none afterwards has gone out.

The listing (engine.legal) and apply (engine.transition) both ask :func:`needs_target` and
:func:`target_problem`; the effect runs from engine.effects.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import placings
from engine.cards import FACES
from engine.errors import IllegalAction, InvalidAction
from engine.events import Event
from engine.match import end_deal
from engine.rules import Rules
from engine.state import State
from engine.turns import next_seat


def needs_target(state: State, seat: int, cards: tuple[str, ...]) -> bool:
    """Does playing ``cards`` swap hands with a seat the player names (a 7 under a seven
    rule, unless it is the last card and last cards do not swap)?"""
    rank = FACES[state.side][cards[-1]].rank
    return swap_needs_target(state.rules, rank, len(state.hands[seat]), len(cards))


def swap_needs_target(rules: Rules, rank: str, held: int, played: int) -> bool:
    """:func:`needs_target` from the parts of a position (what a seat's view shows too):
    the last card's rank, the cards held and the cards played."""
    return rules.seven_swaps and rank == "7" and (held > played or rules.swap_on_last_card)


def target_problem(state: State, seat: int, target: int) -> str | None:
    """Why ``target`` cannot be the seat a 7 swaps with (an error code), or None."""
    return swap_target_problem(state.players, state.out, seat, target)


def swap_target_problem(players: int, out: Sequence[bool], seat: int, target: int) -> str | None:
    """:func:`target_problem` from the parts of a position (what a seat's view shows too):
    the table's size and which seats are out."""
    if not 0 <= target < players or target == seat or out[target]:
        return "bad_target"
    return None


def targets(state: State, seat: int) -> list[int]:
    """Every seat ``seat``'s 7 may swap with."""
    return [t for t in range(state.players) if target_problem(state, seat, t) is None]


def check_target(state: State, seat: int, target: int | None) -> None:
    """Refuse a 7's play without a seat to swap with, or with one it cannot swap with."""
    if target is None:
        raise InvalidAction("target_required", "choose the seat a 7 swaps hands with ('target')")
    if target_problem(state, seat, target) is not None:
        raise IllegalAction("bad_target", f"seat {target!r} cannot be the target")


def swaps(new: State, rank: str, target: int | None) -> bool:
    rules = new.rules
    return (rank == "7" and rules.seven_swaps and target is not None) or (
        rank == "0" and rules.zero_passes
    )


def swap_effect(new: State, seat: int, rank: str, target: int | None, events: list[Event]) -> None:
    if rank == "7" and target is not None:
        _swap_hands(new, seat, target, events)
    else:
        _pass_hands(new, events)
    hands_moved(new)


def hands_moved(new: State) -> None:
    # Calls and exposures belong to the player who played down to one card; once hands
    # change owners nobody has failed to call for the hand they now hold.
    new.exposed = None
    new.declared = None


def end_if_someone_is_out(new: State, seat: int, events: list[Event]) -> None:
    """After a last-card swap the player who went out holds cards again; whoever now holds
    none (the swap partner, or the seat the empty hand passed to) has gone out."""
    empty = [s for s in new.active_seats() if not new.hands[s]]
    if empty and new.rules.placings and placings.leaves(new, empty[0]):
        new.turn = next_seat(new, seat, 1)
        placings.score_going_out(new, empty[0], events)
    elif empty:
        end_deal(new, empty[0], events)
    else:
        new.turn = next_seat(new, seat, 1)


def _swap_hands(new: State, seat: int, target: int, events: list[Event]) -> None:
    hands = list(new.hands)
    hands[seat], hands[target] = hands[target], hands[seat]
    new.hands = tuple(hands)
    events.append({"type": "swapHands", "seat": seat, "target": target})


def _pass_hands(new: State, events: list[Event]) -> None:
    """Every hand moves one seat on (with or against the direction of play)."""
    step = 1 if new.rules.zero_pass_direction == "withPlay" else -1
    seats = new.active_seats()
    hands = list(new.hands)
    if new.direction * step < 0:
        seats.reverse()
    # seats is now ordered the way the hands travel: each goes to the next in the list.
    for i, s in enumerate(seats):
        hands[seats[(i + 1) % len(seats)]] = new.hands[s]
    new.hands = tuple(hands)
    events.append({"type": "passHands", "direction": new.direction * step})
