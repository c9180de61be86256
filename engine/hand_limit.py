"""Hand limit (``handLimit``: 0 off, else 8-30, with ``handLimitRule``).

- ``stopDrawing``: a hand of the limit draws no more; a draw (a penalty, a catch, a
  bomb's card) takes only what fits, the rest is forgiven.
- ``out``: a player whose hand reaches the limit (by drawing, or by hands passed or
  swapped) is out of the deal: skipped for the rest of it, the hand kept as it stands and
  scored at the deal's end. When one player is left in the deal, they win it as if they
  had gone out (their own cards count nothing). Everyone is back for the next deal.

``out`` marks the seat in ``State.out`` (which next_seat and the legal actions already
skip); which seats are knocked out of the whole match is read from the totals
(:func:`knocked_out`), so the next deal can bring the others back.
"""

from __future__ import annotations

from engine.events import Event
from engine.state import State


def knocked_out(state: State, seat: int) -> bool:
    """Out of the match (knockout scoring), not only out of this deal."""
    rules = state.rules
    return rules.match_mode == "knockout" and state.totals[seat] >= rules.target_score


def room_for(state: State, seat: int, count: int) -> int:
    """How many of ``count`` cards ``seat`` may draw now."""
    limit = state.rules.hand_limit
    if not limit or state.rules.hand_limit_rule != "stopDrawing":
        return count
    return max(0, min(count, limit - len(state.hands[seat])))


def back_in(state: State) -> None:
    """A new deal (a working copy): every seat not knocked out of the match plays again
    (those out of this deal only under handLimit or placings are back)."""
    if state.rules.hand_limit or state.rules.placings:
        state.out = tuple(knocked_out(state, s) for s in range(state.players))


def settle(new: State, events: list[Event]) -> None:
    """After a change (a working copy): ``out`` seats whose hands reached the limit leave
    the deal; a turn they held passes on; the last one left wins the deal."""
    from engine.match import end_deal  # (match imports this module)
    from engine.turns import next_seat

    rules = new.rules
    if rules.hand_limit_rule != "out" or new.phase != "playing":
        return
    limit = rules.hand_limit
    reached = [s for s, hand in enumerate(new.hands) if not new.out[s] and len(hand) >= limit]
    if not reached:
        return
    new.out = tuple(o or s in reached for s, o in enumerate(new.out))
    events.append({"type": "handLimit", "seats": reached})
    left = new.active_seats()
    if len(left) == 1:
        end_deal(new, left[0], events)
        return
    if new.out[new.turn]:
        new.drawn = None
        new.follow = 0
        new.turn = next_seat(new, new.turn, 1)
    if new.exposed is not None and new.out[new.exposed]:
        new.exposed = None
