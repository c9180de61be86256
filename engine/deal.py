"""Starting a deal: the dealer's draw, the shuffle, dealing seven each, the first card.

Every shuffle is seeded from the match seed and a counter kept in the state, so a match
replays exactly from its seed and its action log.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from engine.cards import CARD_INFO, NUMBERS, build_deck
from engine.events import Event
from engine.first_card import turn_first_card
from engine.rules import Rules
from engine.seeded_shuffle import shuffle
from engine.state import State
from engine.turns import next_seat, shuffle_seed

HAND_SIZE = 7


def choose_dealer(players: int, seed: str) -> tuple[int, list[Event]]:
    """Everyone draws a card; the highest deals (action cards count 0); ties draw again."""
    pile = build_deck("classic108", 1)
    shuffle(f"{seed}:dealer", pile)
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
    state.rules = rules
    state.players = players
    state.seed = seed
    state.shuffles = 0
    state.deal = 0
    state.dealer = dealer
    state.phase = "dealing"
    state.hands = ((),) * players
    state.draw_pile = ()
    state.discard = ()
    state.color = None
    state.turn = dealer
    state.direction = 1
    state.pending = 0
    state.pending_kind = None
    state.wd4 = None
    state.drawn = None
    state.exposed = None
    state.declared = None
    state.caught = None
    state.totals = (0,) * players
    state.deal_scores = None
    state.winner = None
    state.out = (False,) * players
    state.moves = 0
    state.follow = 0
    state.after_color = None
    state.draft = ()
    state.dump_color = None
    state.drinks = (0,) * players if rules.drinks else None
    state.sips = ()
    state.side = "light"
    state.placed = ()
    state.place_points = ()
    return state


def deck_for(rules: Rules) -> list[str]:
    """Every card the rules put in play, in a fixed order (a fresh list)."""
    return list(_deck(rules.deck, rules.decks, rules.wild_draw_eight, rules.everybody_draws_two))


@lru_cache(maxsize=64)
def _deck(deck: str, copies: int, wild_draw_eight: int, draw_two_all: int) -> tuple[str, ...]:
    # Built once per combination: every new deal starts from it.
    extras: tuple[tuple[str, int], ...] = (("W+8", wild_draw_eight), ("A+2", draw_two_all))
    if deck == "flip112":
        extras = ()  # the extra cards have no dark face
    return tuple(build_deck(deck, copies, extras))


def start_deal(state: State, deck_top_first: Sequence[str] | None = None) -> list[Event]:
    """Deal the next deal into ``state`` (a working copy) and turn up the first card.

    ``deck_top_first`` stacks the deck (scenarios); otherwise the full deck is shuffled.
    Under ``dealMethod: draft`` the deal waits in phase ``draft`` instead.
    """
    if deck_top_first is None:
        pile = deck_for(state.rules)
        shuffle(shuffle_seed(state), pile)
    else:
        pile = list(reversed(deck_top_first))
    state.deal += 1
    state.hands = tuple(() for _ in range(state.players))
    state.draw_pile = tuple(pile)
    state.discard = ()
    state.draft = ()
    state.direction = 1
    state.pending = 0
    state.pending_kind = None
    state.wd4 = None
    state.drawn = None
    state.follow = 0
    state.after_color = None
    state.dump_color = None
    state.side = "light"
    state.exposed = state.declared = state.caught = None
    state.deal_scores = None
    state.winner = None
    state.placed = ()
    state.place_points = ()
    events: list[Event] = [{"type": "deal", "deal": state.deal, "dealer": state.dealer}]
    if state.rules.deal_method == "draft":
        # UNO Duo: player 1 (the dealer) drafts first; the first card waits for the draft.
        state.phase = "draft"
        state.turn = state.dealer
        return events
    _deal_hands(state)
    events += turn_first_card(state)
    return events


def _deal_hands(state: State) -> None:
    """Seven cards each, one at a time, starting left of the dealer."""
    order = []
    seat = state.dealer
    for _ in range(len(state.active_seats())):
        seat = next_seat(state, seat, 1)
        order.append(seat)
    pile = state.draw_pile
    hands = [list(h) for h in state.hands]
    dealt = HAND_SIZE * len(order)
    if dealt <= len(pile):
        # The n-th seat in order gets the pile's n-th card from the top, then every
        # len(order)-th card after it: the cards one-at-a-time dealing gives it.
        top = len(pile) - 1
        stop = top - dealt if dealt <= top else None  # just past the last card dealt
        for n, seat in enumerate(order):
            hands[seat] += pile[top - n : stop : -len(order)]
        pile = pile[: len(pile) - dealt]
    else:
        # A stacked deck too short for full hands: deal until it runs out.
        cards = list(pile)
        for _ in range(HAND_SIZE):
            for seat in order:
                if cards:
                    hands[seat].append(cards.pop())
        pile = tuple(cards)
    state.hands = tuple(tuple(h) for h in hands)
    state.draw_pile = pile
