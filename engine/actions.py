"""Actions: what a seat asks the engine to do, parsed from the wire form once.

An :class:`Action` is an immutable named tuple so that legal-action lists are cheap to
build, compare and hash. Its ``type`` is an :data:`ActionType`: a closed set of names, so
that the type checker refuses a misspelled one wherever an action is built or its type
compared. :func:`parse_action` turns an action (docs/protocol.md) into one, refusing
malformed input with :class:`~engine.errors.InvalidAction`: the one parser of the wire
form, used where an action comes in (a socket, a stored log, a scenario file).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, NamedTuple, TypeGuard, get_args

from engine.cards import ALL_COLORS, is_card
from engine.errors import InvalidAction

ActionType = Literal[
    "play",
    "draw",
    "pass",
    "callUno",
    "catchUno",
    "challenge",
    "chooseColor",
    "nextDeal",
    # misplayPenalty: the room's penalty for a refused play (engine.misplay)
    "misplay",
    # blitzSeconds: the room's word that the seat's match clock ran out (engine.blitz)
    "clockOut",
    # UNO Duo's draft
    "keep",
    "discard",
    # UNO Rommy
    "meld",
    "layOff",
    "takeDiscard",
    "takePile",
    "discardCard",
    "swapJoker",
    # Bottle UNO
    "turnCard",
]

# The same names as a set, read from the type above (so they are listed once).
ACTION_TYPES: frozenset[ActionType] = frozenset(get_args(ActionType))


def is_action_type(value: object) -> TypeGuard[ActionType]:
    """Whether ``value`` names an action (a string in :data:`ACTION_TYPES`)."""
    return isinstance(value, str) and value in ACTION_TYPES


class Action(NamedTuple):
    """One action. ``at`` (optional) is the ``moves`` count of the state the seat reacted to:
    an action of any type whose ``at`` is not the current ``moves`` arrived too late and is
    refused with ``too_late`` before any other check."""

    type: ActionType
    cards: tuple[str, ...] = ()
    color: str | None = None
    target: int | None = None
    uno: bool = False
    at: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The wire form, with only the fields this action uses."""
        out: dict[str, Any] = {"type": self.type}
        if self.cards:
            out["cards"] = list(self.cards)
        if self.color is not None:
            out["color"] = self.color
        if self.target is not None:
            out["target"] = self.target
        if self.uno:
            out["uno"] = True
        if self.at is not None:
            out["at"] = self.at
        return out


def parse_action(data: object) -> Action:
    """An :class:`Action` from its wire form (an :class:`Action` is returned as it is).

    :raises InvalidAction: not an object, unknown ``type``, or a field of the wrong kind.
    """
    if isinstance(data, Action):
        return data
    if not isinstance(data, Mapping):
        raise InvalidAction("bad_action", f"an action must be a JSON object, got {data!r}")
    kind = data.get("type")
    if not is_action_type(kind):
        raise InvalidAction("unknown_action", f"unknown action type {kind!r}")
    return Action(
        type=kind,
        cards=_cards_field(data.get("cards"), kind),
        color=_color_field(data.get("color")),
        target=_int_field(data, "target"),
        uno=_uno_field(data.get("uno")),
        at=_at_field(data.get("at")),
    )


_NEEDS_CARDS: frozenset[ActionType] = frozenset(
    {"play", "meld", "layOff", "discardCard", "swapJoker", "misplay"}
)


def _cards_field(value: object, kind: ActionType) -> tuple[str, ...]:
    if value is None:
        if kind in _NEEDS_CARDS:
            raise InvalidAction("cards_required", f"{kind!r} needs a non-empty list 'cards'")
        return ()
    if not isinstance(value, list | tuple) or (kind in _NEEDS_CARDS and not value):
        raise InvalidAction(
            "bad_cards", f"'cards' must be a non-empty list of card codes, got {value!r}"
        )
    for card in value:
        if not is_card(card):
            raise InvalidAction("unknown_card", f"unknown card code {card!r}")
    return tuple(value)


def _color_field(value: object) -> str | None:
    if value is None or value in ALL_COLORS:
        return value
    raise InvalidAction("bad_color", f"'color' must be one of {list(ALL_COLORS)}, got {value!r}")


_INT_LIMIT = 2**53


def _int_field(data: Mapping[str, Any], name: str) -> int | None:
    value = data.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidAction(f"bad_{name}", f"{name!r} must be a whole number, got {value!r}")
    if not -_INT_LIMIT < value < _INT_LIMIT:
        # Counts and seats are small; a huge number fits no serialiser or database column.
        raise InvalidAction(f"bad_{name}", f"{name!r} is out of range: {value!r}")
    return value


def _at_field(value: object) -> int | None:
    """``at``: the ``moves`` count of the position the action answers (see engine.transition)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < _INT_LIMIT:
        raise InvalidAction("bad_at", f"'at' must be a non-negative whole number, got {value!r}")
    return value


def _uno_field(value: object) -> bool:
    if value is None:
        return False
    if isinstance(value, bool):
        return value
    raise InvalidAction("bad_uno", f"'uno' must be true or false, got {value!r}")


def check_seat(seat: object, players: int) -> int:
    """``seat`` as a seat number at a table of ``players``.

    :raises InvalidAction: not a whole number from 0 to players - 1.
    """
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise InvalidAction("bad_seat", f"no seat {seat!r} at a table of {players}")
    return seat
