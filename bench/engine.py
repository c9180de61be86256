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

# This file is named like the package it measures: keep its own folder off the import path.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).parent]

from engine import apply, legal_actions, new_match, rules_from_json  # noqa: E402


def run_ours(
    seconds: float, players: int, preset: str = "oneAndDone", any_action: bool = False
) -> tuple[int, int, float]:
    """Play whole deals for about ``seconds``; returns (games, decisions, CPU seconds).

    The pick is RLCard's player (a random play when there is one, else draw or pass), or
    with ``any_action`` a uniform pick over the whole list. It is written out in the loop,
    as RLCard's pick is in run_rlcard, so that neither side pays a call for it.
    """
    rules = rules_from_json({"preset": preset})
    rng = random.Random(1)
    games = decisions = 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        state, _ = new_match(rules, players, f"bench-{games}", dealer=0)
        while state.phase == "playing" or state.phase == "chooseColor":
            seat = state.turn
            actions = legal_actions(state, seat)
            if not any_action:
                actions = [a for a in actions if a.type == "play"] or actions
            state, _ = apply(state, seat, rng.choice(actions))
            decisions += 1
        games += 1
    return games, decisions, time.process_time() - start


def run_rlcard(seconds: float, players: int) -> tuple[int, int, float] | None:
    """The same loop on RLCard's UnoGame (configured directly: rlcard.make ignores the
    player count)."""
    try:
        import numpy as np
        from rlcard.games.uno.game import UnoGame
    except ImportError:
        return None
    rng = random.Random(1)
    games = decisions = 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        game = UnoGame(num_players=players)
        game.np_random = np.random.RandomState(games)
        game.init_game()
        while not game.is_over():
            action = rng.choice(game.get_legal_actions())
            game.step(action)
            decisions += 1
        games += 1
    return games, decisions, time.process_time() - start


def report(name: str, results: list[tuple[int, int, float]]) -> None:
    """Print the median round's figures."""
    rates = sorted(d / e for _, d, e in results)
    games = sorted(g / e for g, _, e in results)
    rate = rates[len(rates) // 2]
    print(f"{name:<28} {games[len(games) // 2]:>10.0f} games/s {rate:>12.0f} decisions/s")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="per engine per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args(argv)
    runs: dict[str, Callable[[], tuple[int, int, float] | None]] = {
        "ours (one deal, classic)": lambda: run_ours(args.seconds, args.players),
        "rlcard UnoGame": lambda: run_rlcard(args.seconds, args.players),
        "ours (match to 500)": lambda: run_ours(args.seconds, args.players, "classic"),
        "ours (any legal action)": lambda: run_ours(args.seconds, args.players, any_action=True),
    }
    # Rounds alternate the engines so that a change in machine load hits both alike; the
    # ratio is taken per round and its median reported.
    results: dict[str, list[tuple[int, int, float]]] = {name: [] for name in runs}
    for _ in range(args.rounds):
        for name, run in runs.items():
            result = run()
            if result is not None:
                results[name].append(result)
    for name, result in results.items():
        if result:
            report(name, result)
    for name in runs:
        if not results[name]:
            print(f"{name:<28} not installed (pip install -e .[bench])")
    ours, theirs = results["ours (one deal, classic)"], results["rlcard UnoGame"]
    if theirs:
        ratios = sorted((a[1] / a[2]) / (b[1] / b[2]) for a, b in zip(ours, theirs, strict=True))
        print(
            f"ratio ours / rlcard: {ratios[len(ratios) // 2]:.2f}x decisions/s (median of"
            f" {len(ratios)} rounds; {ratios[0]:.2f}-{ratios[-1]:.2f})"
        )


if __name__ == "__main__":
    main()
