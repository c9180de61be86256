"""Hand limit under ``handLimitRule: out``: a seat whose hand reached the limit leaves
the deal (engine.hand_limit holds the limit itself; this module the leaving, which may
end the deal, so it sits above engine.match).
"""

from __future__ import annotations

from engine.events import Event
from engine.match import end_deal
from engine.state import State
from engine.turns import next_seat


def settle(new: State, events: list[Event]) -> None:
    """After a change (a working copy): ``out`` seats whose hands reached the limit leave
    the deal; a turn they held passes on; the last one left wins the deal."""
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
