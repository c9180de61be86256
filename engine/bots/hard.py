"""The ``hard`` bot (placeholder: plays the normal policy until the simulation lands)."""

from __future__ import annotations

import random

from engine.actions import Action
from engine.bots.normal import choose_normal
from engine.bots.reading import View


def choose_hard(view: View, rng: random.Random, in_turn_only: bool) -> Action | None:
    return choose_normal(view, rng, in_turn_only)
