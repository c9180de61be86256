"""The ``easy`` bot: on its turn the first legal move; never out of turn.

It plays the first card the view lists (else draws, else passes), names the first colour
for a wild, swaps with the first opponent listed for a seven and calls UNO with its
next-to-last card. It never jumps in, catches or challenges.
"""

from __future__ import annotations

import random

from engine.actions import Action
from engine.bots.reading import (
    OUT_OF_TURN,
    View,
    colors,
    complete_play,
    legal,
    on_turn,
    swap_targets,
)


def choose_easy(view: View, rng: random.Random) -> Action | None:
    if not on_turn(view):
        return None
    for action in legal(view):
        if action.type in OUT_OF_TURN or action.type == "nextDeal":
            continue
        if action.type == "play":
            others = swap_targets(view)
            target = others[0]["seat"] if others else None
            return complete_play(view, action.cards, colors(view)[0], target)
        if action.type == "chooseColor" and action.color is None:
            return action._replace(color=colors(view)[0])
        return action
    return None
