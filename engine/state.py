"""The game state: one value holding a whole match at one moment.

A :class:`State` is never changed once the engine has returned it: every transition works
on a :meth:`State.copy` and replaces whole fields (hands and piles are tuples). Piles are
stored top-last so that drawing is a slice from the end.
"""

from __future__ import annotations

from typing import Any

from engine.actions import Action
from engine.rules import Rules, rules_from_json

Hand = tuple[str, ...]
_new = object.__new__


# Every field of a match, in the order to_json writes them.
FIELDS: tuple[str, ...] = (
    "rules",
    "players",
    "seed",
    "shuffles",
    "deal",
    "dealer",
    "phase",
    "hands",
    "draw_pile",
    "discard",
    "color",
    "turn",
    "direction",
    "pending",
    "pending_kind",
    "wd4",
    "drawn",
    "exposed",
    "declared",
    "caught",
    "totals",
    "deal_scores",
    "winner",
    "out",
    "moves",
    "follow",
    "after_color",
    "draft",
    "dump_color",
    "drinks",
    "sips",
    "side",
    "placed",
    "place_points",
)

# Fields added after states were first stored: a stored state without them reads as this.
_LATER: dict[str, Any] = {"placed": (), "place_points": ()}


class State:
    """A match in progress. Treat as immutable; the engine copies before it changes."""

    # ``memo`` and ``memo_seat`` are no part of the value: legal_actions leaves the last
    # list it made there (and whose it is) so that apply can accept one of those actions
    # without checking it again. Equality, JSON and copies leave them out (a copy is a new
    # position and starts with no list; ``memo_seat`` is only read when there is one).
    __slots__ = (*FIELDS, "memo", "memo_seat")

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
    memo: tuple[Action, ...] | None  # the legal actions of memo_seat, or None
    memo_seat: int

    def copy(self) -> State:
        # Spelled out field by field: this runs once per action and a loop over
        # __slots__ with getattr/setattr costs three times as much.
        new = _new(State)
        new.rules = self.rules
        new.players = self.players
        new.seed = self.seed
        new.shuffles = self.shuffles
        new.deal = self.deal
        new.dealer = self.dealer
        new.phase = self.phase
        new.hands = self.hands
        new.draw_pile = self.draw_pile
        new.discard = self.discard
        new.color = self.color
        new.turn = self.turn
        new.direction = self.direction
        new.pending = self.pending
        new.pending_kind = self.pending_kind
        new.wd4 = self.wd4
        new.drawn = self.drawn
        new.exposed = self.exposed
        new.declared = self.declared
        new.caught = self.caught
        new.totals = self.totals
        new.deal_scores = self.deal_scores
        new.winner = self.winner
        new.out = self.out
        new.moves = self.moves
        new.follow = self.follow
        new.after_color = self.after_color
        new.draft = self.draft
        new.dump_color = self.dump_color
        new.drinks = self.drinks
        new.sips = self.sips
        new.side = self.side
        new.placed = self.placed
        new.place_points = self.place_points
        new.memo = None
        return new

    assert len(__slots__) == 36  # copy() names every field and resets the memo: keep in step

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
        state.memo = None
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

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in FIELDS)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"State(deal={self.deal}, phase={self.phase!r}, turn={self.turn},"
            f" top={self.top!r}, color={self.color!r}, hands={self.hands!r})"
        )
