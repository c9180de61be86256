"""Cards, their codes and the decks built from them.

A card is its code string (CONTRACT.md section 1): ``R7``, ``G+2``, ``W+4``. Strings are
immutable, hash fast and go over the wire unchanged, so the engine never wraps them.
What a code means is looked up once in :data:`CARD_INFO`.
"""

from __future__ import annotations

from dataclasses import dataclass

COLORS: tuple[str, ...] = ("R", "G", "B", "Y")
NUMBERS: tuple[str, ...] = tuple(str(n) for n in range(10))
ACTIONS: tuple[str, ...] = ("S", "R", "+2")
WILD_CODES: tuple[str, ...] = ("W", "W+4", "W+8", "A+2", "WSH", "WC")


@dataclass(frozen=True, slots=True)
class CardInfo:
    """What a card code means: its colour (None for wilds) and its rank."""

    code: str
    color: str | None
    rank: str

    @property
    def is_wild(self) -> bool:
        return self.color is None

    @property
    def is_number(self) -> bool:
        return self.rank in NUMBERS


def _build_info() -> dict[str, CardInfo]:
    info: dict[str, CardInfo] = {}
    for color in COLORS:
        for rank in NUMBERS + ACTIONS:
            info[color + rank] = CardInfo(color + rank, color, rank)
    for code in WILD_CODES:
        info[code] = CardInfo(code, None, code)
    return info


CARD_INFO: dict[str, CardInfo] = _build_info()


def is_card(code: object) -> bool:
    """True when ``code`` is a card code this engine knows."""
    return isinstance(code, str) and code in CARD_INFO


def classic108() -> list[str]:
    """The 108-card classic deck, in a fixed (unshuffled) order."""
    deck: list[str] = []
    for color in COLORS:
        deck.append(color + "0")
        for rank in NUMBERS[1:] + ACTIONS:
            deck += [color + rank] * 2
    deck += ["W"] * 4 + ["W+4"] * 4
    return deck


def classic112() -> list[str]:
    """UNO Duo's deck: classic108 plus one Wild Shuffle Hands and three Wild Customizable."""
    return classic108() + ["WSH"] + ["WC"] * 3


DECKS = {"classic108": classic108, "classic112": classic112}


def build_deck(name: str, copies: int, extras: tuple[tuple[str, int], ...] = ()) -> list[str]:
    """``copies`` copies of deck ``name`` plus ``extras`` (card, count), in a fixed order
    (shuffling is the caller's)."""
    deck = DECKS[name]() * copies
    for card, count in extras:
        deck += [card] * count
    return deck
