"""Starting a deal: the dealer's draw, the shuffle, dealing seven each, the first card.

Every shuffle is seeded from the match seed and a counter kept in the state, so a match
replays exactly from its seed and its action log.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from engine.cards import CARD_INFO, FACES, NUMBERS, CardInfo, build_deck
from engine.drinks import sip
from engine.events import Event
from engine.rules import Rules
from engine.shuffle import shuffle
from engine.state import State
from engine.turns import draw_cards, next_seat, shuffle_seed

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


def _sent_back(rules: Rules, info: CardInfo) -> bool:
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
        if not _sent_back(rules, info) or all(_sent_back(rules, FACES["light"][c]) for c in pile):
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
    if rules.first_card_rules == "duo":
        _first_card_duo(state, info, events)
    elif rules.first_card_played_by_dealer:
        _first_card_by_dealer(state, info, events)
    else:
        _first_card_classic(state, info, events)
    return events


def _first_card_classic(state: State, info: CardInfo, events: list[Event]) -> None:
    first = next_seat(state, state.dealer, 1)
    state.turn = first
    if info.is_wild:
        state.phase = "chooseColor"
    elif info.rank in ("+2", "+1"):
        draw_cards(state, first, 2 if info.rank == "+2" else 1, events, reason=info.rank)
        state.turn = next_seat(state, first, 1)
    elif info.rank == "S":
        _skipped(state, first, events)
        state.turn = next_seat(state, first, 1)
    elif info.rank == "R":
        state.direction = -1
        state.turn = state.dealer
        events.append({"type": "reverse", "direction": -1})


def _first_card_by_dealer(state: State, info: CardInfo, events: list[Event]) -> None:
    """DrukUNO: an action card turned up first acts as if the dealer had played it."""
    dealer = state.dealer
    first = next_seat(state, dealer, 1)
    state.turn = first
    if info.is_wild:
        state.phase = "chooseColor"
        state.turn = dealer
        state.after_color = first
    elif info.rank == "+2":
        if state.rules.stacking:
            state.pending = 2
            state.pending_kind = "+2"
        else:
            draw_cards(state, first, 2, events, reason="drawTwo")
            state.turn = next_seat(state, first, 1)
    elif info.rank == "S":
        _skipped(state, first, events)
        state.turn = next_seat(state, first, 1)
    elif info.rank == "R":
        if len(state.active_seats()) == 2:
            _skipped(state, first, events)
            state.turn = dealer
        else:
            state.direction = -1
            state.turn = next_seat(state, dealer, 1)
            events.append({"type": "reverse", "direction": -1})


def _first_card_duo(state: State, info: CardInfo, events: list[Event]) -> None:
    """UNO Duo: player 2 (left of the dealer) starts; player 1 names a first wild's colour."""
    player1 = state.dealer
    player2 = next_seat(state, player1, 1)
    state.turn = player2
    if info.rank in ("+2", "W+4"):
        draw_cards(state, player2, 2 if info.rank == "+2" else 4, events, reason=info.rank)
        state.turn = player1
    if info.is_wild:
        state.phase = "chooseColor"
        state.after_color = player1 if info.rank == "W+4" else player2
        state.turn = player1
    elif info.rank == "S":
        _skipped(state, player2, events)
        state.turn = player1
    elif info.rank == "R":
        state.dump_color = info.color


def _skipped(state: State, seat: int, events: list[Event]) -> None:
    events.append({"type": "skip", "seat": seat})
    sip(state, seat, 1, "skipped", events)
