"""Policies for the party games, whose turns are not UNO's: UNO Rommy and Bottle UNO.

**UNO Rommy** (``normal`` and ``hard``): in the draw step it takes the top discard when
that card completes a meld with its hand or fits a meld on the table, else draws from the
stock (it never takes the whole pile). In the play step it lays the biggest meld it can,
then lays off whatever fits, then discards: an action card that acts on the card below
first (a Draw Two before a Skip before a Reverse), else the card least likely to join a
meld (action cards before number cards, a lone number before one with neighbours), the
one worth most points first; a joker only when nothing else is left.

**Bottle UNO** has no choice to make: the turn holder turns the card (green and yellow
sips go to the next player).
"""

from __future__ import annotations

from engine.actions import Action
from engine.bots.reading import View, legal, on_turn
from engine.cards import CARD_INFO
from engine.variants.rommy import card_points
from engine.variants.rommy.melds import Meld, candidate_melds, fits, is_joker, is_natural

ACTING_ORDER = {"+2": 3, "S": 2, "R": 1}


def choose_bottle(view: View) -> Action | None:
    if not on_turn(view) or view.get("phase") != "playing":
        return None
    return Action("turnCard")


def choose_rommy(view: View) -> Action | None:
    if not on_turn(view) or view.get("phase") != "playing":
        return None
    actions = legal(view)
    if not actions:
        return None
    if view.get("step") == "draw":
        return _draw_step(view, actions)
    melds = [a for a in actions if a.type == "meld"]
    if melds:
        return max(melds, key=lambda a: (len(a.cards), sum(card_points(c) for c in a.cards)))
    for action in actions:
        if action.type == "layOff":
            return action
    discards = [a for a in actions if a.type == "discardCard"]
    if not discards:
        return actions[0]
    hand = list(view.get("hand") or ())
    return max(discards, key=lambda a: _discard_score(view, hand, a.cards[0]))


def _draw_step(view: View, actions: list[Action]) -> Action:
    top = view.get("top")
    hand = list(view.get("hand") or ())
    wanted = False
    if top is not None and is_natural(top):
        table = [Meld.from_json(m) for m in view.get("melds") or ()]
        wanted = any(top in m for m in candidate_melds([*hand, top])) or any(
            fits(m, top) for m in table
        )
    for kind in ("takeDiscard", "draw") if wanted else ("draw",):
        for action in actions:
            if action.type == kind:
                return action
    return actions[0]


def _discard_score(view: View, hand: list[str], card: str) -> tuple[int, int, int, int]:
    """Bigger means a better card to throw away."""
    info = CARD_INFO[card]
    top = view.get("top")
    acts = info.rank in ACTING_ORDER and top is not None and CARD_INFO[top].color == info.color
    if is_joker(card):
        return (-1, 0, 0, 0)
    if not is_natural(card):
        return (1, ACTING_ORDER.get(info.rank, 0) if acts else 0, 0, card_points(card))
    others = list(hand)
    others.remove(card)
    partners = 0
    for other in others:
        o = CARD_INFO[other]
        if not is_natural(other):
            continue
        if o.rank == info.rank:
            partners += 2
        elif o.color == info.color and abs(int(o.rank) - int(info.rank)) <= 2:
            partners += 1
    return (0, 0, -partners, card_points(card))
