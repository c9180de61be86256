"""Engine throughput: complete games of random legal actions, ours against RLCard's UNO.

Both engines play the same workload in the same run: 4 players, one deal to the end,
each decision being "ask for the turn holder's legal actions, pick one, apply it". The
pick is RLCard's player: a random play when there is one, else draw (RLCard lists drawing
only when nothing is playable; our rules allow drawing anyway, so a uniform pick over our
list makes far longer deals with far bigger hands: reported as its own line).

Prints games/s and decisions/s for both and the ratio. Rates are per second of this
process's CPU time, so other load on the machine does not tilt the comparison. RLCard is
an optional bench dependency (`pip install -e .[bench]`); without it only our figures are printed.

    python bench/engine.py [--seconds 2] [--rounds 5] [--players 4]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

# This file is named like the package it measures: keep its own folder off the import path.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).parent]

from engine import (  # noqa: E402
    apply,
    apply_legal,
    legal_actions,
    new_match,
    parse_action,
    rules_from_json,
)


class Run(NamedTuple):
    games: int
    decisions: int
    cpu: float  # CPU seconds of the whole round
    setup: float  # of which setting deals up (new match / new game)


NEXT_DEAL = parse_action({"type": "nextDeal"})


def run_ours(
    seconds: float,
    players: int,
    preset: str = "oneAndDone",
    any_action: bool = False,
    unchecked: bool = False,
) -> Run:
    """Play whole matches for about ``seconds`` (one deal each under ``oneAndDone``).

    The pick is RLCard's player (a random play when there is one, else draw or pass), or
    with ``any_action`` a uniform pick over the whole list. It is written out in the loop,
    as RLCard's pick is in run_rlcard, so that neither side pays a call for it. With
    ``unchecked`` the pick goes to ``apply_legal`` (no checks, as RLCard's ``step``)
    instead of the checked ``apply``.
    """
    step = apply_legal if unchecked else apply
    rules = rules_from_json({"preset": preset})
    rng = random.Random(1)
    games = decisions = 0
    setup = 0.0
    clock = time.process_time
    start = clock()
    deadline = start + seconds
    while clock() < deadline:
        dealing = clock()
        state, _ = new_match(rules, players, f"bench-{games}", dealer=0)
        setup += clock() - dealing
        while state.phase != "matchOver":
            if state.phase == "dealOver":
                # A match of several deals (classic: to 500) deals on; dealing is setup.
                dealing = clock()
                state, _ = apply(state, state.turn, NEXT_DEAL)
                setup += clock() - dealing
                continue
            seat = state.turn
            actions = legal_actions(state, seat)
            if not any_action:
                actions = [a for a in actions if a.type == "play"] or actions
            state, _ = step(state, seat, rng.choice(actions))
            decisions += 1
        games += 1
    return Run(games, decisions, clock() - start, setup)


def run_rlcard(seconds: float, players: int) -> Run | None:
    """The same loop on RLCard's UnoGame (configured directly: rlcard.make ignores the
    player count)."""
    try:
        import numpy as np
        from rlcard.games.uno.game import UnoGame
    except ImportError:
        return None
    rng = random.Random(1)
    games = decisions = 0
    setup = 0.0
    clock = time.process_time
    start = clock()
    deadline = start + seconds
    while clock() < deadline:
        dealing = clock()
        game = UnoGame(num_players=players)
        game.np_random = np.random.RandomState(games)
        game.init_game()
        setup += clock() - dealing
        while not game.is_over():
            action = rng.choice(game.get_legal_actions())
            game.step(action)
            decisions += 1
        games += 1
    return Run(games, decisions, clock() - start, setup)


def median(values: list[float]) -> float:
    return sorted(values)[len(values) // 2]


def report(name: str, results: list[Run]) -> None:
    """Print the median round's figures."""
    games = median([r.games / r.cpu for r in results])
    rate = median([r.decisions / r.cpu for r in results])
    loop = median([r.decisions / (r.cpu - r.setup) for r in results])
    print(
        f"{name:<28} {games:>10.0f} games/s {rate:>12.0f} decisions/s"
        f" {loop:>12.0f} decisions/s without dealing"
    )


def ratio_line(label: str, ratios: list[float]) -> str:
    ratios = sorted(ratios)
    return (
        f"{label}: {median(ratios):.2f}x decisions/s (median of {len(ratios)} rounds;"
        f" {ratios[0]:.2f}-{ratios[-1]:.2f})"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="per engine per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args(argv)
    runs: dict[str, Callable[[], Run | None]] = {
        "ours (one deal, classic)": lambda: run_ours(args.seconds, args.players),
        "rlcard UnoGame": lambda: run_rlcard(args.seconds, args.players),
        "ours (match to 500)": lambda: run_ours(args.seconds, args.players, "classic"),
        "ours (any legal action)": lambda: run_ours(args.seconds, args.players, any_action=True),
        "ours (apply_legal)": lambda: run_ours(args.seconds, args.players, unchecked=True),
    }
    # Rounds alternate the engines so that a change in machine load hits both alike; the
    # ratio is taken per round and its median reported. Each round keeps its own results
    # together, so a ratio only ever compares two runs of the same round.
    rounds: list[dict[str, Run]] = []
    for _ in range(args.rounds):
        round_results: dict[str, Run] = {}
        for name, run in runs.items():
            result = run()
            if result is not None:
                round_results[name] = result
        rounds.append(round_results)
    for name in runs:
        results = [r[name] for r in rounds if name in r]
        if results:
            report(name, results)
        else:
            print(f"{name:<28} not installed (pip install -e .[bench])")
    ours, theirs = "ours (one deal, classic)", "rlcard UnoGame"
    pairs = [(r[ours], r[theirs]) for r in rounds if ours in r and theirs in r]
    if pairs:
        whole = [(a.decisions / a.cpu) / (b.decisions / b.cpu) for a, b in pairs]
        loops = [
            (a.decisions / (a.cpu - a.setup)) / (b.decisions / (b.cpu - b.setup)) for a, b in pairs
        ]
        print(ratio_line("ratio ours / rlcard, whole deals", whole))
        # RLCard spends about half its time setting a deal up (a numpy RandomState and
        # its deck per game): the decision loops alone compare like with like.
        print(ratio_line("ratio ours / rlcard, decision loops only", loops))
    fast = "ours (apply_legal)"
    pairs = [(r[fast], r[theirs]) for r in rounds if fast in r and theirs in r]
    if pairs:
        loops = [
            (a.decisions / (a.cpu - a.setup)) / (b.decisions / (b.cpu - b.setup)) for a, b in pairs
        ]
        print(ratio_line("ratio ours (apply_legal) / rlcard, decision loops only", loops))


if __name__ == "__main__":
    main()
