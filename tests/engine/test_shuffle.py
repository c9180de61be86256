"""The engine's inlined shuffle deals exactly what ``random.Random(seed).shuffle`` deals:
recorded replays and every seeded test depend on it."""

from __future__ import annotations

import random

import pytest

from engine.seeded_shuffle import shuffle


@pytest.mark.parametrize("size", [0, 1, 2, 3, 7, 64, 65, 108, 112, 216, 1024, 1500])
def test_shuffle_matches_the_standard_library(size: int) -> None:
    cards = [f"c{i}" for i in range(size)]
    for n in range(50):
        seed = f"seed-{size}:{n}"
        ours, theirs = list(cards), list(cards)
        shuffle(seed, ours)
        random.Random(seed).shuffle(theirs)
        assert ours == theirs
