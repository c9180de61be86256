"""How many seats a room's rules can seat: a preset may fix its player range (UNO Duo
takes exactly two), teams need a seat count they divide (``teams: 2`` at an even count),
and a room whose seat count breaks either could never start."""

from __future__ import annotations

from typing import Any

import engine
from app.errors import RoomError
from engine.teams import check_players


def player_range(rules: dict[str, Any]) -> tuple[int, int]:
    """(fewest, most) players the rules (wire form, already checked) take."""
    parsed = engine.rules_from_json(rules)
    return parsed.min_players, parsed.max_players


def check_seats(rules: dict[str, Any], seats: int) -> None:
    """Refuse a seat count the rules cannot seat (``bad_seats`` outside the preset's range,
    ``rules/clash`` naming ``teams`` when the teams cannot divide it; nothing changed)."""
    low, high = player_range(rules)
    if not low <= seats <= high:
        preset = rules.get("preset", "classic")
        raise RoomError(
            422,
            "bad_seats",
            f"{preset} takes {low} to {high} players; a room of {seats} seats cannot start",
            {"min": low, "max": high},
        )
    # The same check the engine makes when the match starts, made here so that the room
    # is refused when it is set up rather than when its table is full.
    try:
        check_players(engine.rules_from_json(rules), seats)
    except engine.EngineError as err:
        raise RoomError.from_engine(err, 422, about=f"a room of {seats} seats") from None
