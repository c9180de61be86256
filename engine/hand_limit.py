"""Hand limit (``handLimit``: 0 off, else 8-30, with ``handLimitRule``).

- ``stopDrawing``: a hand of the limit draws no more; a draw (a penalty, a catch, a
  bomb's card) takes only what fits, the rest is forgiven.
- ``out``: a player whose hand reaches the limit (by drawing, or by hands passed or
  swapped) is out of the deal: skipped for the rest of it, the hand kept as it stands and
  scored at the deal's end. When one player is left in the deal, they win it as if they
  had gone out (their own cards count nothing). Everyone is back for the next deal.

``out`` marks the seat in ``State.out`` (which next_seat and the legal actions already
skip; the leaving is engine.hand_limit_out's); which seats are knocked out of the whole
match is read from the totals (:func:`knocked_out`), so the next deal can bring the
others back.
"""

from __future__ import annotations

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
