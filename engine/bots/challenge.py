"""Whether ``hard`` challenges the Wild Draw Four it faces (where the rules allow it).

A challenge won hands the penalty to the player who laid the card; one lost costs the
challenger two cards more. What decides it is the chance that the card was a bluff: that
its player held a card of the colour in force (``engine.wild_draw_four.breaks_restriction``,
the engine's own judgement of the hand it was laid from). The bot cannot see that hand,
so it deals positions as its search does (:mod:`engine.bots.sample`, weighed by the
other plays the memory kept: :mod:`engine.bots.likelihood`) and counts how often the hand
dealt would have made the play a bluff. Players seldom bluff, so that share is weighed
against a prior (:data:`BLUFF`) before it is compared with :data:`CHALLENGE_AT`. Without a
memory of the play (the colour and top card it was laid on) it never challenges.
"""

from __future__ import annotations

import random
from dataclasses import replace

from engine.bots.memory import Memory
from engine.bots.reading import View
from engine.bots.sample import likely_state, unseen_of
from engine.cards import FACES
from engine.wild_draw_four import RESTRICTED, breaks_restriction

BLUFF = 0.05  # the share of Wild Draw Fours laid as bluffs, before any evidence
# A challenge lost costs 2 cards more than taking the penalty (4 + 2); one won saves the
# 4: worth it from a third on; a wide margin over that for the model's errors.
CHALLENGE_AT = 0.5
SAMPLES = 24  # positions dealt to judge a challenge
POOL = 4  # samples dealt for each one kept (engine.bots.sample.likely_state)


def challenges(view: View, rng: random.Random, memory: Memory | None) -> bool:
    """Whether to challenge now: the view lists a challenge, the memory holds the play,
    and the chance of a bluff reaches :data:`CHALLENGE_AT`."""
    if not any(a.get("type") == "challenge" for a in view.get("legal") or ()):
        return False
    if memory is None or not memory.complete or memory.deal != view.get("deal"):
        return False
    chance = bluff_chance(view, memory, rng)
    return chance is not None and chance >= CHALLENGE_AT


def bluff_chance(view: View, memory: Memory, rng: random.Random) -> float | None:
    """The chance that the Wild Draw Four on top was laid as a bluff, or None when the
    memory does not hold that play."""
    players = len(view["players"])
    seat = (view["turn"] - view["direction"]) % players
    plays = memory.plays.get(seat)
    if not plays:
        return None
    play = plays[-1]
    face = FACES[view.get("side") or "light"]
    card = play.cards[-1]
    if card != view.get("top") or face[card].rank not in RESTRICTED or play.top is None:
        return None
    unseen = unseen_of(view, memory)
    if unseen is None:
        return None
    if not (play.drawn or play.pending):
        # The play judged is the seat's last recorded choice: it says nothing of a bluff.
        judged = tuple(
            (s, choices[:-1] if s == seat else choices) for s, choices in unseen.evidence
        )
        unseen = replace(unseen, evidence=judged)
    top_rank = face[play.top].rank
    could = dealt = 0
    for _ in range(SAMPLES):
        state = likely_state(view, unseen, rng, POOL)
        if state is None:
            continue
        dealt += 1
        hand = [*state.hands[seat], card]
        if breaks_restriction(unseen.rules, face, play.color, top_rank, hand, card):
            could += 1
    if not dealt:
        return None
    share = could / dealt
    return share * BLUFF / (share * BLUFF + (1 - share))
