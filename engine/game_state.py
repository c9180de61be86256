"""What every game's state answers: the :class:`GameState` protocol.

The engine's public functions (engine.api, engine.replay) take and return states of
several classes: UNO's own :class:`~engine.state.State` (the shedding games: classic,
house rules, DrukUNO, Duo, Flip), UNO Rommy's and Bottle UNO's. Each has the fields below
(as a field or a property), so a caller reads them without asking which game it holds;
what only some games keep (hands of cards, the face up of a two-sided deck, seats out of
the match) has a function of its own in engine.api that answers for every game.
"""

from __future__ import annotations

from dataclasses import Field
from typing import Any, ClassVar, Protocol

from engine.rules import Rules


class GameState(Protocol):
    """A match of any game at one moment (immutable, as every state the engine returns).

    Every game's state is a dataclass (``dataclasses.replace`` builds a changed copy)."""

    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    @property
    def rules(self) -> Rules: ...
    @property
    def players(self) -> int: ...
    @property
    def seed(self) -> str: ...  # the match's (or, in a room, the deal's) shuffle seed
    @property
    def shuffles(self) -> int: ...
    @property
    def deal(self) -> int: ...  # the deal (round) number, 1-based once dealt
    @property
    def dealer(self) -> int: ...
    @property
    def phase(self) -> str: ...  # "playing", "dealOver", "matchOver", ... (game's own)
    @property
    def turn(self) -> int: ...
    @property
    def direction(self) -> int: ...
    @property
    def moves(self) -> int: ...  # table moves so far: what an action's ``at`` answers
    @property
    def totals(self) -> tuple[int, ...]: ...  # running totals (Bottle UNO: its sip tally)
    @property
    def deal_scores(self) -> tuple[int, ...] | None: ...  # None until (or unless) scored
    @property
    def winner(self) -> int | None: ...
    @property
    def match_over(self) -> bool: ...
    @property
    def top(self) -> str | None: ...  # the face-up card on top of the discard (or turned)

    def to_json(self) -> dict[str, Any]: ...
