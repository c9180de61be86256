"""Bot strength: win share of each bot level at a four-seat table, and the decision time.

Each game is one deal under the classic rules (``classic`` with ``matchMode: oneAndDone``:
the first seat to go out wins). One seat is the bot under test and the three others are
the opponents; the tested seat moves round the table from game to game and the dealer is
drawn as the rules say, so no seat is favoured. Every seat decides from its own view
(``engine.view_for``) only. Opponents:

- ``rlcard``: RLCard's rule agent ``UNORuleAgentV1`` (``rlcard/models/uno_rule_models.py``)
  driven through our views: it draws when RLCard's legal list would hold only ``draw``,
  plays a Wild Draw Four (naming the colour it holds most) when that is its only play
  (RLCard lists a Wild Draw Four only then), else a random play among its non-wild cards
  (wilds, with a random colour, when it holds nothing else playable). After drawing it
  plays the drawn card as RLCard's game does (a wild, or a card of the colour in force)
  and keeps it otherwise. RLCard has no UNO call, challenge or catch: the adapter calls UNO
  with every next-to-last card and never challenges or catches.
- ``normal``: three ``normal`` bots, each keeping its memory of the deal as room bots do.
- ``easy``: three ``easy`` bots.

A fourth seat of the opponents' own kind against the same three is the reference (it
should win about 25 %, the share of any seat at a table of equals); it runs in the same
process with the same deals. (A level against three of its own kind is that reference
line.) Each line reads ``hard vs 3 rlcard: 38.2 % (95 % interval 36.7-39.7, 4000 games)``.

Under each tested bot's line: the CPU time of each ``choose`` call the tested seat made on
its own turn (the process's CPU clock, so other load on the machine does not count
against it, though it slows the CPU's own work), including the calls where it had a
single sensible move; for ``ismcts``, the iterations of each tree search.

    python bench/bots.py [--games 1000] [--hard-games N] [--levels easy,normal,hard]
        [--opponents rlcard,normal,easy] [--seed bots]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

# This file may be run as a script: keep its own folder off the import path.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).parent]

from engine import apply, event_for, new_match, rules_from_json, view_for  # noqa: E402
from engine.actions import Action  # noqa: E402
from engine.bots import Memory, choose, ismcts  # noqa: E402
from engine.bots.reading import View  # noqa: E402
from engine.bots.sample import Unseen  # noqa: E402
from engine.cards import CARD_INFO, COLORS  # noqa: E402

Policy = Callable[[dict[str, Any], random.Random, Memory | None], dict[str, Any] | None]
RULES = rules_from_json({"preset": "classic", "matchMode": "oneAndDone"})
SEATS = 4


# The iterations each tree search ran (the ismcts level), counted around the search.
ITERATIONS: list[int] = []
_search = ismcts.search


def _counted_search(
    view: View, unseen: Unseen, candidates: list[Action], rng: random.Random
) -> tuple[Action, int]:
    move, iterations = _search(view, unseen, candidates, rng)
    ITERATIONS.append(iterations)
    return move, iterations


ismcts.search = _counted_search


def rule_agent_v1(
    view: dict[str, Any], rng: random.Random, memory: Memory | None = None
) -> dict[str, Any] | None:
    """RLCard's UNORuleAgentV1 on our view (see the module docstring)."""
    me = view["you"]
    if view["turn"] != me:
        return None
    if view["phase"] == "chooseColor":
        return {"type": "chooseColor", "color": rng.choice(COLORS)}
    if view["phase"] != "playing":
        return None
    hand: list[str] = view["hand"]
    plays = [a for a in view["legal"] if a["type"] == "play"]
    drawn = view["drawn"]
    if drawn is not None:
        info = CARD_INFO[drawn]
        if plays and (info.is_wild or info.color == view["color"]):
            return _play(view, [drawn], rng.choice(COLORS))
        return {"type": "pass"}
    if view["pendingDraw"]:
        return {"type": "draw"}
    playable = [a["cards"][0] for a in plays]
    plain = [c for c in playable if not CARD_INFO[c].is_wild]
    wilds = [c for c in playable if c == "W"]
    if not plain and not wilds:
        if "W+4" in playable:
            counts = {c: 0 for c in COLORS}
            for card in hand:
                color = CARD_INFO[card].color
                if color is not None:
                    counts[color] += 1
            best = max(counts.values())
            color = rng.choice([c for c in COLORS if counts[c] == best])
            return _play(view, ["W+4"], color)
        return {"type": "draw"}
    if plain:
        return _play(view, [rng.choice(plain)], None)
    return _play(view, ["W"], rng.choice(COLORS))


def _play(view: dict[str, Any], cards: list[str], color: str | None) -> dict[str, Any]:
    action: dict[str, Any] = {"type": "play", "cards": cards}
    if color is not None and CARD_INFO[cards[-1]].is_wild:
        action["color"] = color
    if len(view["hand"]) == 2:
        action["uno"] = True
    return action


def bot(level: str, clock: list[float] | None = None) -> Policy:
    def policy(
        view: dict[str, Any], rng: random.Random, memory: Memory | None
    ) -> dict[str, Any] | None:
        if clock is None or view["turn"] != view["you"]:
            return choose(view, level, rng, memory=memory)
        start = time.process_time()
        action = choose(view, level, rng, memory=memory)
        clock.append(time.process_time() - start)
        return action

    return policy


def play_game(
    policies: list[Policy], seed: str, rng: random.Random, remember: frozenset[int] = frozenset()
) -> int:
    """One deal; the winner's seat. Seats are asked in a random order each step and the
    first action offered is applied, as in a room where out-of-turn moves race. The seats
    in ``remember`` keep a memory of the deal from the events each change sends them."""
    state, events = new_match(RULES, SEATS, seed)
    memories: dict[int, Memory] = {seat: Memory() for seat in remember}

    def sent(events: list[dict[str, Any]]) -> None:
        for seat, memory in memories.items():
            memory.update([event_for(e, seat) for e in events], view_for(state, seat))

    sent(events)
    while state.phase not in ("dealOver", "matchOver"):
        order = list(range(SEATS))
        rng.shuffle(order)
        for seat in order:
            action = policies[seat](view_for(state, seat), rng, memories.get(seat))
            if action is not None:
                state, events = apply(state, seat, action)
                sent(events)
                break
        else:
            raise RuntimeError(f"nobody moves at {state!r}")
    winner: int = state.winner
    return winner


def win_share(
    tested: Policy,
    opponent: Policy,
    games: int,
    seed: str,
    remember: bool = False,
    opponents_remember: bool = False,
) -> tuple[int, int]:
    """Games won by ``tested`` against three ``opponent`` seats, out of ``games``
    (``remember``: the tested seat keeps a memory of the deal; ``opponents_remember``:
    the opponents do)."""
    rng = random.Random(seed)
    wins = 0
    for game in range(games):
        seat = game % SEATS
        policies = [opponent] * SEATS
        policies[seat] = tested
        keep = frozenset(s for s in range(SEATS) if (remember if s == seat else opponents_remember))
        if play_game(policies, f"{seed}-{game}", rng, keep) == seat:
            wins += 1
    return wins, games


def line(name: str, opponents: str, wins: int, games: int) -> str:
    """``hard vs 3 rlcard: 38.2 % (95 % interval 36.7-39.7, 4000 games)``."""
    share = wins / games
    # The 95 % interval of a share measured over this many games (Wilson's score interval).
    z = 1.96
    centre = (share + z * z / (2 * games)) / (1 + z * z / games)
    margin = (
        z / (1 + z * z / games) * (share * (1 - share) / games + z * z / (4 * games * games)) ** 0.5
    )
    low, high = centre - margin, centre + margin
    return (
        f"{name} vs 3 {opponents}: {100 * share:.1f} %"
        f" (95 % interval {100 * low:.1f}-{100 * high:.1f}, {games} games)"
    )


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def timing(clock: list[float]) -> str:
    """The CPU time of the decisions in ``clock`` (seconds each), in milliseconds."""
    mean = sum(clock) / len(clock)
    ms = {q: 1000 * percentile(clock, q) for q in (0.5, 0.95, 0.99)}
    return (
        f"{len(clock)} decisions, CPU ms per decision: mean {1000 * mean:.2f},"
        f" median {ms[0.5]:.2f}, p95 {ms[0.95]:.2f}, p99 {ms[0.99]:.2f},"
        f" max {1000 * max(clock):.2f}"
    )


def iterations(counts: list[int]) -> str:
    ordered = sorted(counts)
    return (
        f"iterations per tree search ({len(ordered)} searches): mean"
        f" {sum(ordered) / len(ordered):.0f}, median {ordered[len(ordered) // 2]},"
        f" min {ordered[0]}, max {ordered[-1]}"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per line")
    parser.add_argument(
        "--hard-games",
        type=int,
        default=None,
        help="games per hard or ismcts line (default: --games)",
    )
    parser.add_argument("--levels", default="easy,normal,hard")
    parser.add_argument("--opponents", default="rlcard,normal,easy")
    parser.add_argument("--seed", default="bots")
    parser.add_argument(
        "--forget",
        action="store_true",
        help="the tested bots keep no memory of the deal (only what each view shows)",
    )
    args = parser.parse_args(argv)
    hard_games = args.games if args.hard_games is None else args.hard_games
    opponents: dict[str, Policy] = {
        "rlcard": rule_agent_v1,
        "normal": bot("normal"),
        "easy": bot("easy"),
    }
    names = args.opponents.split(",")
    unknown = [n for n in names if n not in opponents]
    if unknown:
        parser.error(f"unknown opponents {unknown}: pick from {sorted(opponents)}")
    started = time.process_time()
    for name in names:
        opponent = opponents[name]
        # Bots keep a memory of the deal, as room bots do (not the RLCard agent or easy).
        mind = name == "normal"
        reference = win_share(opponent, opponent, args.games, f"{args.seed}-{name}", mind, mind)
        print(line(f"{name} (reference)", name, *reference), flush=True)
        for level in args.levels.split(","):
            if level == name:
                continue  # the reference line is this very table
            games = hard_games if level in ("hard", "ismcts") else args.games
            clock: list[float] = []
            ITERATIONS.clear()
            tested = bot(level, clock if level != "easy" else None)
            remember = level != "easy" and not args.forget
            result = win_share(tested, opponent, games, f"{args.seed}-{name}", remember, mind)
            print(line(level + ("" if remember else " (no memory)"), name, *result))
            if clock:
                print("  " + timing(clock))
            if ITERATIONS:
                print("  " + iterations(ITERATIONS))
            sys.stdout.flush()
    print(f"total CPU {time.process_time() - started:.0f} s")


if __name__ == "__main__":
    main()
