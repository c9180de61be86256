"""Strict UNO (``strictUno``): UNO must be called before the next-to-last card leaves the
hand (with the play, or by ``callUno`` before it), never after. A player who played down
to one card without calling may not call any more: any other seat may catch them until
the next table move. It needs a penalty to catch with (``unoPenalty`` above 0)."""

from __future__ import annotations

from engine.state import State

LATE = "this room plays strict UNO: call it with your next-to-last card, not after"


def late_call_refused(state: State) -> bool:
    """Is an exposed player's own late call refused?"""
    return state.rules.strict_uno
