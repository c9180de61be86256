"""The ``hard`` bot: decides its turn by simulation over the cards it cannot see.

On its turn during play it lists its sensible moves (each play, a wild once per colour it
holds; drawing or passing only when no card plays; never a bluffed Wild Draw Four or a
challenge), then repeats: deal the unseen cards at random into the places the view counts
(opponents' hands, the draw pile, under the top discard; :mod:`engine.bots.sample`, which
follows what the memory infers of each hand, and keeps one of :data:`POOL` such deals by
how well it explains the opponents' plays: :mod:`engine.bots.likelihood`), apply each
move to that position with the engine and play the deal on for six rounds with quick
policies (its own seat: a card of the colour it holds most, a wild only when stuck; the
others: a random non-wild play, a wild when nothing else plays; else draw). Each move is
played out on the same positions with the same random streams, so the moves are compared
on equal luck. A playout scores 1 if the bot went out first, 0 if another seat did, and
else the bot's share of the table's 1 / cards held (fewer cards, a better chance). Once
half the work is spent, only the normal policy's choice and the :data:`KEEP` best moves so
far are played on. It takes the move with the best score; the normal policy's own choice
is kept unless another move scores clearly more (by :data:`MARGIN` and
:data:`SIGNIFICANCE` standard errors).

The work is a fixed amount of playout steps (:data:`BUDGET`, weighted by hand size, each
sample dealt counting :data:`SAMPLE_COST`; halved under rules that make engine steps
dearer), not a time: the engine reads no clock, and a fixed budget makes the bot replay
the same from the same generator. On this machine that is under 50 ms per decision at
p99 (docs/performance.md). Facing a Wild Draw Four it challenges when its history shows
a likely bluff (:mod:`engine.bots.challenge`). Everything else (naming a colour, a draft
pick, jump-ins, UNO calls and catches, UNO Rommy) is the normal policy's. The ``ismcts``
level is this bot with its turn searched by :mod:`engine.bots.ismcts` instead.
"""

from __future__ import annotations

import random

from engine.actions import Action
from engine.api import apply, apply_legal
from engine.bots import ismcts
from engine.bots.challenge import challenges
from engine.bots.memory import Memory
from engine.bots.normal import choose_normal, finish, is_bluff
from engine.bots.playout import own_move, quick_move
from engine.bots.reading import View, color_counts, complete_play, legal, on_turn, remaining
from engine.bots.sample import Unseen, likely_state, unseen_of
from engine.bots.search import Key, budget_for, move_key
from engine.cards import FACES
from engine.state import State

BUDGET = 7000  # playout work per decision (steps, weighted by hand size), for all moves
HAND_COST = 6  # a step costs one more unit per this many cards in the mover's hand
MAX_SAMPLES = 128
HORIZON = 24  # playout steps (six rounds at four seats) before it is scored by card counts
# Another move replaces normal's only if it scores more by this much, and by this many
# standard errors of the paired difference.
MARGIN = 0.01
SIGNIFICANCE = 1.0
SAMPLE_COST = 5  # the work of dealing one sample, in playout steps
KEEP = 2  # after half the budget, only normal's move and this many best are played on
POOL = 4  # samples dealt for each one played out, kept by how well they explain the plays


def choose_hard(
    view: View,
    rng: random.Random,
    in_turn_only: bool,
    memory: Memory | None = None,
    tree: bool = False,
) -> Action | None:
    """``hard``'s move (``tree``: the ``ismcts`` level's, which searches its turn by
    :func:`engine.bots.ismcts.search` instead of :func:`simulate`)."""
    default = choose_normal(view, rng, in_turn_only, memory)
    if default is None or default.type in ("callUno", "catchUno"):
        return default
    if not on_turn(view) or view.get("phase") != "playing":
        return default
    if not in_turn_only and challenges(view, rng, memory):
        return Action("challenge")
    candidates = candidate_moves(view, default, rng, memory)
    if len(candidates) < 2:
        return default
    unseen = unseen_of(view, memory)
    if unseen is None:
        return default
    if tree:
        return ismcts.search(view, unseen, candidates, rng)[0]
    return simulate(view, unseen, candidates, rng)


def candidate_moves(
    view: View, default: Action, rng: random.Random, memory: Memory | None = None
) -> list[Action]:
    """The moves worth comparing, the normal policy's first."""
    hand = list(view.get("hand") or ())
    face = FACES[view.get("side") or "light"]
    out: list[Action] = [default]
    seen: set[Key] = {move_key(default)}
    actions = legal(view)
    plays = [a for a in actions if a.type == "play" and not is_bluff(view, a.cards)]
    for action in actions:
        if plays and action.type in ("draw", "pass"):
            continue  # drawing instead of a card that plays only gives the others time
        if action.type == "play":
            if is_bluff(view, action.cards):
                continue
            rest = remaining(hand, action.cards)
            if face[action.cards[-1]].is_wild:
                held = [c for c, n in color_counts(view, rest).most_common() if n]
                choices = [complete_play(view, action.cards, c, None) for c in held[:2]]
                choices = choices or [finish(view, action.cards, rng, memory)]
            else:
                choices = [finish(view, action.cards, rng, memory)]
        elif action.type in ("draw", "pass"):
            choices = [action]
        else:
            continue
        for choice in choices:
            if move_key(choice) not in seen:
                seen.add(move_key(choice))
                out.append(choice)
    return out


def simulate(view: View, unseen: Unseen, candidates: list[Action], rng: random.Random) -> Action:
    """The candidate that wins most often over sampled positions; the first (normal's
    choice) unless another beats it by more than the sampling noise."""
    me: int = view["you"]
    scores: list[list[float]] = [[] for _ in candidates]
    budget = budget_for(unseen.rules, BUDGET)
    samples = 0
    alive = list(range(len(candidates)))
    total = budget
    while budget > 0 and samples < MAX_SAMPLES:
        if len(alive) > KEEP + 1 and budget < total // 2 and len(scores[0]) >= 4:
            # Spend the rest of the work telling the likeliest moves apart.
            ranked = sorted(alive, key=lambda i: -sum(scores[i]))
            alive = sorted({0, *ranked[:KEEP]})
        state = likely_state(view, unseen, rng, POOL)
        samples += 1
        budget -= SAMPLE_COST * (POOL if unseen.evidence else 1)
        if state is None:
            continue
        seed = rng.getrandbits(32)
        for i in alive:
            move = candidates[i]
            after, _ = apply(state, me, move)
            score, steps = playout(after, me, random.Random(seed))
            scores[i].append(score)
            budget -= steps + 1
    played = len(scores[0])
    if played < 2:
        return candidates[0]
    best = max(alive, key=lambda i: sum(scores[i][-played:]))
    if best == 0:
        return candidates[0]
    # The moves were played out on the same positions: compare them pair by pair.
    diffs = [a - b for a, b in zip(scores[best][-played:], scores[0][-played:], strict=True)]
    mean = sum(diffs) / played
    spread = sum((d - mean) ** 2 for d in diffs) / (played - 1)
    if mean > MARGIN and mean > SIGNIFICANCE * (spread / played) ** 0.5:
        return candidates[best]
    return candidates[0]


def playout(state: State, me: int, rng: random.Random) -> tuple[float, int]:
    """Play the deal out with the quick policies: 1 if ``me`` goes out first, else 0 (a
    playout cut off at :data:`HORIZON` steps scores its share of the fewest cards),
    and the work it took."""
    steps = cost = 0
    while state.phase == "playing" or state.phase == "chooseColor":
        if state.placed:
            # placings: the deal goes on, but its best place is decided (engine.placings).
            return (1.0 if state.placed[0] == me else 0.0), cost
        if steps >= HORIZON:
            return _card_share(state, me), cost
        seat = state.turn
        # A step costs more with a bigger hand (longer legal lists, draws until a match).
        cost += 1 + len(state.hands[seat]) // HAND_COST
        move = own_move(state, seat, rng) if seat == me else quick_move(state, seat, rng)
        state, _ = apply_legal(state, seat, move)  # the move is from legal_actions
        steps += 1
    return (1.0 if state.winner == me else 0.0), cost


def _card_share(state: State, me: int) -> float:
    """A rough chance of going out first: each active seat weighted by 1 / its cards."""
    weights = [1.0 / max(1, len(h)) for s, h in enumerate(state.hands) if not state.out[s]]
    return (1.0 / max(1, len(state.hands[me]))) / sum(weights)
