"""Starting a deal: the dealer's draw, the shuffle, dealing seven each, the first card.

Every shuffle takes its own ``random.Random`` seeded from the match seed and a counter kept
in the state, so a match replays exactly from its seed and its action log.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.cards import CARD_INFO, NUMBERS, build_deck
from engine.events import Event
from engine.rules import Rules
from engine.state import State
from engine.turns import draw_cards, next_seat

HAND_SIZE = 7


def rng_for(state: State) -> random.Random:
    """A fresh RNG for the next shuffle; counts the shuffle in ``state`` (a working copy)."""
    state.shuffles += 1
    return random.Random(f"{state.seed}:{state.shuffles}")


def choose_dealer(players: int, seed: str) -> tuple[int, list[Event]]:
    """Everyone draws a card; the highest deals (action cards count 0); ties draw again."""
    pile = build_deck("classic108", 1)
    random.Random(f"{seed}:dealer").shuffle(pile)
    contenders = list(range(players))
    events: list[Event] = []
    while True:
        draws = [(seat, pile.pop()) for seat in contenders]
        events.append({"type": "dealerDraw", "draws": [[s, c] for s, c in draws]})
        values = {seat: _dealer_value(card) for seat, card in draws}
        best = max(values.values())
        contenders = [seat for seat in contenders if values[seat] == best]
        if len(contenders) == 1 or not pile:
            return contenders[0], events


def _dealer_value(card: str) -> int:
    rank = CARD_INFO[card].rank
    return int(rank) if rank in NUMBERS else 0


def new_state(rules: Rules, players: int, seed: str, dealer: int) -> State:
    """An empty match: no cards dealt yet, phase ``dealing``."""
    state = State.__new__(State)
    for name, value in (
        ("rules", rules),
        ("players", players),
        ("seed", seed),
        ("shuffles", 0),
        ("deal", 0),
        ("dealer", dealer),
        ("phase", "dealing"),
        ("hands", tuple(() for _ in range(players))),
        ("draw_pile", ()),
        ("discard", ()),
        ("color", None),
        ("turn", dealer),
        ("direction", 1),
        ("pending", 0),
        ("pending_kind", None),
        ("wd4", None),
        ("drawn", None),
        ("exposed", None),
        ("declared", None),
        ("caught", None),
        ("totals", (0,) * players),
        ("deal_scores", None),
        ("winner", None),
        ("out", (False,) * players),
        ("moves", 0),
    ):
        object.__setattr__(state, name, value)
    return state


def start_deal(state: State, deck_top_first: Sequence[str] | None = None) -> list[Event]:
    """Deal the next deal into ``state`` (a working copy) and turn up the first card.

    ``deck_top_first`` stacks the deck (scenarios); otherwise the full deck is shuffled.
    """
    rules = state.rules
    if deck_top_first is None:
        pile = build_deck(rules.deck, rules.decks)
        rng_for(state).shuffle(pile)
    else:
        pile = list(reversed(deck_top_first))
    state.deal += 1
    state.hands = tuple(() for _ in range(state.players))
    state.draw_pile = tuple(pile)
    state.discard = ()
    state.direction = 1
    state.pending = 0
    state.pending_kind = None
    state.wd4 = None
    state.drawn = None
    state.exposed = state.declared = state.caught = None
    state.deal_scores = None
    state.winner = None
    _deal_hands(state)
    events: list[Event] = [{"type": "deal", "deal": state.deal, "dealer": state.dealer}]
    events += _turn_first_card(state)
    return events


def _deal_hands(state: State) -> None:
    """Seven cards each, one at a time, starting left of the dealer."""
    hands = [list(h) for h in state.hands]
    pile = list(state.draw_pile)
    order = []
    seat = state.dealer
    for _ in range(len(state.active_seats())):
        seat = next_seat(state, seat, 1)
        order.append(seat)
    for _ in range(HAND_SIZE):
        for seat in order:
            if pile:
                hands[seat].append(pile.pop())
    state.hands = tuple(tuple(h) for h in hands)
    state.draw_pile = tuple(pile)


def _turn_first_card(state: State) -> list[Event]:
    rules = state.rules
    events: list[Event] = []
    while True:
        pile = list(state.draw_pile)
        card = pile.pop()
        info = CARD_INFO[card]
        sent_back = info.rank == "W+4" or (info.is_wild and rules.first_card_wild == "reshuffle")
        if not sent_back:
            state.draw_pile = tuple(pile)
            break
        if info.rank == "W+4" and rules.first_card_wild_draw_four == "bury":
            pile.insert(0, card)  # the bottom of the pile: nobody knows where it is
            events.append({"type": "firstCardBuried", "card": card})
        else:
            pile.append(card)
            rng_for(state).shuffle(pile)
            events.append({"type": "firstCardReshuffled", "card": card})
        state.draw_pile = tuple(pile)
    state.discard = (card,)
    first = next_seat(state, state.dealer, 1)
    events.append({"type": "firstCard", "card": card})
    state.turn = first
    state.phase = "playing"
    state.color = info.color
    if info.is_wild:
        state.phase = "chooseColor"
    elif info.rank == "+2":
        draw_cards(state, first, 2, events, reason="drawTwo")
        state.turn = next_seat(state, first, 1)
    elif info.rank == "S":
        events.append({"type": "skip", "seat": first})
        state.turn = next_seat(state, first, 1)
    elif info.rank == "R":
        state.direction = -1
        state.turn = state.dealer
        events.append({"type": "reverse", "direction": -1})
    return events
