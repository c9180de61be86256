"""The UNO rules engine: pure functions over immutable game states.

Nothing here does I/O, reads a clock or touches global random state; randomness comes from
a seed held in the state. ``app/`` imports this package, never the other way round.
"""

from __future__ import annotations

from engine.actions import ACTION_TYPES, Action, ActionType, parse_action
from engine.api import (
    GameState,
    apply,
    apply_legal,
    face_up,
    hands_of,
    is_out,
    legal_actions,
    new_match,
    state_from_json,
    view_for,
)
from engine.errors import EngineError, IllegalAction, InvalidAction, InvalidRules
from engine.events import (
    DealOver,
    Event,
    Flip,
    event_for,
    event_full,
    is_deal_over,
    is_flip,
    private_to,
)
from engine.replay import ReplayedEntry, final_state, replay_log
from engine.rules import PRESETS, Rules, describe_options, rules_from_json, with_options
from engine.state import State
from engine.view import SeatPart, Table, TablePlayer, view_parts, wire_legal

__all__ = [
    "ACTION_TYPES",
    "PRESETS",
    "Action",
    "ActionType",
    "DealOver",
    "EngineError",
    "Event",
    "Flip",
    "GameState",
    "IllegalAction",
    "InvalidAction",
    "InvalidRules",
    "Rules",
    "ReplayedEntry",
    "SeatPart",
    "State",
    "Table",
    "TablePlayer",
    "apply",
    "apply_legal",
    "describe_options",
    "event_for",
    "event_full",
    "face_up",
    "final_state",
    "hands_of",
    "is_deal_over",
    "is_flip",
    "is_out",
    "legal_actions",
    "new_match",
    "parse_action",
    "private_to",
    "replay_log",
    "rules_from_json",
    "state_from_json",
    "view_for",
    "view_parts",
    "wire_legal",
    "with_options",
]
