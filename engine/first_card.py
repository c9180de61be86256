"""The first card: which cards go back into the pile, and how the one turned up acts.

A first action card acts as a card played, through the very effect a play runs
(:func:`engine.effects.card_effect`), so a first card and the same card played later
cannot come to disagree. Who counts as its player, and whether its penalty may wait to be
answered, is what the rules decide here:

- ``classic``: the first player is the one left of the dealer. A Skip, Draw Two or Draw
  One acts as the dealer's play with its penalty drawn at once (the rule texts have the
  first player draw: nobody may stack on or deflect a first Draw Two). A Reverse acts as
  the first player's: the dealer starts and play goes right (with two players a Reverse
  is a Skip, the dealer's: the dealer starts all the same).
- ``firstCardPlayedByDealer``: every first action card is the dealer's play in full, so
  its penalty waits whenever a played one would (stacking, a deflecting Reverse or Skip,
  cross-stacking).
- ``firstCardRules: duo``: player 1's (the dealer's) play with its penalty drawn at once,
  and a Wild Draw Four acts too (then player 1, under ``wildDrawFourPlaysAgain``, plays
  again); a Reverse does not act: player 2 may dump its colour (engine.duo_dump).

A wild (but Duo's Wild Draw Four) only asks for the colour: the first player names it
under ``classic``; the dealer (player 1) otherwise, and then the seat the card's effect
left the turn to plays.
"""

from __future__ import annotations

from engine.cards import FACES, CardInfo
from engine.effects import card_effect
from engine.events import Event
from engine.rules import Rules
from engine.seeded_shuffle import shuffle
from engine.state import State
from engine.turns import active_count, next_seat, shuffle_seed


def sent_back(rules: Rules, info: CardInfo) -> bool:
    """Whether a first card goes back into the pile instead of starting the discards."""
    if rules.first_card_rules == "duo":
        return False
    if info.rank in ("W+4", "W+8", "W+2", "F"):
        return True
    return info.is_wild and rules.first_card_wild == "reshuffle"


def turn_first_card(state: State) -> list[Event]:
    """Turn up the first card (sending back what the rules send back) and act on it."""
    rules = state.rules
    events: list[Event] = []
    while True:
        pile = list(state.draw_pile)
        card = pile.pop()
        info = FACES["light"][card]
        # A card goes back only while some card could take its place (else it would
        # come round again for ever): then it starts the pile as it is.
        if not sent_back(rules, info) or all(sent_back(rules, FACES["light"][c]) for c in pile):
            state.draw_pile = tuple(pile)
            break
        if info.rank in ("W+4", "W+2") and rules.first_card_wild_draw_four == "bury":
            pile.insert(0, card)  # the bottom of the pile: nobody knows where it is
            events.append({"type": "firstCardBuried", "card": card})
        else:
            pile.append(card)
            shuffle(shuffle_seed(state), pile)
            events.append({"type": "firstCardReshuffled", "card": card})
        state.draw_pile = tuple(pile)
    state.discard = (card,)
    state.phase = "playing"
    state.color = info.color
    events.append({"type": "firstCard", "card": card})
    act_on_first_card(state, info, events)
    return events


def act_on_first_card(state: State, info: CardInfo, events: list[Event]) -> None:
    """The first card's effect on the table (see the module text); ``state`` is a working
    copy whose discard pile holds that card alone."""
    rules = state.rules
    duo = rules.first_card_rules == "duo"
    by_dealer = rules.first_card_played_by_dealer and not duo
    dealer = state.dealer
    first = next_seat(state, dealer, 1)
    state.turn = first
    if duo and info.rank == "R":
        state.dump_color = info.color
        return
    if first_card_acts(rules, info):
        player = dealer
        if info.rank == "R" and not (duo or by_dealer) and active_count(state) > 2:
            player = first
        card_effect(state, player, info.rank, 1, None, False, events, may_wait=by_dealer)
    if info.is_wild:
        then = state.turn
        state.phase = "chooseColor"
        if duo or by_dealer:
            state.turn = dealer
            state.after_color = then


def first_card_acts(rules: Rules, info: CardInfo) -> bool:
    """Does a first card act as played? Numbers never do (a first 7 or 0 swaps no hands),
    wilds only name a colour, but for UNO Duo's Wild Draw Four."""
    if info.is_wild:
        return rules.first_card_rules == "duo" and info.rank == "W+4"
    return not info.is_number
