"""The game state: one value holding a whole match at one moment.

A :class:`State` is never changed once the engine has returned it: every transition works
on a :meth:`State.copy` and replaces whole fields (hands and piles are tuples). Piles are
stored top-last so that drawing is a slice from the end.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any

from engine.rules import Rules, rules_from_json

Hand = tuple[str, ...]

# Fields added after states were first stored: a stored state without them reads as this.
_LATER: dict[str, Any] = {"placed": (), "place_points": ()}


@dataclass(slots=True, repr=False)
class State:
    """A match in progress. Treat as immutable; the engine copies before it changes.

    A dataclass like the states of UNO Rommy and Bottle UNO, but not frozen: a transition
    sets the fields of its own fresh copy (see ``_copier``) before anyone else sees it.
    """

    rules: Rules
    players: int
    seed: str
    shuffles: int  # how many shuffles this match has made: each one seeds its own RNG
    deal: int
    dealer: int
    phase: str
    hands: tuple[Hand, ...]
    draw_pile: Hand  # top last
    discard: Hand  # top last
    color: str | None
    turn: int
    direction: int
    pending: int  # the draw penalty the turn holder faces
    pending_kind: str | None  # the card rank that may be stacked on it
    wd4: tuple[int, bool] | None  # (who played the Wild Draw Four, was it a bluff)
    drawn: str | None  # the card the turn holder drew and may still play
    exposed: int | None  # the seat that may be caught for not calling UNO
    declared: int | None  # the seat that called UNO before playing its next-to-last card
    caught: int | None  # the seat caught since the last turn action (a late call is too late)
    totals: tuple[int, ...]
    deal_scores: tuple[int, ...] | None
    winner: int | None
    out: tuple[bool, ...]  # knocked out of the match
    moves: int
    follow: int  # drawFourFollowColor: draws left while the Wild Draw Four's colour is owed
    after_color: int | None  # whose turn it is once the chooser has named the colour
    draft: Hand  # UNO Duo's face-down draft pile
    dump_color: str | None  # UNO Duo: the turn holder may lay every card of this colour
    drinks: tuple[int, ...] | None  # sips per seat this match (None: drinks are off)
    sips: tuple[tuple[int, int, str], ...]  # every (seat, sips, reason) this match
    side: str  # UNO Flip: which face of every card is up, "light" or "dark"
    placed: tuple[int, ...]  # placings: the seats that went out this deal, in order
    place_points: tuple[int, ...]  # placings: each seat's points this deal so far, or ()

    # The fields are the annotations above, listed once: slots, JSON, equality and the
    # copies below are made from them in this order (the order to_json writes them).

    def copy(self) -> State:
        """A working copy: every transition's first step (replaced below by generated
        code that does the same field by field)."""
        return State.from_json(self.to_json())

    def moved(self) -> State:
        """A working copy for a table move: ``moves`` counts it, and a move closes the UNO
        catch window (``exposed`` and ``caught`` cleared). Replaced below, as copy."""
        new = self.copy()
        new.moves += 1
        new.exposed = new.caught = None
        return new

    @property
    def match_over(self) -> bool:
        return self.phase == "matchOver"

    @property
    def top(self) -> str | None:
        return self.discard[-1] if self.discard else None

    def active_seats(self) -> list[int]:
        return [s for s in range(self.players) if not self.out[s]]

    def to_json(self) -> dict[str, Any]:
        """Every field as plain JSON (piles top-last, as stored)."""
        out: dict[str, Any] = {}
        for name in FIELDS:
            value = getattr(self, name)
            if name == "rules":
                value = value.to_json()
            elif isinstance(value, tuple):
                value = [list(v) if isinstance(v, tuple) else v for v in value]
            out[name] = value
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> State:
        """The inverse of :meth:`to_json`."""
        state = cls.__new__(cls)
        for name in FIELDS:
            value = data[name] if name in data or name not in _LATER else _LATER[name]
            if name == "rules":
                value = rules_from_json(value)
            elif name in ("hands", "sips"):
                value = tuple(tuple(h) for h in value)
            elif name == "wd4" and value is not None:
                value = tuple(value)
            elif isinstance(value, list):
                value = tuple(value)
            object.__setattr__(state, name, value)
        return state

    def __repr__(self) -> str:
        return (
            f"State(deal={self.deal}, phase={self.phase!r}, turn={self.turn},"
            f" top={self.top!r}, color={self.color!r}, hands={self.hands!r})"
        )


FIELDS: tuple[str, ...] = tuple(f.name for f in fields(State))


def _copier(name: str, changed: dict[str, str]) -> Callable[[State], State]:
    """A function copying a state field by field, with ``changed`` fields set to the
    given expressions of ``self`` instead.

    Every transition starts with a copy, so it is generated as straight-line code (one
    assignment per field, as if written out by hand): a loop over the fields with
    getattr/setattr costs three times as much, and writing the fields out here would list
    them a second time.
    """
    lines = [f"def {name}(self):", "    new = _new(State)"]
    lines += [f"    new.{f} = {changed.get(f, 'self.' + f)}" for f in FIELDS]
    lines.append("    return new")
    scope: dict[str, Any] = {"_new": object.__new__, "State": State}
    exec("\n".join(lines), scope)  # noqa: S102 - source built above from FIELDS only
    copier: Callable[[State], State] = scope[name]
    return copier


# Bound straight onto the class: a wrapper method would cost a call on every transition.
State.copy = _copier("copy", {})  # type: ignore[method-assign,assignment]
State.moved = _copier(  # type: ignore[method-assign,assignment]
    "moved", {"moves": "self.moves + 1", "exposed": "None", "caught": "None"}
)
