"""Wild Draw Four plays again (``wildDrawFourPlaysAgain``, UNO Duo): once a Wild Draw
Four's penalty has been drawn (at once, after it waited, or by a challenger who lost),
its player takes another turn. It comes before ``drawFourFollowColor``
(engine.follow_color). A Wild Draw Eight does not play again: a pending penalty records
only a challengeable card's player (``State.wd4``), so one stacked on it could not know
who to give the turn to.
"""

from __future__ import annotations

from engine.rules import Rules
from engine.state import State


def plays_again(rules: Rules, kind: str | None) -> bool:
    """Does the player of a penalty of ``kind`` (the card's rank, or the pending kind of
    a penalty a Wild Draw Four laid last) play again once it is drawn?"""
    return rules.wild_draw_four_plays_again and kind == "W+4"


def play_again(new: State, player: int) -> None:
    """The penalty is drawn: ``player``, who laid it, holds the turn again."""
    new.turn = player
