"""How many seats a room's rules can seat: a preset may fix its player range (UNO Duo
takes exactly two), and a room whose seat count is outside it could never start."""

from __future__ import annotations

from typing import Any

import engine
from app.rooms.errors import RoomError


def player_range(rules: dict[str, Any]) -> tuple[int, int]:
    """(fewest, most) players the rules (wire form, already checked) take."""
    parsed = engine.rules_from_json(rules)
    return parsed.min_players, parsed.max_players


def check_seats(rules: dict[str, Any], seats: int) -> None:
    """Refuse a seat count the rules cannot seat (``bad_seats``, nothing changed)."""
    low, high = player_range(rules)
    if not low <= seats <= high:
        preset = rules.get("preset", "classic")
        raise RoomError(
            422,
            "bad_seats",
            f"{preset} takes {low} to {high} players; a room of {seats} seats cannot start",
            {"min": low, "max": high},
        )
