"""What a played card does: UNO exposure, going out, and each card's effect on the table.

These functions work on a working copy that :func:`engine.game.apply` made after every
check passed; they cannot refuse anything.
"""

from __future__ import annotations

import random

from engine.cards import CARD_INFO, CardInfo
from engine.events import Event
from engine.match import end_deal
from engine.state import State
from engine.turns import active_count, draw_cards, next_seat

# Cards whose effect is a draw penalty on the next player, and how many cards.
PENALTY = {"+2": 2, "W+4": 4}


def play_card(
    new: State, seat: int, card: str, color: str | None, uno: bool, events: list[Event]
) -> None:
    """Move ``card`` from the hand to the discard pile and set the colour; settle UNO."""
    hands = new.hands
    held = hands[seat]
    at = held.index(card)
    hand = held[:at] + held[at + 1 :]
    new.hands = hands[:seat] + (hand,) + hands[seat + 1 :]
    new.discard = new.discard + (card,)
    new.drawn = None
    new.color = CARD_INFO[card].color or color
    events.append({"type": "play", "seat": seat, "cards": [card], "color": new.color})
    if len(hand) == 1:
        if uno or new.declared == seat:
            events.append({"type": "callUno", "seat": seat})
        elif new.rules.uno_penalty > 0:
            new.exposed = seat
    new.declared = None


def finish_play(
    new: State, seat: int, info: CardInfo, target: int | None, bluff: bool, events: list[Event]
) -> None:
    """The card's effect, or the end of the deal when the hand is empty."""
    if not new.hands[seat]:
        _go_out(new, seat, info, events)
        return
    rank = info.rank
    rules = new.rules
    if rank == "S":
        skipped = next_seat(new, seat, 1)
        events.append({"type": "skip", "seat": skipped})
        new.turn = next_seat(new, seat, 2)
    elif rank == "R":
        _reverse(new, seat, events)
    elif rank in PENALTY:
        _penalty(new, seat, rank, bluff, events)
    elif rules.seven_zero and rank == "7" and target is not None:
        _swap_hands(new, seat, target, events)
        new.turn = next_seat(new, seat, 1)
    elif rules.seven_zero and rank == "0":
        _pass_hands(new, events)
        new.turn = next_seat(new, seat, 1)
    elif rank == "WSH":
        _shuffle_hands(new, seat, events)
        new.turn = next_seat(new, seat, 1)
    else:
        new.turn = next_seat(new, seat, 1)


def _reverse(new: State, seat: int, events: list[Event]) -> None:
    if active_count(new) == 2:
        # With two players a Reverse acts as a Skip: the same player goes again.
        events.append({"type": "skip", "seat": next_seat(new, seat, 1)})
        new.turn = seat
        return
    new.direction = -new.direction
    events.append({"type": "reverse", "direction": new.direction})
    new.turn = next_seat(new, seat, 1)


def _penalty(new: State, seat: int, rank: str, bluff: bool, events: list[Event]) -> None:
    """A Draw Two or Wild Draw Four: pending (stacking, or a challenge to decide) or drawn."""
    rules = new.rules
    amount = PENALTY[rank]
    challengeable = rank == "W+4" and rules.wild_draw_four_challenge
    if rules.stacking or challengeable:
        new.pending += amount
        new.pending_kind = rank
        new.wd4 = (seat, bluff) if challengeable else None
        new.turn = next_seat(new, seat, 1)
        return
    victim = next_seat(new, seat, 1)
    draw_cards(new, victim, amount, events, reason=rank)
    new.turn = next_seat(new, victim, 1)


def _go_out(new: State, seat: int, info: CardInfo, events: list[Event]) -> None:
    """The deal ends; a Draw Two / Wild Draw Four still makes the next player draw first."""
    if info.rank in PENALTY:
        victim = next_seat(new, seat, 1)
        draw_cards(new, victim, new.pending + PENALTY[info.rank], events, reason="lastCard")
    new.pending = 0
    end_deal(new, seat, events)


def _swap_hands(new: State, seat: int, target: int, events: list[Event]) -> None:
    hands = list(new.hands)
    hands[seat], hands[target] = hands[target], hands[seat]
    new.hands = tuple(hands)
    events.append({"type": "swapHands", "seat": seat, "target": target})


def _pass_hands(new: State, events: list[Event]) -> None:
    """Every hand moves one seat on (with or against the direction of play)."""
    step = 1 if new.rules.zero_pass_direction == "withPlay" else -1
    seats = new.active_seats()
    hands = list(new.hands)
    if new.direction * step < 0:
        seats.reverse()
    # seats is now ordered the way the hands travel: each goes to the next in the list.
    moved = {seats[(i + 1) % len(seats)]: new.hands[s] for i, s in enumerate(seats)}
    for s, hand in moved.items():
        hands[s] = hand
    new.hands = tuple(hands)
    events.append({"type": "passHands", "direction": new.direction * step})


def _shuffle_hands(new: State, seat: int, events: list[Event]) -> None:
    """Wild Shuffle Hands: gather every hand, shuffle, deal from the player on the left."""
    cards = [c for s in new.active_seats() for c in new.hands[s]]
    new.shuffles += 1
    random.Random(f"{new.seed}:{new.shuffles}").shuffle(cards)
    hands = [list(h) if new.out[s] else [] for s, h in enumerate(new.hands)]
    receiver = seat
    for card in cards:
        receiver = next_seat(new, receiver, 1)
        hands[receiver].append(card)
    new.hands = tuple(tuple(h) for h in hands)
    events.append({"type": "shuffleHands", "seat": seat})
