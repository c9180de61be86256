"""The JSON Schema of a rules object (``{"preset", option: value, ...}``) as the engine
takes it, for the OpenAPI document: each option with exactly the values it allows, no
other key. What no schema can say stays the engine's to refuse: options that clash, a
seat count the preset cannot seat."""

from __future__ import annotations

from typing import Any

from engine.rules import OPTIONS, PRESETS, Option


def option_schema(option: Option) -> dict[str, Any]:
    """One option's values, exactly those the engine accepts."""
    if option.kind == "bool":
        return {"type": "boolean"}
    if option.kind == "enum":
        return {"type": "string", "enum": list(option.choices)}
    if option.step == 1:
        ranged: dict[str, Any] = {"type": "integer", "minimum": option.low, "maximum": option.high}
        return {"anyOf": [{"const": 0}, ranged]} if option.zero_off else ranged
    values = list(range(option.low, option.high + 1, option.step))
    return {"type": "integer", "enum": ([0] if option.zero_off else []) + values}


def _options() -> dict[str, Any]:
    return {option.name: option_schema(option) for option in OPTIONS}


# A change of options (PATCH of a scoresheet's rules).
RULES_CHANGE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": _options(),
    "additionalProperties": False,
    "examples": [{"scoringMode": "ownHandCounts"}],
}

# Rules as a room, a tournament or a scoresheet is made with.
RULES_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "a preset (default classic) plus options; docs/rules.md",
    "properties": {"preset": {"type": "string", "enum": sorted(PRESETS)}, **_options()},
    "additionalProperties": False,
}
