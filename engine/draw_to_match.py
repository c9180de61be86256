"""Drawing for a turn, and drawing to match: ``drawToMatch`` (draw until a playable card
comes, up to ``drawToMatchCap``; 0: no cap) and ``penaltyDrawToMatch`` (Helsinki: after a
draw penalty, the drawing goes on until a playable card comes, unless the penalty itself
brought one; that card may be played at once).

A playable last card drawn may be played at once (or kept) under ``drawnCardPlayable`` or
``drawToMatch``; otherwise the turn ends. "Playable" is plain matching
(engine.matching.plain_match) and the Wild Draw Four restriction.
"""

from __future__ import annotations

from engine.cards import FACES
from engine.checks import turn_play_problem
from engine.events import Event
from engine.hand_limit import room_for
from engine.matching import matches_top
from engine.state import State
from engine.turns import give_cards, next_seat, record_draw, take_cards
from engine.wild_draw_four import restricted_play_refused


def turn_draw(new: State, seat: int, events: list[Event]) -> None:
    """The turn holder's draw (a working copy): one card, or under drawToMatch cards until
    one is playable; then the drawn card may be played, or the turn ends."""
    rules = new.rules
    plain = not (rules.draw_to_match or rules.hand_limit)
    cards = take_cards(new, 1, events) if plain else _draw_cards(new, events)
    _drawn(new, seat, cards, events)


def after_penalty(new: State, seat: int, count: int, events: list[Event]) -> None:
    """penaltyDrawToMatch: ``seat`` has drawn a penalty of ``count`` cards."""
    held = new.hands[seat]
    brought = [c for c in held[len(held) - count :] if playable_when_drawn(new, held, c)]
    if brought:
        new.drawn = brought[-1]
        return
    _drawn(new, seat, _draw_cards(new, events, force=True), events)


def playable_when_drawn(state: State, hand: tuple[str, ...], card: str) -> bool:
    """Could ``card``, just drawn into ``hand``, be played now?"""
    info = FACES[state.side][card]
    if not matches_top(state, info):
        return False
    return not restricted_play_refused(state, hand, card, info.rank)


def _drawn(new: State, seat: int, cards: list[str], events: list[Event]) -> None:
    give_cards(new, seat, cards)
    record_draw(new, seat, cards, "draw", events)
    playable_now = new.rules.drawn_card_playable or new.rules.draw_to_match
    if cards and playable_now and turn_play_problem(new, seat, cards[-1]) is None:
        new.drawn = cards[-1]
    else:
        new.turn = next_seat(new, seat, 1)


def _draw_cards(new: State, events: list[Event], force: bool = False) -> list[str]:
    """One card, or under drawToMatch (or ``force``) cards until one is playable (up to
    the cap, and to what a hand limit lets the turn holder draw)."""
    rules = new.rules
    room = room_for(new, new.turn, 10**9) if rules.hand_limit else 10**9
    if not (rules.draw_to_match or force):
        return take_cards(new, min(1, room), events)
    cap = min(rules.draw_to_match_cap or 10**9, room)
    cards: list[str] = []
    held = new.hands[new.turn]
    while len(cards) < cap:
        got = take_cards(new, 1, events)
        if not got:
            break
        cards += got
        if playable_when_drawn(new, held + tuple(cards), got[0]):
            break
    return cards
