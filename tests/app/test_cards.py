"""Card codes for clients: GET /api/cards and docs/cards.md list every card any game
deals, with its colour, rank and name."""

from __future__ import annotations

from pathlib import Path

from live import Server

from app.api.cards import embed
from engine import PRESETS, rules_from_json
from engine.cards import FACES
from engine.deal import deck_for

DOC = Path(__file__).resolve().parents[2] / "docs" / "cards.md"


def _listed(body: dict) -> dict[str, set[str]]:
    """Face codes per side, over every deck and the extras."""
    light, dark = set(), set()
    for deck in body["decks"]:
        light |= {f["code"] for f in deck["cards"] + (deck["light"] or [])}
        dark |= {f["code"] for f in deck["dark"] or []}
    light |= {e["code"] for e in body["extras"]}
    return {"light": light, "dark": dark}


async def test_get_cards_lists_every_card_every_preset_deals(server: Server) -> None:
    body = (await server.http.get("/api/cards")).json()
    listed = _listed(body)
    for preset in PRESETS:
        options = {"preset": preset}
        if preset not in ("flip", "duo", "rommy", "bottle"):
            options |= {"wildDrawEight": 4, "everybodyDrawsTwo": 4}
        for code in set(deck_for(rules_from_json(options))):
            assert FACES["light"][code].code in listed["light"], (preset, code)
            if "|" in code:
                assert FACES["dark"][code].code in listed["dark"], (preset, code)
    sizes = {d["name"]: d["size"] for d in body["decks"]}
    assert sizes == {"classic108": 108, "classic112": 112, "flip112": 112}
    for deck in body["decks"]:
        faces = deck["cards"] or deck["light"]
        assert sum(f["count"] for f in faces) == deck["size"]
    assert body["colors"]["T"] == "teal"
    wd4 = next(f for f in body["decks"][0]["cards"] if f["code"] == "W+4")
    assert wd4 == {
        "code": "W+4",
        "name": "Wild Draw Four",
        "color": None,
        "rank": "W+4",
        "wild": True,
        "count": 4,
    }
    # Clients read what a card is from this table alone: the extras carry it too.
    for extra in body["extras"]:
        assert extra["wild"] is FACES["light"][extra["code"]].is_wild, extra


def test_the_card_table_in_the_docs_is_generated_from_the_decks() -> None:
    text = DOC.read_text()
    assert embed(text) == text, "run: python -m app.api.cards --write docs/cards.md"
