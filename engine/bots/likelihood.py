"""How well a sampled position explains what the opponents were seen to do.

:mod:`engine.bots.sample` deals the unseen cards at random, honouring only what the
memory knows for sure (who drew on which colour). But a seat's plays say more about its
hand: a seat that laid one card of many that played chose it among them, one that laid a
wild while a coloured card played did so rarely. :func:`likelihood` is the chance of a
seat's recorded plays (:class:`~engine.bots.memory.Play`) under a generic model of a
player, given the hand a sample deals it; :func:`engine.bots.sample.likely_state` deals a
few samples and keeps one with that chance (sampling-importance-resampling), so that the
positions the bot plays out lean to those the table's history makes likely.

The model of a player, the same for every opponent (no one's policy in particular): on its
turn it lays one of the coloured cards that play (matching the colour in force or the
top card's rank), each as likely; a wild only when no coloured card plays, but for a
small chance (:data:`EARLY_WILD`). A play of the card just drawn, or one that answers a
draw penalty, tells nothing of the hand and counts 1. Only the view and the seat's
memory are read: the hand a seat chose from is the one the sample deals it now with the
cards it laid since put back (the memory keeps plays only since the seat's hand last took
cards nobody else saw).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from engine.bots.memory import Play
from engine.cards import CardInfo

EARLY_WILD = 0.2  # the chance a player lays a wild while a coloured card would play
# How likely a player names a colour it holds fewer of than another (1: no model).
OTHER_COLOR = 1.0


class Choice(NamedTuple):
    """A play that tells something of the hand it was chosen from, ready to weigh."""

    options: frozenset[str]  # the coloured cards that played then
    later: int  # how many of them the seat laid at this play or after it
    wild: bool  # it laid a wild
    named: str | None  # the colour it named (a wild)
    later_colors: tuple[tuple[str, int], ...]  # the cards it laid after it, per colour


Evidence = tuple[tuple[int, tuple[Choice, ...]], ...]  # per seat, its informative plays


def evidence(plays: Mapping[int, Sequence[Play]], face: Mapping[str, CardInfo]) -> Evidence:
    """The recorded ``plays`` in the form :func:`likelihood` reads fast: each play that
    involved a choice, with what the seat laid at it and after it (no longer in its hand
    now, but in it then)."""
    out = []
    for seat, made in sorted(plays.items()):
        choices = []
        for at, play in enumerate(made):
            if play.drawn or play.pending or play.top is None:
                continue  # no choice was made: nothing to learn
            top_rank = face[play.top].rank
            options = frozenset(
                card
                for card, info in face.items()
                if not info.is_wild and (info.color == play.color or info.rank == top_rank)
            )
            laid_since = [card for later in made[at:] for card in later.cards]
            after = Counter(face[c].color for c in laid_since[len(play.cards) :])
            choices.append(
                Choice(
                    options,
                    sum(1 for card in laid_since if card in options),
                    face[play.cards[0]].is_wild,
                    play.named,
                    tuple((c, n) for c, n in after.items() if c is not None),
                )
            )
        if choices:
            out.append((seat, tuple(choices)))
    return tuple(out)


def likelihood(
    hands: Sequence[Sequence[str]], judged: Evidence, face: Mapping[str, CardInfo]
) -> float:
    """The chance of every seat's recorded plays (``judged``) if it holds ``hands[seat]``
    now."""
    chance = 1.0
    for seat, choices in judged:
        hand = hands[seat]
        for choice in choices:
            options = choice.later + sum(1 for card in hand if card in choice.options)
            if choice.wild:
                chance *= EARLY_WILD if options else 1.0
                if choice.named is not None and OTHER_COLOR < 1.0:
                    chance *= _named_chance(hand, choice, face)
            else:
                chance /= max(1, options)
    return chance


def _named_chance(hand: Sequence[str], choice: Choice, face: Mapping[str, CardInfo]) -> float:
    """A colour named with a wild is the one its player holds most after it."""
    counts = Counter(face[card].color for card in hand)
    counts.update(dict(choice.later_colors))
    counts.pop(None, None)
    most = max(counts.values(), default=0)
    return 1.0 if counts.get(choice.named, 0) >= most else OTHER_COLOR
