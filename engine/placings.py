"""Placings (``placings``): the deal goes on after the first player goes out, until one
player is left, and the finishing order is scored.

A player who empties their hand while two or more others still hold cards leaves the deal
with the next place (1st, 2nd, ...): their seat is out of the deal (``State.out``, which
the turn order and the legal actions already skip, as for a seat out under handLimit).
Their last card still acts as it would with cards left (a Skip skips, a Draw Two makes the
next player draw or stack, a Wild's colour stands), except a 7 or 0 under a seven-zero rule,
which swaps or passes nothing, as for any last card. When the next-to-last player goes
out, the deal ends as any deal does (a closing draw penalty is drawn first) and the player
left takes the last place.

Every going out is a scoring moment for the hands still in the deal at that moment (every
other player still in it), valued as the scoring options value a hand:

- ``winnerCollects`` (highest total wins): the player going out scores those hands' value;
- ``ownHandCounts`` (lowest wins): each holder scores its own hand's value.

So the same points change hands in both modes, and the earlier a player goes out the better:
under ``winnerCollects`` the first collects the most, the last scores nothing; under
``ownHandCounts`` the first scores nothing and a hand is counted once more at every going
out it sat through. With two players it is the classic scoring. The deal's winner is the
first player out. ``doubleScore`` doubles the deal's points as for any deal.
"""

from __future__ import annotations

from engine.events import Event
from engine.scoring import card_values
from engine.state import State


def leaves(new: State, seat: int) -> bool:
    """``seat`` (in a working copy) has just emptied its hand. True: two or more others
    are still in the deal, ``seat`` is now out of it and play goes on (score it with
    :func:`score_going_out` once its last card has acted). False: the deal ends."""
    if sum(1 for s in new.active_seats() if s != seat) < 2:
        return False
    out = list(new.out)
    out[seat] = True
    new.out = tuple(out)
    return True


def score_going_out(new: State, seat: int, events: list[Event]) -> None:
    """The scoring moment of ``seat`` going out (see the module text), and its place."""
    rules = new.rules
    value = card_values(rules, new.side).__getitem__
    points = list(new.place_points or (0,) * new.players)
    for other in new.active_seats():
        if other == seat:
            continue
        held = sum(map(value, new.hands[other]))
        if rules.lowest_wins:
            points[other] += held
        else:
            points[seat] += held
    new.place_points = tuple(points)
    new.placed = (*new.placed, seat)
    events.append({"type": "placed", "seat": seat, "place": len(new.placed)})


def close(state: State, seat: int, events: list[Event], flagged: int | None = None) -> int:
    """The deal ends with ``seat`` going out (or, after a match clock ran out, counted as
    going out): its scoring moment, then the places of everyone still in the deal (the one
    left; after a clock ran out by hand value, lowest first, the ``flagged`` seat last).
    Returns the deal's winner: the first player out."""
    score_going_out(state, seat, events)
    value = card_values(state.rules, state.side).__getitem__
    rest = [s for s in state.active_seats() if s not in state.placed]
    rest.sort(key=lambda s: (s == flagged, sum(map(value, state.hands[s])), s))
    for other in rest:
        state.placed = (*state.placed, other)
        events.append({"type": "placed", "seat": other, "place": len(state.placed)})
    return state.placed[0]


def place_of(state: State, seat: int) -> int | None:
    """``seat``'s place this deal (1-based), or None while it has none."""
    if seat in state.placed:
        return state.placed.index(seat) + 1
    return None
