"""Do the ratings find who plays better? Players driven by our bots, whose strength order
is known (``easy`` < ``normal`` < ``hard``: docs/performance.md, "Bots"), play one-deal
4-player matches at random tables, rated after each match by the server's own rating code
(``app.accounts.ratings``: OpenSkill's Plackett-Luce model over the placings, as a rated
quick-play match is).

The games are played by the engine in this process (each seat's bot sees only its own
view), not over sockets: the bench checks the model, which gets the same placings either
way. The matches are split in two: the first ``--train`` share is rated only; on the rest
(held out) the model first predicts each seat's chance of winning from the ratings so
far, then rates the match. Reports the mean shown rating per level, the share of pairs of
players of different levels that the ratings order right, and the log loss of the
predicted winner against the 25 % uniform baseline (ln 4 = 1.386).

    python bench/ratings.py [--levels easy,normal] [--per-level 4] [--matches 400]
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.accounts.ratings import Belief, SeatResult, places, rate, shown, win_chances  # noqa: E402
from engine import apply, new_match, rules_from_json, view_for  # noqa: E402
from engine.bots import choose  # noqa: E402

RULES = rules_from_json({"preset": "classic", "matchMode": "oneAndDone"})
TABLE = 4


def play(levels: list[str], seed: str, rng: random.Random) -> tuple[int, list[int]]:
    """One deal; the winner's seat and the totals."""
    state, _ = new_match(RULES, TABLE, seed)
    for _ in range(5000):
        if state.phase in ("dealOver", "matchOver"):
            return int(state.winner), list(state.totals)
        order = list(range(TABLE))
        rng.shuffle(order)
        for seat in order:
            action = choose(view_for(state, seat), levels[seat], rng)
            if action is not None:
                state, _ = apply(state, seat, action)
                break
        else:
            raise RuntimeError("nobody moves")
    raise RuntimeError("the deal did not end")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default="easy,normal")
    parser.add_argument("--per-level", type=int, default=4)
    parser.add_argument("--matches", type=int, default=400)
    parser.add_argument("--train", type=float, default=0.7)
    parser.add_argument("--seed", default="ratings")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    players = [(level, i) for level in args.levels.split(",") for i in range(args.per_level)]
    beliefs: dict[Any, Belief] = {p: Belief() for p in players}
    games = dict.fromkeys(players, 0)
    held_out = int(args.matches * args.train)
    losses: list[float] = []
    started = time.monotonic()
    for match in range(args.matches):
        table = rng.sample(players, TABLE)
        winner, totals = play([level for level, _ in table], f"{args.seed}-{match}", rng)
        before = [beliefs[p] for p in table]
        if match >= held_out:
            chances = win_chances(before)
            losses.append(-math.log(max(chances[winner], 1e-9)))
        seats = [SeatResult(seat, totals[seat]) for seat in range(TABLE)]
        after = rate(before, places(seats, winner, RULES.lowest_wins))
        for p, belief in zip(table, after, strict=True):
            assert belief is not None
            beliefs[p] = belief
            games[p] += 1
    elapsed = time.monotonic() - started
    print(
        f"{len(players)} players ({args.per_level} per level), {args.matches} matches"
        f" ({min(games.values())}-{max(games.values())} per player), {elapsed:.0f} s"
    )
    order = args.levels.split(",")
    for level in order:
        values = [shown(beliefs[p].mu) for p in players if p[0] == level]
        print(f"{level:<7} mean rating {sum(values) / len(values):6.0f}  ({sorted(values)})")
    pairs = [
        (a, b)
        for a, b in itertools.combinations(players, 2)
        if order.index(a[0]) < order.index(b[0])
    ]
    right = sum(1 for a, b in pairs if beliefs[a].mu < beliefs[b].mu)
    print(f"pairs of different levels ordered right: {right}/{len(pairs)}")
    loss = sum(losses) / len(losses)
    print(
        f"log loss of the predicted winner on {len(losses)} held-out matches: {loss:.3f}"
        f" (uniform 25 %: {math.log(4):.3f})"
    )


if __name__ == "__main__":
    main()
