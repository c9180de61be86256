"""Wild Draw Four plays again (``wildDrawFourPlaysAgain``, UNO Duo): once a Wild Draw
Four's penalty has been drawn (at once, after it waited, or by a challenger who lost),
its player takes another turn. It counts for the Wild Draw Four's stacking family (a Wild
Draw Eight with it), the same cards as ``drawFourFollowColor`` (engine.follow_color),
which it comes before.
"""

from __future__ import annotations

from engine.rules import Rules
from engine.stacking import STACK_FAMILY
from engine.state import State


def plays_again(rules: Rules, kind: str | None) -> bool:
    """Does the player of a penalty of ``kind`` (a rank or a pending kind) play again
    once it is drawn?"""
    return rules.wild_draw_four_plays_again and STACK_FAMILY.get(kind or "") == "W+4"


def play_again(new: State, player: int) -> None:
    """The penalty is drawn: ``player``, who laid it, holds the turn again."""
    new.turn = player
