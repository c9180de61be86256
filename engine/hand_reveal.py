"""Hand reveal (``handReveal``: 0 off, else 5-30): a hand of that many cards or more is
shown to everyone (every seat's view and the spectators'), for as long as it is that big.
It is the one rule that shows a hand during a deal, and it shows exactly those hands."""

from __future__ import annotations

from engine.state import State


def shown_hands(state: State) -> list[list[str] | None] | None:
    """Per seat, its cards if the rule shows them now, else None; None when the rule is
    off (the view then carries no such list)."""
    size = state.rules.hand_reveal
    if not size:
        return None
    return [list(h) if len(h) >= size else None for h in state.hands]
