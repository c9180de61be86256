"""Misplay penalty (``misplayPenalty``): an illegal play attempt costs a card.

The attempt itself is refused and changes nothing, as every refused action. The room then
applies the penalty as a change of its own: the action ``misplay`` (``cards``: the cards
the refused play tried), which the engine accepts only while the rule is on and that play
would be refused for being illegal (a card that does not match, a penalty pending, a
forbidden finish, an out-of-turn play that is no jump-in, ...): the seat draws one card,
and nothing else changes (the turn stays where it was, a pending penalty too). Malformed
actions, cards the seat does not hold and plays that came too late (``at``) cost nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# The refusals of a play that count as a misplay.
MISPLAYS = frozenset(
    {
        "card_not_playable",
        "penalty_pending",
        "wild_draw_four_restricted",
        "action_finish_forbidden",
        "wild_finish_forbidden",
        "not_your_turn",
        "must_follow_color",
        "only_drawn_card",
        "bad_combination",
        "one_card_only",
        "dump_all_or_nothing",
    }
)
PENALTY_CARDS = 1


def penalty_for(state: Any, action: Mapping[str, Any], code: str) -> dict[str, Any] | None:
    """The ``misplay`` action a room applies after ``action`` was refused with the error
    ``code``, or None when the refusal costs nothing."""
    rules = getattr(state, "rules", None)
    if rules is None or not getattr(rules, "misplay_penalty", False):
        return None
    if not isinstance(action, Mapping) or action.get("type") != "play":
        return None
    if code not in MISPLAYS or getattr(state, "phase", None) != "playing":
        return None
    return {"type": "misplay", "cards": list(action.get("cards") or ())}
