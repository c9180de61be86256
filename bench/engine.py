"""Engine throughput: complete games of random legal actions, ours against RLCard's UNO.

Both engines play the same workload in the same run: 4 players, one deal to the end,
each decision being "ask for the turn holder's legal actions, pick one at random, apply
it". Prints games/s and decisions/s for both and the ratio. RLCard is an optional bench
dependency (`pip install -e .[bench]`); without it only our figures are printed.

    python bench/engine.py [--seconds 5] [--players 4]
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


def run_ours(seconds: float, players: int, preset: str = "oneAndDone") -> tuple[int, int, float]:
    """Play whole deals for about ``seconds``; returns (games, decisions, elapsed)."""
    rules = rules_from_json({"preset": preset})
    rng = random.Random(1)
    games = decisions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state, _ = new_match(rules, players, f"bench-{games}", dealer=0)
        while state.phase == "playing" or state.phase == "chooseColor":
            seat = state.turn
            action = rng.choice(legal_actions(state, seat))
            state, _ = apply(state, seat, action)
            decisions += 1
        games += 1
    return games, decisions, time.perf_counter() - start


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
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        game = UnoGame(num_players=players)
        game.np_random = np.random.RandomState(games)
        game.init_game()
        while not game.is_over():
            action = rng.choice(game.get_legal_actions())
            game.step(action)
            decisions += 1
        games += 1
    return games, decisions, time.perf_counter() - start


def report(name: str, result: tuple[int, int, float]) -> float:
    games, decisions, elapsed = result
    rate = decisions / elapsed
    print(f"{name:<28} {games / elapsed:>10.0f} games/s {rate:>12.0f} decisions/s")
    return rate


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args(argv)
    runs: dict[str, Callable[[], tuple[int, int, float] | None]] = {
        "ours (one deal, classic)": lambda: run_ours(args.seconds, args.players),
        "rlcard UnoGame": lambda: run_rlcard(args.seconds, args.players),
        "ours (match to 500)": lambda: run_ours(args.seconds, args.players, "classic"),
    }
    rates: dict[str, float] = {}
    for name, run in runs.items():
        result = run()
        if result is None:
            print(f"{name:<28} not installed (pip install -e .[bench])")
            continue
        rates[name] = report(name, result)
    if "rlcard UnoGame" in rates:
        ratio = rates["ours (one deal, classic)"] / rates["rlcard UnoGame"]
        print(f"ratio ours / rlcard: {ratio:.2f}x decisions/s")


if __name__ == "__main__":
    main()
