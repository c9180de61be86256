"""Positions consistent with a seat's view: the hidden cards dealt out at random.

A view shows the seat its own hand, the top discard and how many cards every other place
holds (each opponent's hand, the draw pile). Every other card of the deck is unseen: a
sample deals the unseen cards at random into those places (the rest under the top
discard) and builds an engine :class:`~engine.state.State` from it, so that the engine
itself can play candidate moves out. Nothing but the view is read, and the seat's own
:class:`~engine.bots.memory.Memory` when it kept one: then the cards laid this deal are
not unseen (they are under the top discard), and an opponent known to lack a kind of
card (a colour, any wild, a rank) is dealt its known cards from the others first, as far
as the unseen cards allow.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from engine.bots.likelihood import Evidence, evidence, likelihood
from engine.bots.memory import WILD, Memory
from engine.bots.reading import View
from engine.cards import FACES
from engine.deal import deck_for, new_state
from engine.follow_color import FOLLOW_START
from engine.rules import Rules, rules_from_json
from engine.stacking import STACK_FAMILY
from engine.state import State
from engine.view import wire_legal
from engine.wild_draw_four import pending_player


@dataclass(frozen=True)
class Unseen:
    """What a view leaves unknown: the cards, and how many go to each place."""

    rules: Rules
    cards: tuple[str, ...]
    hand_sizes: tuple[int, ...]  # per seat (0 for the viewer)
    draw_pile: int
    under: tuple[str, ...] = ()  # the known cards under the top discard (from a memory)
    # Per opponent, (kinds it is known to lack, how many of its cards) most cards first.
    known: tuple[tuple[int, tuple[tuple[frozenset[str], int], ...]], ...] = ()
    kinds: dict[str, frozenset[str]] | None = None  # card -> its kinds (memory.WILD, ...)
    # What the opponents' plays since their last draws tell (engine.bots.likelihood).
    evidence: Evidence = ()


def unseen_of(view: View, memory: Memory | None = None) -> Unseen | None:
    """The unseen cards of a shedding-game view during play, or None when the view does not
    add up (then no sample can be built). With ``memory`` of this deal, the cards it saw
    laid are left out and its inferences kept."""
    if view.get("game") not in (None, "shedding") or view.get("phase") != "playing":
        return None
    rules = rules_from_json(view["rules"])
    me = view["you"]
    top = view.get("top")
    if me is None or top is None or view.get("draftPile"):
        return None
    hidden = Counter(deck_for(rules))
    hidden.subtract(view["hand"])
    hidden[top] -= 1
    if any(count < 0 for count in hidden.values()):
        return None
    sizes = tuple(0 if p["seat"] == me else p["cards"] for p in view["players"])
    if memory is not None and memory.complete and memory.deal == view.get("deal"):
        under = Counter(memory.discard[:-1])
        left = hidden - under
        if (
            memory.discard[-1:] == [top]
            and all(hidden[card] >= n for card, n in under.items())
            and sum(sizes) + view["drawPile"] == left.total()
        ):
            return _remembered(view, rules, left, sizes, memory)
    cards = tuple(sorted(hidden.elements()))
    if sum(sizes) + view["drawPile"] > len(cards):
        return None
    return Unseen(rules, cards, sizes, view["drawPile"])


def _remembered(
    view: View, rules: Rules, left: Counter[str], sizes: tuple[int, ...], memory: Memory
) -> Unseen:
    face = FACES[view.get("side") or "light"]
    kinds = {
        card: frozenset(
            {WILD if face[card].is_wild else face[card].color or "", "#" + face[card].rank}
        )
        for card in left
    }
    known = []
    for seat, void in sorted(memory.void.items()):
        size = sizes[seat] if seat < len(sizes) else 0
        counts = sorted({min(n, size) for n in void.values() if n > 0}, reverse=True)
        if not counts or seat == view["you"]:
            continue
        # The cards known to lack most kinds first: count c lacks every kind known of c+.
        slots = tuple(
            (frozenset(k for k, n in void.items() if min(n, size) >= c), c) for c in counts
        )
        known.append((seat, slots))
    under = tuple(memory.discard[:-1])
    plays = {s: made for s, made in memory.plays.items() if s != view["you"] and s < len(sizes)}
    judged = evidence(plays, face)
    cards = tuple(sorted(left.elements()))
    return Unseen(rules, cards, sizes, view["drawPile"], under, tuple(known), kinds, judged)


def _deal_known(unseen: Unseen, cards: list[str]) -> dict[int, list[str]]:
    """Each opponent's known cards, taken from the shuffled ``cards`` (first fit): a card of
    none of the kinds it lacks, or any card when none is left."""
    dealt: dict[int, list[str]] = {}
    kinds = unseen.kinds or {}
    for seat, slots in unseen.known:
        hand: list[str] = []
        # slots: (kinds, count) with counts falling and kinds growing towards the first.
        for index in range(slots[0][1]):
            lacking: frozenset[str] = frozenset()
            for group, count in slots:
                if index < count:
                    lacking = group
            for at, card in enumerate(cards):
                if not kinds[card] & lacking:
                    hand.append(cards.pop(at))
                    break
            else:
                if cards:
                    hand.append(cards.pop())
        dealt[seat] = hand
    return dealt


def sample_state(view: View, unseen: Unseen, rng: random.Random) -> State | None:
    """One position the view could be in, with the unseen cards dealt at random; None if
    the position built does not give the viewer exactly the legal moves its view lists."""
    cards = list(unseen.cards)
    rng.shuffle(cards)
    me = view["you"]
    known = _deal_known(unseen, cards) if unseen.known else {}
    hands: list[tuple[str, ...]] = []
    at = 0
    for seat, size in enumerate(unseen.hand_sizes):
        if seat == me:
            hands.append(tuple(view["hand"]))
        else:
            first = known.get(seat, [])
            more = size - len(first)
            hands.append((*first, *cards[at : at + more]))
            at += more
    pile = tuple(cards[at : at + unseen.draw_pile])
    under = unseen.under + tuple(cards[at + unseen.draw_pile :])
    players = len(unseen.hand_sizes)
    state = new_state(unseen.rules, players, f"sample:{rng.getrandbits(64)}", view["dealer"])
    side = view.get("side") or "light"
    top = view["top"]
    rank = FACES[side][top].rank
    pending = view.get("pendingDraw") or 0
    state.deal = view["deal"]
    state.phase = "playing"
    state.hands = tuple(hands)
    state.draw_pile = pile
    state.discard = (*under, top)
    state.color = view["color"]
    state.turn = view["turn"]
    state.direction = view["direction"]
    state.pending = pending
    # The view says which family is pending (a deflect leaves a Skip or Reverse on top).
    kind = view.get("pendingKind") or STACK_FAMILY.get(rank, rank)
    state.pending_kind = kind if pending else None
    if pending:
        # Who played it and whether it was a bluff are not in the view: taken as the seat
        # before, and honest.
        state.wd4 = pending_player(rank, (state.turn - state.direction) % players, False)
    state.drawn = view.get("drawn")
    state.exposed = view.get("unoExposed")
    state.totals = tuple(view["totals"])
    state.out = tuple(bool(p.get("out")) for p in view["players"])
    state.moves = view["moves"]
    state.dump_color = view.get("dumpColor")
    state.side = side
    if view.get("followColor"):
        # Draws left while the colour is owed are not shown; the listed moves tell whether
        # another draw is allowed.
        draws = any(a.get("type") == "draw" for a in view.get("legal") or ())
        state.follow = FOLLOW_START if draws else 1
    if state.turn == me and wire_legal(state, me) != list(view.get("legal") or ()):
        return None
    return state


def likely_state(view: View, unseen: Unseen, rng: random.Random, pool: int) -> State | None:
    """One of ``pool`` sampled positions, each kept with a chance in proportion to its
    :func:`likelihood` (a single sample when nothing was recorded)."""
    if not unseen.evidence or pool < 2:
        return sample_state(view, unseen, rng)
    states: list[State] = []
    weights: list[float] = []
    for _ in range(pool):
        state = sample_state(view, unseen, rng)
        if state is not None:
            states.append(state)
            weights.append(likelihood(state.hands, unseen.evidence))
    if not states:
        return None
    if sum(weights) <= 0:  # none explains the plays: the model is wrong here, not the view
        return rng.choice(states)
    return rng.choices(states, weights)[0]
