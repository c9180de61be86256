"""What the two searching bots (engine.bots.hard, engine.bots.ismcts) share: when two
listed actions are one move, and how much work a decision may take."""

from __future__ import annotations

from engine.actions import Action
from engine.rules import Rules

Key = tuple[object, ...]


def move_key(action: Action) -> Key:
    """One move, whatever else the action carries (an UNO call with it, the move it
    answers): the same card, colour and seat is the same choice."""
    return (action.type, action.cards, action.color, action.target)


def budget_for(rules: Rules, budget: int) -> int:
    """A decision's work under ``rules``: halved where every engine step is dearer (group
    plays, seven targets, draws until a match)."""
    heavy = not rules.plain_plays or rules.draw_to_match or rules.penalty_draw_to_match
    return budget // 2 if heavy else budget
