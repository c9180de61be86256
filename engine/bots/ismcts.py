"""Information-set Monte Carlo tree search (Cowling, Powley and Whitehouse, 2012).

One tree over the seat's information set: its nodes are the actions taken from the
decision at hand on (the seat's own moves and the others' public moves, a draw being one
move whatever card it brings), not positions. Each iteration deals a position the view
could be in (:mod:`engine.bots.sample`, weighed by :mod:`engine.bots.likelihood`), walks
down the tree choosing among the moves legal in that position only (UCB1 with
availability counts: a move is scored against the number of times it could have been
chosen, not its parent's visits), adds one node, plays the deal on with quick policies
and scores the end for every seat; each node keeps the score of the seat that chose it.
The engine is the one judge of every move: the moves are its ``legal_actions``, applied
with ``apply_legal``.
"""

from __future__ import annotations

import math
import random
from itertools import accumulate

from engine.actions import Action
from engine.api import apply, apply_legal, legal_actions
from engine.bots.likelihood import likelihood
from engine.bots.playout import held_colors, own_move, quick_move
from engine.bots.reading import View
from engine.bots.sample import Unseen, sample_state
from engine.bots.search import Key, budget_for, move_key
from engine.cards import FACES
from engine.state import State

BUDGET = 9000  # work per decision: iterations, playout and tree steps (weighted by hand size)
HAND_COST = 6  # a step costs one more unit per this many cards in the mover's hand
HORIZON = 24  # steps after the root before a playout is scored by card counts
SHUFFLE_CARDS = 4  # a reshuffle of the discards costs a step per this many cards
ITERATION_COST = 6  # the work of an iteration's own bookkeeping, in steps
SAMPLE_COST = 5  # the work of dealing one position, in steps
POOL = 48  # positions dealt for a decision; each iteration draws one by its likelihood
EXPLORE = 0.7  # UCB1's exploration constant (scores lie in 0..1)
FIRST = 4.0  # the normal policy's move starts with this many visits' worth of its mean


class Node:
    """A move in the tree: its visits, how often it was available and the score of the
    seat that made it."""

    __slots__ = ("avail", "children", "score", "visits")

    def __init__(self) -> None:
        self.children: dict[Key, Node] = {}
        self.visits = 0
        self.avail = 0
        self.score = 0.0


def search(
    view: View, unseen: Unseen, candidates: list[Action], rng: random.Random
) -> tuple[Action, int]:
    """The candidate the search visits most (the first, the normal policy's choice, on a
    tie), and the number of iterations run."""
    me: int = view["you"]
    budget = budget_for(unseen.rules, BUDGET)
    states: list[State] = []
    weights: list[float] = []
    for _ in range(POOL):
        budget -= SAMPLE_COST
        state = sample_state(view, unseen, rng)
        if state is not None:
            states.append(state)
            weights.append(likelihood(state.hands, unseen.evidence) if unseen.evidence else 1.0)
    if not states:
        return candidates[0], 0
    if sum(weights) <= 0:
        weights = [1.0] * len(states)
    cumulative = list(accumulate(weights))
    root = Node()
    keys = [move_key(c) for c in candidates]
    iterations = 0
    while budget > 0:
        state = rng.choices(states, cum_weights=cumulative)[0]
        iterations += 1
        budget -= _iterate(root, state, me, candidates, keys, rng)
    best = max(
        range(len(candidates)),
        key=lambda i: (_visits(root, keys[i]), i == 0, -i),
    )
    return candidates[best], iterations


def _visits(root: Node, key: Key) -> int:
    node = root.children.get(key)
    return 0 if node is None else node.visits


def _iterate(
    root: Node,
    state: State,
    me: int,
    candidates: list[Action],
    keys: list[Key],
    rng: random.Random,
) -> int:
    """One iteration on one dealt position; the work it took."""
    path: list[tuple[Node, int]] = []  # (node, the seat that chose its move)
    # The root: the seat's own candidates, every one legal in every position dealt.
    index = _select(root, keys, rng, first=True)
    node = root.children.get(keys[index])
    if node is None:
        node = root.children[keys[index]] = Node()
        expanded = True
    else:
        expanded = False
    path.append((node, me))
    state, _ = apply(state, me, candidates[index])
    cost = ITERATION_COST
    steps = 1
    # Down the tree while every move met has a node, then one node more.
    while not expanded and _going(state):
        seat = state.turn
        moves = tree_moves(state, seat)
        cost += 1 + len(state.hands[seat]) // HAND_COST
        steps += 1
        if not moves:
            break
        mkeys = [move_key(m) for m in moves]
        fresh = [i for i, k in enumerate(mkeys) if k not in node.children]
        if fresh:
            pick = fresh[rng.randrange(len(fresh))]
            child = node.children[mkeys[pick]] = Node()
            for k in mkeys:
                if k in node.children:
                    node.children[k].avail += 1
            expanded = True
        else:
            pick = _select(node, mkeys, rng, first=False)
            child = node.children[mkeys[pick]]
        path.append((child, seat))
        shuffles = state.shuffles
        state, _ = apply_legal(state, seat, moves[pick])
        if state.shuffles != shuffles:
            cost += len(state.draw_pile) // SHUFFLE_CARDS
        node = child
    rewards, work = playout(state, me, HORIZON - steps, rng)
    for node, seat in path:
        node.visits += 1
        node.score += rewards[seat]
    return cost + work


def _select(node: Node, keys: list[Key], rng: random.Random, first: bool) -> int:
    """UCB1 over the moves available now (``keys``), counting each one's availability;
    at the root, an unvisited candidate first and the normal policy's move with a head
    start (:data:`FIRST`)."""
    best = -1.0
    choice = 0
    for i, k in enumerate(keys):
        child = node.children.get(k)
        if child is None or child.visits == 0:
            if first:
                return i
            continue
        if first:
            child.avail += 1
        visits: float = child.visits
        score = child.score
        if first and i == 0:
            mean = score / visits
            visits += FIRST
            score += FIRST * mean
        value = score / visits + EXPLORE * math.sqrt(math.log(max(child.avail, 1)) / visits)
        if value > best:
            best, choice = value, i
    if not first:
        for k in keys:
            node.children[k].avail += 1
    return choice


def _going(state: State) -> bool:
    return (state.phase == "playing" or state.phase == "chooseColor") and not state.placed


def tree_moves(state: State, seat: int) -> list[Action]:
    """The moves the tree tells apart for the seat to move: its listed plays (a wild only
    naming the colour it holds most), drawing or passing only when no card plays."""
    actions = legal_actions(state, seat)
    faces = FACES[state.side]
    held = held_colors(state, seat)
    best_color = max(held, key=held.__getitem__)
    plays = []
    rest = []
    for action in actions:
        if action.type == "play":
            if not faces[action.cards[-1]].is_wild or action.color == best_color:
                plays.append(action)
        elif action.type == "chooseColor":
            if action.color == best_color:
                rest.append(action)
        elif action.type in ("draw", "pass"):
            rest.append(action)
    if plays:
        return plays
    return rest or actions[:1]


def playout(state: State, me: int, horizon: int, rng: random.Random) -> tuple[list[float], int]:
    """Play the deal on with the quick policies: per seat 1 if it goes out first, else 0
    (a playout cut off after ``horizon`` steps scores each seat's share of the table's
    1 / cards held), and the work it took."""
    steps = cost = 0
    while state.phase == "playing" or state.phase == "chooseColor":
        if state.placed:
            return _won(state.players, state.placed[0]), cost
        if steps >= horizon:
            return _card_shares(state), cost
        seat = state.turn
        cost += 1 + len(state.hands[seat]) // HAND_COST
        move = own_move(state, seat, rng) if seat == me else quick_move(state, seat, rng)
        shuffles = state.shuffles
        state, _ = apply_legal(state, seat, move)  # the move is from legal_actions
        if state.shuffles != shuffles:
            cost += len(state.draw_pile) // SHUFFLE_CARDS  # the discards shuffled into a pile
        steps += 1
    if state.winner is None:
        return _card_shares(state), cost
    return _won(state.players, state.winner), cost


def _won(players: int, winner: int) -> list[float]:
    return [1.0 if s == winner else 0.0 for s in range(players)]


def _card_shares(state: State) -> list[float]:
    """A rough chance of going out first per seat: 1 / its cards, over the table's sum."""
    weights = [0.0 if state.out[s] else 1.0 / max(1, len(h)) for s, h in enumerate(state.hands)]
    total = sum(weights) or 1.0
    return [w / total for w in weights]
