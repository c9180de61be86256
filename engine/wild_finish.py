"""No finishing on a Wild (``noWildFinish``): the last card may not be a wild (any wild,
a Wild Draw Four included; a Flip side's wilds too). The player holding only a wild must
draw instead, as under ``forbidActionFinish`` (which refuses wilds and action cards)."""

from __future__ import annotations

from engine.cards import CardInfo
from engine.rules import Rules

PROBLEM = "wild_finish_forbidden"
TEXT = "your last card may not be a wild"


def wild_finish_refused(rules: Rules, info: CardInfo, cards_left: int) -> bool:
    """Is playing ``info`` refused when it would leave ``cards_left`` cards?"""
    return rules.no_wild_finish and cards_left == 0 and info.is_wild
