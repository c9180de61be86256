"""What a play does: UNO exposure, going out, and each card's effect on the table.

These functions work on a working copy that :func:`engine.transition.apply` made after every
check passed; they cannot refuse anything. A play is one card, or several under
``multiPlay`` (one number, or one action type: N Skips skip N players, N Reverses flip the
direction N times, N Draw Twos add 2 each) or a UNO Duo Reverse dump (the last card acts).
"""

from __future__ import annotations

from engine import placings
from engine.bomb import explode, is_bomb
from engine.cards import FACES, NUMBERS
from engine.drawn_penalty import take_penalty
from engine.drinks import sip
from engine.events import Event
from engine.flip import flip
from engine.match import end_deal
from engine.seeded_shuffle import shuffle
from engine.seven_zero import end_if_someone_is_out, hands_moved, swap_effect, swaps
from engine.stacking import DEFLECTORS, PENALTY, STACK_FAMILY, deflect, penalty_waits
from engine.state import State
from engine.turns import active_count, draw_cards, draw_until_color, next_seat, shuffle_seed
from engine.uno_call import settle_call
from engine.wild_draw_four import RESTRICTED, challengeable, pending_player, wd4_is_bluff

# Ranks whose play only passes the turn on (unless a 7-0 rule moves hands).
PLAIN_RANKS = frozenset(NUMBERS + ("W", "WC"))


def play_cards(
    new: State,
    seat: int,
    cards: tuple[str, ...],
    color: str | None,
    uno: bool,
    target: int | None,
    events: list[Event],
) -> None:
    """Move ``cards`` from the hand to the discard pile, set the colour and settle UNO;
    then the play's effect, or the end of the deal when the hand is empty."""
    held = new.hands[seat]
    faces = FACES[new.side]
    last = faces[cards[-1]]
    # Whether a wild draw breaks the restriction is judged on the hand before the play
    # (what a challenge will find out: engine.wild_draw_four).
    bluff = last.rank in RESTRICTED and wd4_is_bluff(new, held, cards[-1])
    rest = list(held)
    for card in cards:
        rest.remove(card)
    hand = tuple(rest)
    hands = list(new.hands)
    hands[seat] = hand
    new.hands = tuple(hands)
    new.discard += cards
    new.drawn = None
    new.follow = 0
    new.dump_color = None
    color = last.color or color
    new.color = color
    events.append({"type": "play", "seat": seat, "cards": list(cards), "color": color})
    if len(hand) < 2 or new.declared is not None:  # (else no call is settled)
        settle_call(new, seat, len(hand), uno, events)
    rank = last.rank
    rules = new.rules
    if rules.bomb and is_bomb(new, cards):
        explode(new, seat, cards, events)
    if new.hands[seat] and rank in PLAIN_RANKS and not rules.swaps_hands:
        new.turn = next_seat(new, seat, 1)  # the common case: a number card, no 7-0 rule
        return
    # A multi-play of one rank acts once per card; a Duo dump acts as its last card alone.
    one_rank = rules.multi_play and all(faces[c].rank == rank for c in cards)
    count = len(cards) if one_rank else 1
    finished = not new.hands[seat]
    if finished and rules.placings and not (rules.swap_on_last_card and swaps(new, rank, target)):
        if placings.leaves(new, seat):
            # placings: out of the deal with a place; the last card acts, then it scores.
            card_effect(new, seat, rank, count, None, bluff, events)
            if new.phase == "chooseColor" and new.turn == seat and new.after_color is not None:
                new.turn = new.after_color  # (a Flip turned up a wild) the next one names it
            if new.wd4 is not None and new.wd4[0] == seat:
                # As for any last card, a Wild Draw Four that took its player out cannot
                # be challenged: the player out of the deal can draw no cards.
                new.wd4 = None
            placings.score_going_out(new, seat, events)
            return
    if new.pending and rank in DEFLECTORS:
        # Only a deflecting rule lets a Skip or Reverse be laid on a pending penalty.
        deflect(new, seat, rank, count, events)
        if finished:
            _go_out(new, seat, rank, count, events)
        return
    if finished:
        if rules.swap_on_last_card and swaps(new, rank, target):
            swap_effect(new, seat, rank, target, events)
            end_if_someone_is_out(new, seat, events)
            return
        _go_out(new, seat, rank, count, events)
        return
    card_effect(new, seat, rank, count, target, bluff, events)


def card_effect(
    new: State,
    seat: int,
    rank: str,
    count: int,
    target: int | None,
    bluff: bool,
    events: list[Event],
    may_wait: bool = True,
) -> None:
    """What a card does to the table when its player plays on (or, under placings, has
    just gone out: a 7 or 0 then swaps nothing, as for any last card). A first card
    (engine.first_card) acts through it too; ``may_wait`` False draws its penalty at once."""
    if new.pending and rank in DEFLECTORS:
        deflect(new, seat, rank, count, events)
    elif rank == "S":
        _skip(new, seat, count, events)
    elif rank == "R":
        _reverse(new, seat, count, events)
    elif rank in PENALTY:
        _penalty(new, seat, rank, count, bluff, events, may_wait)
    elif rank == "A+2":
        for other in new.active_seats():
            if other != seat:
                draw_cards(new, other, 2, events, reason="A+2")
        new.turn = next_seat(new, seat, 1)
    elif new.hands[seat] and swaps(new, rank, target):
        swap_effect(new, seat, rank, target, events)
        new.turn = next_seat(new, seat, 1)
    elif rank == "WSH":
        _shuffle_hands(new, seat, events)
        new.turn = next_seat(new, seat, 1)
    elif rank == "SE":
        _skip(new, seat, active_count(new) - 1, events)
    elif rank == "F":
        flip(new, seat, events)
    else:
        new.turn = next_seat(new, seat, 1)


def _skip(new: State, seat: int, count: int, events: list[Event]) -> None:
    """N Skips skip the next N players (wrapping round to the player and past them)."""
    for step in range(1, count + 1):
        skipped = next_seat(new, seat, step)
        events.append({"type": "skip", "seat": skipped})
        sip(new, skipped, 1, "skipped", events)
    new.turn = next_seat(new, seat, count + 1)


def _reverse(new: State, seat: int, count: int, events: list[Event]) -> None:
    if active_count(new) == 2:
        # With two players a Reverse acts as a Skip: the same player goes again.
        _skip(new, seat, count, events)
        return
    if count % 2:
        new.direction = -new.direction
    events.append({"type": "reverse", "direction": new.direction, "count": count})
    new.turn = next_seat(new, seat, 1)


def _penalty(
    new: State,
    seat: int,
    rank: str,
    count: int,
    bluff: bool,
    events: list[Event],
    may_wait: bool = True,
) -> None:
    """Draw Twos, a Wild Draw Four or Eight: pending (stacking, or a challenge to decide)
    or drawn at once."""
    rules = new.rules
    amount = PENALTY[rank] * count
    if may_wait and (challengeable(rules, rank) or new.pending or penalty_waits(rules, rank)):
        new.pending += amount
        new.pending_kind = STACK_FAMILY.get(rank, rank)
        new.wd4 = pending_player(rank, seat, bluff)
        new.turn = next_seat(new, seat, 1)
        return
    take_penalty(new, next_seat(new, seat, 1), rank, amount, seat, events, reason=rank)


def _go_out(new: State, seat: int, rank: str, count: int, events: list[Event]) -> None:
    """The deal ends; a closing draw penalty still makes the next player draw first."""
    if rank == "WDC":
        draw_until_color(new, next_seat(new, seat, 1), events)
    elif rank in PENALTY:
        victim = next_seat(new, seat, 1)
        amount = new.pending + PENALTY[rank] * count
        draw_cards(new, victim, amount, events, reason="lastCard")
    elif rank == "A+2":
        for other in new.active_seats():
            if other != seat:
                draw_cards(new, other, 2, events, reason="lastCard")
    elif new.pending:
        # A deflected penalty: its new victim (who now holds the turn) draws it first.
        if new.pending_kind == "WDC":
            draw_until_color(new, new.turn, events)
        else:
            draw_cards(new, new.turn, new.pending, events, reason="lastCard")
    new.pending = 0
    end_deal(new, seat, events)


def _shuffle_hands(new: State, seat: int, events: list[Event]) -> None:
    """Wild Shuffle Hands: gather every hand, shuffle, deal from the player on the left."""
    cards = [c for s in new.active_seats() for c in new.hands[s]]
    shuffle(shuffle_seed(new), cards)
    hands = [list(h) if new.out[s] else [] for s, h in enumerate(new.hands)]
    receiver = seat
    for card in cards:
        receiver = next_seat(new, receiver, 1)
        hands[receiver].append(card)
    new.hands = tuple(tuple(h) for h in hands)
    hands_moved(new)
    events.append({"type": "shuffleHands", "seat": seat})
