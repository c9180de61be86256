"""Every card code of every deck, for clients: ``GET /api/cards`` and docs/cards.md.

Built from the engine's own decks (so a card the engine deals is always listed) with the
English names a client may show. ``python -m app.api.cards --write docs/cards.md``
regenerates the document; a test keeps it in step.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, Field

from engine.cards import (
    DECKS,
    FACES,
    SIDE_COLORS,
    build_deck,
)

router = APIRouter(prefix="/api", tags=["reference"])

COLOR_NAMES = {
    "R": "red",
    "G": "green",
    "B": "blue",
    "Y": "yellow",
    "P": "pink",
    "T": "teal",
    "O": "orange",
    "V": "violet",
}
RANK_NAMES = {
    **{str(n): str(n) for n in range(10)},
    "S": "Skip",
    "R": "Reverse",
    "+2": "Draw Two",
    "+1": "Draw One",
    "+5": "Draw Five",
    "SE": "Skip Everyone",
    "F": "Flip",
    "W": "Wild",
    "W+4": "Wild Draw Four",
    "W+2": "Wild Draw Two",
    "WDC": "Wild Draw Colour",
    "W+8": "Wild Draw Eight",
    "A+2": "Everybody Draws Two",
    "WSH": "Wild Shuffle Hands",
    "WC": "Wild Customizable",
}
DECK_HELP = {
    "classic108": "The classic deck (every preset but duo and flip)",
    "classic112": "UNO Duo: classic108 plus one Wild Shuffle Hands and three Wild Customizable",
    "flip112": "UNO Flip: 112 double-sided cards, code LIGHT|DARK",
}
# Cards added to a classic deck by an option (count = the option's value).
EXTRAS = {"W+8": "wildDrawEight", "A+2": "everybodyDrawsTwo"}


class Face(BaseModel):
    code: str = Field(description="the face's code (a whole card's code outside Flip)")
    name: str = Field(description="English, e.g. 'Red 7', 'Wild Draw Four'")
    color: str | None = Field(description="colour letter; null for a wild")
    rank: str = Field(description="0-9, an action symbol, or the wild's own code")
    wild: bool
    count: int = Field(description="how many a single deck holds")


class Deck(BaseModel):
    name: str
    help: str
    size: int = Field(description="cards in one deck (`decks` shuffles copies together)")
    cards: list[Face] = Field(description="every card of the deck (outside Flip)")
    light: list[Face] | None = Field(description="Flip: the light faces (colours RGBY)")
    dark: list[Face] | None = Field(description="Flip: the dark faces (colours PTOV)")


class Extra(BaseModel):
    code: str
    name: str
    color: str | None = Field(description="colour letter; null for a wild")
    rank: str = Field(description="the wild's own code")
    wild: bool
    option: str = Field(description="the rule option whose value is the number added")


class CardsOut(BaseModel):
    colors: dict[str, str] = Field(description="colour letters (also the `color` of wilds)")
    sideColors: dict[str, list[str]] = Field(description="Flip: the colours of each side")
    decks: list[Deck]
    extras: list[Extra] = Field(description="cards rule options add to a classic deck")


def _name(color: str | None, rank: str) -> str:
    if color is None:
        return RANK_NAMES[rank]
    return f"{COLOR_NAMES[color].capitalize()} {RANK_NAMES[rank]}"


def _faces(codes: list[str], side: str) -> list[dict[str, Any]]:
    """The faces ``codes`` show on ``side``, each once with its count, in deck order."""
    table = FACES[side]
    infos: dict[str, Any] = {}
    counts: Counter[str] = Counter()
    for code in codes:
        info = table[code]
        infos.setdefault(info.code, info)
        counts[info.code] += 1
    order = list(COLOR_NAMES)
    ranks = list(RANK_NAMES)
    ordered = sorted(
        infos.items(),
        key=lambda item: (
            order.index(item[1].color) if item[1].color else len(order),
            ranks.index(item[1].rank),
        ),
    )
    return [
        {
            "code": face,
            "name": _name(info.color, info.rank),
            "color": info.color,
            "rank": info.rank,
            "wild": info.is_wild,
            "count": counts[face],
        }
        for face, info in ordered
    ]


def cards() -> dict[str, Any]:
    decks = []
    for name in DECKS:
        codes = build_deck(name, 1)
        deck: dict[str, Any] = {"name": name, "help": DECK_HELP[name], "size": len(codes)}
        if "|" in codes[0]:
            deck["cards"] = []
            deck["light"] = _faces(codes, "light")
            deck["dark"] = _faces(codes, "dark")
        else:
            deck["cards"] = _faces(codes, "light")
            deck["light"] = deck["dark"] = None
        decks.append(deck)
    extras = [
        {
            "code": code,
            "name": RANK_NAMES[code],
            "color": FACES["light"][code].color,
            "rank": FACES["light"][code].rank,
            "wild": FACES["light"][code].is_wild,
            "option": option,
        }
        for code, option in EXTRAS.items()
    ]
    return {
        "colors": COLOR_NAMES,
        "sideColors": {side: list(colors) for side, colors in SIDE_COLORS.items()},
        "decks": decks,
        "extras": extras,
    }


@router.get("/cards", response_model=CardsOut)
async def card_codes() -> dict[str, Any]:
    """Every card code of every deck with its colour, rank, English name and count, and
    the cards rule options add."""
    return cards()


BEGIN = "<!-- cards:begin (generated by python -m app.api.cards; do not edit) -->"
END = "<!-- cards:end -->"


def _table(faces: list[dict[str, Any]]) -> list[str]:
    rows = ["| code | card | colour | rank | count |", "|---|---|---|---|---|"]
    for f in faces:
        color = f["color"] or "wild"
        rows.append(f"| `{f['code']}` | {f['name']} | {color} | `{f['rank']}` | {f['count']} |")
    return rows


def markdown() -> str:
    data = cards()
    parts = [BEGIN, ""]
    for deck in data["decks"]:
        parts += [f"### `{deck['name']}` ({deck['size']} cards)", "", deck["help"] + ".", ""]
        if deck["light"] is not None:
            parts += ["Light faces:", "", *_table(deck["light"]), "", "Dark faces:", ""]
            parts += [*_table(deck["dark"]), ""]
        else:
            parts += [*_table(deck["cards"]), ""]
    parts += ["### Extras", "", "| code | card | added by the option |", "|---|---|---|"]
    parts += [f"| `{e['code']}` | {e['name']} | `{e['option']}` |" for e in data["extras"]]
    parts += ["", END]
    return "\n".join(parts)


def embed(document: str) -> str:
    start, end = document.index(BEGIN), document.index(END) + len(END)
    return document[:start] + markdown() + document[end:]


def main(argv: list[str]) -> int:
    if len(argv) == 2 and argv[0] == "--write":
        path = Path(argv[1])
        path.write_text(embed(path.read_text()))
        return 0
    print(markdown())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
