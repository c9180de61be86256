"""UNO Rommy's state: one match at one moment, its JSON, and the values of its cards."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.cards import CARD_INFO
from engine.events import Event
from engine.rules import Rules
from engine.variants.rommy.melds import (
    Meld,
)
from engine.variants.skeleton import match_fields, match_json

HAND_SIZE = 7
DRAW_TWO_CARDS = 2
JOKER_SWAP_SIPS = 4  # the one who laid a Wild Draw Four joker drinks this when it is swapped

Transition = tuple["RommyState", list[Event]]
Sip = tuple[int, int, str]  # (seat, sips, reason)


def card_points(card: str) -> int:
    """Rommy's value of a card: 1-9 = 5, 0 = 10, Skip / Draw Two / Reverse = 15, wilds 25."""
    info = CARD_INFO[card]
    if info.is_wild:
        return 25
    if info.rank == "0":
        return 10
    if info.is_number:
        return 5
    return 15


@dataclass(frozen=True, slots=True)
class RommyState:
    """A UNO Rommy match at one moment (immutable: transitions build a new one)."""

    rules: Rules
    players: int
    seed: str
    shuffles: int
    deal: int
    dealer: int
    phase: str  # playing | dealOver | matchOver
    step: str  # draw | play (the turn holder's step while playing)
    hands: tuple[tuple[str, ...], ...]
    stock: tuple[str, ...]  # top last
    discard: tuple[str, ...]  # top last
    melds: tuple[Meld, ...]
    turn: int
    direction: int
    pending: int  # cards the turn holder's draw takes (a Draw Two makes it 2)
    must_meld: bool  # took the pile: the next move must be a meld
    totals: tuple[int, ...]
    deal_scores: tuple[int, ...] | None
    winner: int | None
    drinks: tuple[int, ...] | None  # per-seat sips (None when drinks are off)
    sips: tuple[Sip, ...]  # every sip with its reason, in order
    moves: int

    @property
    def match_over(self) -> bool:
        return self.phase == "matchOver"

    @property
    def top(self) -> str | None:
        return self.discard[-1] if self.discard else None

    def to_json(self) -> dict[str, Any]:
        return {
            **match_json("rommy", self),
            "step": self.step,
            "hands": [list(h) for h in self.hands],
            "stock": list(self.stock),
            "discard": list(self.discard),
            "melds": [m.to_json() for m in self.melds],
            "turn": self.turn,
            "direction": self.direction,
            "pending": self.pending,
            "mustMeld": self.must_meld,
            "totals": list(self.totals),
            "dealScores": None if self.deal_scores is None else list(self.deal_scores),
            "winner": self.winner,
            "drinks": None if self.drinks is None else list(self.drinks),
            "sips": [list(s) for s in self.sips],
            "moves": self.moves,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RommyState:
        scores = data["dealScores"]
        drinks = data["drinks"]
        return cls(
            **match_fields(data),
            step=str(data["step"]),
            hands=tuple(tuple(h) for h in data["hands"]),
            stock=tuple(data["stock"]),
            discard=tuple(data["discard"]),
            melds=tuple(Meld.from_json(m) for m in data["melds"]),
            turn=int(data["turn"]),
            direction=int(data["direction"]),
            pending=int(data["pending"]),
            must_meld=bool(data["mustMeld"]),
            totals=tuple(data["totals"]),
            deal_scores=None if scores is None else tuple(scores),
            winner=data["winner"],
            drinks=None if drinks is None else tuple(drinks),
            sips=tuple((int(s), int(n), str(r)) for s, n, r in data["sips"]),
            moves=int(data["moves"]),
        )


def empty_match(rules: Rules, players: int, seed: str, dealer: int) -> RommyState:
    """A match with no deal dealt yet (``deal`` 0)."""
    return RommyState(
        rules=rules,
        players=players,
        seed=seed,
        shuffles=0,
        deal=0,
        dealer=dealer,
        phase="dealOver",
        step="draw",
        hands=tuple(() for _ in range(players)),
        stock=(),
        discard=(),
        melds=(),
        turn=dealer,
        direction=1,
        pending=0,
        must_meld=False,
        totals=(0,) * players,
        deal_scores=None,
        winner=None,
        drinks=(0,) * players if rules.drinks else None,
        sips=(),
        moves=0,
    )
