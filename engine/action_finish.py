"""No finishing on an action card (``forbidActionFinish``): the last card must be a number
card. The player holding only an action card or a wild must draw instead; a play of
several cards that empties the hand must end on a number; a jump-in with the last card
too (engine.jump_in). ``noWildFinish`` (engine.wild_finish) refuses wilds alone.
"""

from __future__ import annotations

from engine.cards import CardInfo
from engine.rules import Rules

PROBLEM = "action_finish_forbidden"
TEXT = "your last card must be a number card"


def action_finish_refused(rules: Rules, info: CardInfo, cards_left: int) -> bool:
    """Is playing ``info`` last refused when it would leave ``cards_left`` cards?"""
    return rules.forbid_action_finish and cards_left == 0 and not info.is_number
