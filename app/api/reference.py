"""Reference data for clients: every rule option with its range and help, the presets,
and the DrukUNO beverage table with the low-strength conversion."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query

from app.accounts.ratings import POOLS, pool_of
from app.api.errors import responses
from engine import PRESETS, describe_options
from engine.bots import ROOM_LEVELS
from engine.drinks import BEVERAGES, SHOT_ABV, SHOT_CL, low_strength_shot_cl
from engine.game_registry import preset_facts
from engine.match import MATCH_END_OPTIONS

router = APIRouter(prefix="/api", tags=["reference"])


@router.get("/rules")
async def rule_options() -> dict[str, Any]:
    """Every rule option (name, kind, default, range or choices, group, one-line help) and
    what each preset sets; ``presetFacts``: each preset's player range and, for a game of
    its own (UNO Rommy, Bottle UNO), the only options it reads; the lists clients show
    that the server decides: the rating pools (each with its presets), the bot levels a
    room seats, and the options that decide how a match ends."""
    return {
        "options": describe_options(),
        "presets": PRESETS,
        "presetFacts": preset_facts(PRESETS),
        "ratingPools": {
            pool: [p for p in PRESETS if pool_of({"preset": p}) == pool] for pool in POOLS
        },
        "botLevels": list(ROOM_LEVELS),
        "matchEndOptions": list(MATCH_END_OPTIONS),
    }


@router.get("/drinks")
async def beverages() -> dict[str, Any]:
    """The beverage table a sip is measured against, and the low-strength rule."""
    return {
        "beverages": list(BEVERAGES),
        "shot": {"volumeCl": SHOT_CL, "abv": SHOT_ABV},
        "lowStrength": "volume = 2 cl x 37 / ABV (e.g. 21 % -> 3.5 cl)",
    }


@router.get("/drinks/low-strength", responses=responses({}))
async def low_strength(
    abv: float = Query(ge=0.1, le=100, description="alcohol by volume, in percent"),
) -> dict[str, float]:
    """How much of a weaker spirit makes one shot."""
    return {"abv": abv, "volumeCl": low_strength_shot_cl(abv)}
