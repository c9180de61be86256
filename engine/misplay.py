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

from engine.actions import Action
from engine.checks import play_refusal
from engine.errors import IllegalAction
from engine.events import Event
from engine.game_state import GameState
from engine.state import State
from engine.turns import draw_cards

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


def penalty_for(state: GameState, action: Action, code: str) -> Action | None:
    """The ``misplay`` action a room applies after ``action`` was refused with the error
    ``code``, or None when the refusal costs nothing."""
    if not state.rules.misplay_penalty or action.type != "play":
        return None
    if code not in MISPLAYS or state.phase != "playing":
        return None
    return Action("misplay", action.cards)


def misplay(state: State, seat: int, act: Action) -> tuple[State, list[Event]]:
    """The ``misplay`` action: ``seat`` draws the penalty for the refused play of
    ``act.cards``; nothing else changes."""
    refusal = None
    if state.rules.misplay_penalty and state.phase == "playing":
        refusal = play_refusal(state, seat, act.cards, act.uno)
    if refusal is None or refusal.code not in MISPLAYS:
        raise IllegalAction("no_misplay", "there is no refused play to pay a penalty for")
    new = state.copy()  # no table move, as a catch: the turn and every window stay
    if new.exposed == seat:
        new.exposed = None  # holding two cards again: nothing to catch
    if new.declared == seat:
        new.declared = None
    events: list[Event] = [
        {"type": "misplay", "seat": seat, "cards": list(act.cards), "code": refusal.code}
    ]
    draw_cards(new, seat, PENALTY_CARDS, events, reason="misplay")
    return new, events
