"""The races of UNO, each as a seeded position, a prelude and two competing claims, for the
race tests and ``bench/races.py``. Every claim carries ``at`` (the position it answers)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import engine


@dataclass(frozen=True)
class RaceKind:
    name: str
    players: int
    rules: dict[str, Any]
    setup: dict[str, Any]
    prelude: list[tuple[int, dict[str, Any]]]
    # (connection index, action): connection ``players`` is a second device of seat 1.
    racers: list[tuple[int, dict[str, Any]]]
    losing_codes: set[str] = field(default_factory=lambda: {"too_late"})


_DRAW = ["G7", "G8", "G9", "G4", "Y7", "Y8", "Y9", "B7", "B8", "B9"]

KINDS = [
    RaceKind(
        "jump-in against a normal play",
        4,
        {"jumpIn": True},
        {
            "hands": [["R7", "G1", "G2"], ["Y1", "Y2", "Y3"], ["R5", "B1", "B2"], ["B7", "B8"]],
            "discard": ["R5"],
            "color": "R",
            "drawPile": _DRAW,
            "turn": 0,
        },
        [],
        [(0, {"type": "play", "cards": ["R7"]}), (2, {"type": "play", "cards": ["R5"]})],
    ),
    RaceKind(
        "two identical jump-ins",
        4,
        {"jumpIn": True},
        {
            "hands": [["G1", "G2", "G3"], ["R5", "Y2", "Y3"], ["B7", "B8", "B9"], ["R5", "B1"]],
            "discard": ["R5"],
            "color": "R",
            "drawPile": _DRAW,
            "turn": 0,
        },
        [],
        [(1, {"type": "play", "cards": ["R5"]}), (3, {"type": "play", "cards": ["R5"]})],
    ),
    RaceKind(
        # The jump-in would land on the jumper's own turn once the play is in: still stale.
        "jump-in against the play that makes it the jumper's turn",
        4,
        {"jumpIn": True},
        {
            "hands": [["R1", "R3"], ["Y2", "G5", "G6"], ["Y4", "B5", "B6"], ["G1", "G3"]],
            "discard": ["Y2"],
            "color": "Y",
            "drawPile": _DRAW,
            "turn": 2,
            "direction": -1,
        },
        [],
        [(2, {"type": "play", "cards": ["Y4"]}), (1, {"type": "play", "cards": ["Y2"]})],
    ),
    RaceKind(
        "UNO call against a catch",
        3,
        {},
        {
            "hands": [["R1", "R2"], ["Y1", "Y2", "Y3"], ["B1", "B2", "B3"]],
            "discard": ["R5"],
            "color": "R",
            "drawPile": _DRAW,
            "turn": 0,
        },
        [(0, {"type": "play", "cards": ["R1"]})],  # next-to-last card, no UNO call
        [(0, {"type": "callUno"}), (1, {"type": "catchUno", "target": 0})],
    ),
    RaceKind(
        "two catches of one player",
        3,
        {},
        {
            "hands": [["R1", "R2"], ["Y1", "Y2", "Y3"], ["B1", "B2", "B3"]],
            "discard": ["R5"],
            "color": "R",
            "drawPile": _DRAW,
            "turn": 0,
        },
        [(0, {"type": "play", "cards": ["R1"]})],
        [(1, {"type": "catchUno", "target": 0}), (2, {"type": "catchUno", "target": 0})],
    ),
    RaceKind(
        "challenge against a draw from two devices",
        3,
        {},
        {
            "hands": [["W+4", "G1", "G2"], ["Y1", "Y2", "Y3"], ["B1", "B2", "B3"]],
            "discard": ["R5"],
            "color": "R",
            "drawPile": _DRAW,
            "turn": 0,
        },
        [(0, {"type": "play", "cards": ["W+4"], "color": "G"})],
        [(1, {"type": "challenge"}), (3, {"type": "draw"})],
    ),
]


def stale_claims(deal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The entries of a deal log applied although their ``at`` was not the position they
    were applied to (none, if ``at`` is kept)."""
    stale: list[dict[str, Any]] = []
    state: Any = None
    for entry in deal:
        if "start" in entry:
            state = engine.state_from_json(entry["start"])
            continue
        at = entry["action"].get("at")
        if at is not None and at != state.moves:
            stale.append(entry)
        state, _ = engine.apply(state, entry["seat"], {**entry["action"], "at": None})
    return stale
