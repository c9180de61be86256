"""The seeded shuffle every deal and reshuffle uses.

:func:`shuffle` puts ``cards`` in exactly the order ``random.Random(seed).shuffle(cards)``
does (recorded replays and tests depend on those deals), with the standard library's
per-card helper calls inlined: a new deal shuffles 108 cards, and the stock method spends
most of its time calling ``_randbelow`` once per card.
"""

from __future__ import annotations

import random

# n.bit_length() for every deck size the engine shuffles, looked up instead of computed.
_BITS: tuple[int, ...] = tuple(n.bit_length() for n in range(1025))


def shuffle(seed: str, cards: list[str]) -> None:
    """Shuffle ``cards`` in place as ``random.Random(seed).shuffle(cards)`` would."""
    getrandbits = random.Random(seed).getrandbits
    bits = _BITS if len(cards) < len(_BITS) else None
    for i in range(len(cards) - 1, 0, -1):
        # Random._randbelow_with_getrandbits(i + 1): draw k bits until below the bound.
        n = i + 1
        k = bits[n] if bits is not None else n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]
