"""UNO Rommy (preset ``rommy``): rummy played with UNO cards (docs/variants-party.md).

A deal: seven cards each, dealt one at a time from the dealer's left; the next card starts
the discard pile; the rest is the stock. A turn has two steps:

1. ``draw`` (step ``draw``): draw from the stock (``draw``), take the top discard
   (``takeDiscard``) or take the whole discard pile (``takePile``: only when your hand and
   the pile hold a meld, and your next move must then be a ``meld``). A pending Draw Two
   makes the draw two cards and rules out taking from the discard pile.
2. ``play``: any number of ``meld``, ``layOff`` and ``swapJoker``, then ``discardCard``.
   You always keep one card to discard: going out is a final discard.

Skip / Draw Two / Reverse act when discarded on a card of their colour. A deal ends when a
player discards their last card; each seat scores the cards it laid on the table (lay-offs
onto others' melds included) minus the cards left in its hand. Melds and jokers are in
:mod:`engine.variants.rommy.melds`; docs/variants-party.md has every choice.

The package: ``state`` (the state and its JSON), ``melds`` (melds and jokers), ``game``
(dealing, checks, transitions, legal actions), ``view`` (views and summary), ``scenario``
(the scenario runner's positions); what it shares with Bottle UNO is in
:mod:`engine.variants.skeleton`.
"""

from __future__ import annotations

from engine.game_registry import GameKind, register
from engine.variants.rommy.game import (
    apply,
    can_take_pile,
    deal_again,
    legal_actions,
    new_match,
    start_deal,
)
from engine.variants.rommy.scenario import from_deck, from_setup, initial_state
from engine.variants.rommy.state import HAND_SIZE, RommyState, card_points, empty_match
from engine.variants.rommy.view import all_cards, summary, view_for

__all__ = [
    "HAND_SIZE",
    "RommyState",
    "all_cards",
    "apply",
    "can_take_pile",
    "card_points",
    "deal_again",
    "empty_match",
    "from_deck",
    "from_setup",
    "initial_state",
    "legal_actions",
    "new_match",
    "start_deal",
    "summary",
    "view_for",
]

register(
    GameKind(
        name="rommy",
        new_match=new_match,
        apply=apply,
        legal_actions=legal_actions,
        view_for=view_for,
        summary=summary,
        from_json=RommyState.from_json,
        state_class=RommyState,
        deal_again=deal_again,
        options=("decks", "targetScore", "roundLimit", "drinks", "sipsAsPoints"),
    )
)
