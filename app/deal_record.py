"""A finished deal as a room hands it on: made by the room machine, stored in SQL by
:mod:`app.db`. Plain data, here below both, so that the room machine reads no SQL layer."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any


@dataclass(frozen=True, slots=True)
class DealRecord:
    """A finished deal as the room hands it to SQL: made by the room machine, kept in the
    room's outbox (:meth:`to_json`) until the archiver has stored it, then written by
    ``Database.record_deal``. ``actions`` are ``{"seq", "ts", "seat", "action"}`` in the
    order they were applied; ``seats`` are ``{"seat", "playerId", "name"}`` (and, for the
    ratings, ``left``, ``moves`` and ``auto``: moves the room made for the seat); ``scores``
    is None for a deal without scoring (Bottle UNO). ``rated``: the room rates its matches
    (outbox entries written before there were ratings have no such key: not rated)."""

    match_id: str
    deal_number: int
    start_state: dict[str, Any]
    actions: list[dict[str, Any]]
    scores: list[int | None] | None
    totals: list[int]
    winner: int | None
    match_over: bool
    seats: list[dict[str, Any]]
    rated: bool = False

    def to_json(self) -> dict[str, Any]:
        """The outbox's form (snake_case keys, as every outbox entry has been written).
        Shallow: the values are the record's own, to be serialised, not changed (a deep
        copy of the start state and every action cost ~0.5 ms per deal)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> DealRecord:
        return cls(**{f.name: data[f.name] for f in fields(cls) if f.name in data})
