"""The quick policies the search bots play a deal on with, through the engine's own list.

Every move is one ``legal_actions`` listed (so ``apply_legal`` may apply it): the engine
judges what may be played; these only pick.
"""

from __future__ import annotations

import random

from engine.actions import Action
from engine.api import legal_actions
from engine.cards import FACES, SIDE_COLORS
from engine.state import State


def held_colors(state: State, seat: int) -> dict[str, int]:
    """How many cards of each colour of the side in play the seat holds (wilds count for
    none)."""
    faces = FACES[state.side]
    held = dict.fromkeys(SIDE_COLORS[state.side], 0)
    for card in state.hands[seat]:
        color = faces[card].color
        if color is not None:
            held[color] += 1
    return held


def quick_move(state: State, seat: int, rng: random.Random) -> Action:
    """The others' moves: a random non-wild play, a wild when nothing else plays, else
    draw or pass."""
    actions = legal_actions(state, seat)
    faces = FACES[state.side]
    plays = [a for a in actions if a.type == "play"]
    if plays:
        plain = [a for a in plays if not faces[a.cards[-1]].is_wild]
        return rng.choice(plain or plays)
    for action in actions:
        if action.type == "draw" or action.type == "pass":
            return action
    return rng.choice(actions)


def own_move(state: State, seat: int, rng: random.Random) -> Action:
    """The bot's own moves, a quick cut of the normal policy: a non-wild card of the colour
    it holds most (the most cards laid first), a wild (naming that colour) only when
    nothing else plays."""
    actions = legal_actions(state, seat)
    faces = FACES[state.side]
    held = held_colors(state, seat)
    best: Action | None = None
    best_score = -99
    for action in actions:
        if action.type != "play":
            continue
        info = faces[action.cards[-1]]
        if info.is_wild:
            score = held.get(action.color or "", 0) - 50
        else:
            score = held.get(info.color or "", 0) + len(action.cards) * 10
        if score > best_score:
            best, best_score = action, score
    if best is not None:
        return best
    for action in actions:
        if action.type == "draw" or action.type == "pass":
            return action
    return rng.choice(actions)
