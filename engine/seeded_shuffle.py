"""The seeded shuffle every deal and reshuffle uses.

:func:`shuffle` puts ``cards`` in exactly the order ``random.Random(seed).shuffle(cards)``
does (recorded replays and tests depend on those deals), with the standard library's
per-card helper calls inlined: a new deal shuffles 108 cards, and the stock method spends
most of its time calling ``_randbelow`` once per card.
"""

from __future__ import annotations

import random
from functools import lru_cache


@lru_cache(maxsize=256)
def _steps(size: int) -> tuple[tuple[int, int, int], ...]:
    """(i, i + 1, (i + 1).bit_length()) for i from size - 1 down to 1: the loop's own
    numbers, worked out once per pile size (a deal shuffles the same size every time)."""
    return tuple((i, i + 1, (i + 1).bit_length()) for i in range(size - 1, 0, -1))


def seed_of(match_seed: str, shuffles: int) -> str:
    """The seed of a match's ``shuffles``-th shuffle: every deal and reshuffle of every
    game draws its own, so a match replays from its seed and its action log."""
    return f"{match_seed}:{shuffles}"


def shuffle(seed: str, cards: list[str]) -> None:
    """Shuffle ``cards`` in place as ``random.Random(seed).shuffle(cards)`` would."""
    getrandbits = random.Random(seed).getrandbits
    for i, n, k in _steps(len(cards)):
        # Random._randbelow_with_getrandbits(n): draw k bits until below the bound.
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]
