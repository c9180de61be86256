"""Cards, their codes and the decks built from them.

A card is its code string (docs/cards.md): ``R7``, ``G+2``, ``W+4``. Strings are
immutable, hash fast and go over the wire unchanged, so the engine never wraps them.
What a code means is looked up once in :data:`CARD_INFO`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

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
    # Derived once: read on every legality check.
    is_wild: bool = field(init=False, repr=False, compare=False)
    is_number: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "is_wild", self.color is None)
        object.__setattr__(self, "is_number", self.rank in NUMBERS)


def _build_info() -> dict[str, CardInfo]:
    info: dict[str, CardInfo] = {}
    for color in COLORS:
        for rank in NUMBERS + ACTIONS:
            info[color + rank] = CardInfo(color + rank, color, rank)
    for code in WILD_CODES:
        info[code] = CardInfo(code, None, code)
    return info


CARD_INFO: dict[str, CardInfo] = _build_info()

# UNO Flip. Each physical card has a light face and a dark face; its code is "LIGHT|DARK".
DARK_COLORS: tuple[str, ...] = ("P", "T", "O", "V")
FLIP_LIGHT_RANKS: tuple[str, ...] = tuple(str(n) for n in range(1, 10)) + ("+1", "R", "S", "F")
FLIP_DARK_RANKS: tuple[str, ...] = tuple(str(n) for n in range(1, 10)) + ("+5", "R", "SE", "F")
SIDE_COLORS: dict[str, tuple[str, ...]] = {"light": COLORS, "dark": DARK_COLORS}


def _side_faces(
    colors: tuple[str, ...], ranks: tuple[str, ...], wilds: tuple[str, ...]
) -> list[str]:
    """One side's 112 faces: two of each coloured card, four of each wild."""
    faces = [color + rank for color in colors for rank in ranks for _ in range(2)]
    return faces + [wild for wild in wilds for _ in range(4)]


def _flip112() -> list[str]:
    """The Flip deck. A real deck pairs its faces at the factory; ours pairs them by one
    fixed shuffle, so every Flip match has the same 112 double-sided cards."""
    import random

    light = _side_faces(COLORS, FLIP_LIGHT_RANKS, ("W", "W+2"))
    dark = _side_faces(DARK_COLORS, FLIP_DARK_RANKS, ("W", "WDC"))
    random.Random("flip112").shuffle(dark)
    return [f"{a}|{b}" for a, b in zip(light, dark, strict=True)]


def _face_info(face: str) -> CardInfo:
    if face in ("W", "W+2", "WDC"):
        return CardInfo(face, None, face)
    return CardInfo(face, face[0], face[1:])


FLIP112: tuple[str, ...] = tuple(_flip112())
_LIGHT_FACES = frozenset(c + r for c in COLORS for r in FLIP_LIGHT_RANKS) | {"W", "W+2"}
_DARK_FACES = frozenset(c + r for c in DARK_COLORS for r in FLIP_DARK_RANKS) | {"W", "WDC"}


class _FaceTable(dict[str, CardInfo]):
    """Card code -> the face it shows on one side; any valid "LIGHT|DARK" pairing is
    looked up once and remembered, so stacked scenario decks may pair faces freely."""

    def __init__(self, side: int, base: dict[str, CardInfo]) -> None:
        super().__init__(base)
        self.side = side

    def __missing__(self, code: str) -> CardInfo:
        light, sep, dark = code.partition("|")
        if not sep or light not in _LIGHT_FACES or dark not in _DARK_FACES:
            raise KeyError(code)
        info = _face_info((light, dark)[self.side])
        self[code] = info
        return info


# The face each card shows on each side (classic cards only ever show the light side).
FACES: dict[str, dict[str, CardInfo]] = {
    "light": _FaceTable(0, CARD_INFO),
    "dark": _FaceTable(1, {}),
}
ALL_COLORS: tuple[str, ...] = COLORS + DARK_COLORS


def is_card(code: object) -> bool:
    """True when ``code`` is a card code this engine knows."""
    if not isinstance(code, str):
        return False
    try:
        FACES["light"][code]
    except KeyError:
        return False
    return True


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


def flip112() -> list[str]:
    """UNO Flip's 112 double-sided cards."""
    return list(FLIP112)


DECKS = {"classic108": classic108, "classic112": classic112, "flip112": flip112}


def build_deck(name: str, copies: int, extras: tuple[tuple[str, int], ...] = ()) -> list[str]:
    """``copies`` copies of deck ``name`` plus ``extras`` (card, count), in a fixed order
    (shuffling is the caller's)."""
    deck = DECKS[name]() * copies
    for card, count in extras:
        deck += [card] * count
    return deck
