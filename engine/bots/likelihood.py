"""How well a sampled position explains what the opponents were seen to do.

:mod:`engine.bots.sample` deals the unseen cards at random, honouring only what the
memory knows for sure (who drew on which colour). But a seat's plays say more about its
hand: a seat that laid one card of many that played chose it among them, one that laid a
wild while a coloured card played did so rarely. :func:`likelihood` is the chance of a
seat's recorded plays (:class:`~engine.bots.memory.Play`) under a generic model of a
player, given the hand a sample deals it; :func:`engine.bots.sample.likely_state` deals a
few samples and keeps one with that chance (sampling-importance-resampling), so that the
positions the bot plays out lean to those the table's history makes likely.

The model of a player, the same for every opponent (no one's policy in particular): on
its turn it lays one of the coloured cards that play (matching the colour in force or
the top card's rank: :func:`engine.matching.plain_match`), each as likely; a wild only when
no coloured card plays, but for a small chance (:data:`EARLY_WILD`). A play of the card
just drawn, or one that answers a draw penalty, tells nothing of the hand and counts 1.
Only the view and the seat's memory are read: the hand a seat chose from is the one the
sample deals it now with the cards it laid since put back (the memory keeps plays only
since the seat's hand last took cards nobody else saw).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from engine.bots.memory import Play
from engine.cards import CardInfo
from engine.matching import plain_match

EARLY_WILD = 0.2  # the chance a player lays a wild while a coloured card would play


class Choice(NamedTuple):
    """A play that tells something of the hand it was chosen from, ready to weigh."""

    options: frozenset[str]  # the coloured cards that played then
    later: int  # how many of them the seat laid at this play or after it
    wild: bool  # it laid a wild


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
                if not info.is_wild and plain_match(info, play.color, top_rank)
            )
            laid_since = [card for later in made[at:] for card in later.cards]
            choices.append(
                Choice(
                    options,
                    sum(1 for card in laid_since if card in options),
                    face[play.cards[0]].is_wild,
                )
            )
        if choices:
            out.append((seat, tuple(choices)))
    return tuple(out)


def likelihood(hands: Sequence[Sequence[str]], judged: Evidence) -> float:
    """The chance of every seat's recorded plays (``judged``) if it holds ``hands[seat]``
    now."""
    chance = 1.0
    for seat, choices in judged:
        hand = hands[seat]
        for choice in choices:
            options = choice.later + sum(1 for card in hand if card in choice.options)
            if choice.wild:
                chance *= EARLY_WILD if options else 1.0
            else:
                chance /= max(1, options)
    return chance
