"""Moving round the table and drawing from the pile: the mechanics every rule shares."""

from __future__ import annotations

from engine.cards import FACES
from engine.drinks import sip
from engine.events import Event
from engine.hand_limit import room_for
from engine.seeded_shuffle import seed_of, shuffle
from engine.state import State


def next_seat(state: State, seat: int, steps: int) -> int:
    """The seat ``steps`` places after ``seat`` in the direction of play, skipping seats
    knocked out of the match."""
    n = state.players
    step = state.direction
    out = state.out
    if True not in out:
        return (seat + step * steps) % n
    for _ in range(steps):
        seat = (seat + step) % n
        while out[seat]:
            seat = (seat + step) % n
    return seat


def active_count(state: State) -> int:
    return state.players - sum(state.out)


def shuffle_seed(state: State) -> str:
    """The seed of the next shuffle; counts the shuffle in ``state`` (a working copy)."""
    state.shuffles += 1
    return seed_of(state.seed, state.shuffles)


def reshuffle_discards(state: State, events: list[Event]) -> bool:
    """Turn the discards under the top card into a new draw pile; False if there are none."""
    if len(state.discard) <= 1:
        return False
    pile = list(state.discard[:-1])
    shuffle(shuffle_seed(state), pile)
    state.draw_pile = tuple(pile) + state.draw_pile
    state.discard = state.discard[-1:]
    events.append({"type": "reshuffle", "cards": len(pile)})
    return True


def take_cards(state: State, count: int, events: list[Event]) -> list[str]:
    """Up to ``count`` cards off the draw pile (reshuffling when it runs out); fewer when
    there is nothing left to reshuffle. Works on a copy; does not touch any hand."""
    pile = state.draw_pile
    if count <= len(pile):
        # The common case: no reshuffle needed.
        state.draw_pile = pile[: len(pile) - count]
        return list(reversed(pile[len(pile) - count :]))
    taken: list[str] = []
    while len(taken) < count:
        if not state.draw_pile and not reshuffle_discards(state, events):
            break
        want = count - len(taken)
        pile = state.draw_pile
        chunk = pile[-want:]
        state.draw_pile = pile[: len(pile) - len(chunk)]
        taken.extend(reversed(chunk))
    return taken


def give_cards(state: State, seat: int, cards: list[str]) -> None:
    hands = list(state.hands)
    hands[seat] = hands[seat] + tuple(cards)
    state.hands = tuple(hands)


def draw_cards(
    state: State, seat: int, count: int, events: list[Event], reason: str = "draw"
) -> list[str]:
    """``seat`` draws ``count`` cards (fewer if the piles run dry) and an event says so:
    everyone sees how many and why (``reason``), only ``seat`` sees which."""
    if state.rules.hand_limit:
        count = room_for(state, seat, count)
    cards = take_cards(state, count, events)
    if cards:
        give_cards(state, seat, cards)
    record_draw(state, seat, cards, reason, events)
    return cards


def record_draw(
    state: State, seat: int, cards: list[str], reason: str, events: list[Event]
) -> None:
    """The event for cards ``seat`` drew, and a sip per card when drinks are on."""
    events.append(
        {
            "type": "draw",
            "seat": seat,
            "count": len(cards),
            "reason": reason,
            "to": seat,
            "private": {"cards": cards},
        }
    )
    if state.drinks is not None and cards:
        sip(state, seat, len(cards), "draw", events)


def draw_until_color(new: State, seat: int, events: list[Event], extra: int = 0) -> list[str]:
    """Wild Draw Colour: ``seat`` draws until a card of the named colour comes (or the
    piles run dry), then ``extra`` more; returns the cards drawn."""
    faces = FACES[new.side]
    cards: list[str] = []
    room = room_for(new, seat, 10**9) if new.rules.hand_limit else 10**9
    while len(cards) < room:
        got = take_cards(new, 1, events)
        if not got:
            break
        cards += got
        if faces[got[0]].color == new.color:
            break
    cards += take_cards(new, min(extra, room - len(cards)), events)
    give_cards(new, seat, cards)
    record_draw(new, seat, cards, "WDC", events)
    return cards
