"""Seating (``shuffleSeats``): the seats shuffled at the start of a match.

The room decides who holds which seat; the engine says in which order the room's players
sit: their own order, or under ``shuffleSeats`` an order shuffled from the match's seed
(a key of its own, so the seating tells nothing about any deal).
"""

from __future__ import annotations

from engine.rules import Rules
from engine.seeded_shuffle import shuffle


def seat_order(rules: Rules, players: int, seed: str) -> list[int]:
    """``order[new_seat]`` is the room's former seat of the player who sits there now."""
    order = [str(s) for s in range(players)]
    if rules.shuffle_seats:
        shuffle(f"{seed}:seats", order)
    return [int(s) for s in order]
