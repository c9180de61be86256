"""Setting a UNO Rommy position up for the scenario runner: a stacked deck or a setup."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from engine.errors import IllegalAction
from engine.rules import Rules
from engine.variants.rommy.game import new_match, start_deal
from engine.variants.rommy.melds import (
    Meld,
    new_meld,
)
from engine.variants.rommy.state import RommyState, empty_match
from engine.variants.skeleton import card_list, scenario_start

# --- Scenario support ------------------------------------------------------------------------


def from_deck(
    rules: Rules, players: int, seed: str, dealer: int, deck_top_first: Sequence[str]
) -> RommyState:
    """A match whose first deal is dealt from a stacked deck (the scenario ``deck``)."""
    return start_deal(empty_match(rules, players, seed, dealer), deck_top_first)[0]


def from_setup(
    rules: Rules, players: int, seed: str, dealer: int, setup: dict[str, Any]
) -> RommyState:
    """A position set up directly (the scenario ``setup``): ``hands``, ``discard`` and
    ``stock`` (or ``drawPile``) top first, ``melds`` (each a list of cards, read as by a
    ``meld`` action, or ``{"cards", "seat"}``), ``turn``, ``direction``, ``step``,
    ``pendingDraw``, ``mustMeld``, ``totals``.

    :raises ValueError: a malformed setup (the message says what).
    """
    hands = setup.get("hands")
    if not isinstance(hands, list) or len(hands) != players:
        raise ValueError(f"setup 'hands' must list {players} hands")
    hands = [card_list(h, "hands") for h in hands]
    melds: list[Meld] = []
    raw_melds = setup.get("melds", [])
    if not isinstance(raw_melds, list):
        raise ValueError("setup 'melds' must be a list")
    for raw in raw_melds:
        cards, who = (raw.get("cards"), raw.get("seat", 0)) if isinstance(raw, dict) else (raw, 0)
        if isinstance(who, bool) or not isinstance(who, int) or not 0 <= who < players:
            raise ValueError("setup meld 'seat' must be a seat")
        try:
            melds.append(new_meld(card_list(cards, "melds"), who))
        except IllegalAction as err:
            raise ValueError(f"setup meld {cards}: {err.message}") from err
    stock = card_list(setup.get("stock", setup.get("drawPile", [])), "stock")
    discard = card_list(setup.get("discard", []), "discard")
    turn = setup.get("turn", (dealer + 1) % players)
    step = setup.get("step", "draw")
    if step not in ("draw", "play") or not isinstance(turn, int) or not 0 <= turn < players:
        raise ValueError("setup 'turn' must be a seat and 'step' draw or play")
    totals = setup.get("totals", [0] * players)
    if not isinstance(totals, list) or len(totals) != players:
        raise ValueError(f"setup 'totals' must list {players} numbers")
    direction = setup.get("direction", 1)
    if direction not in (1, -1):
        raise ValueError("setup 'direction' must be 1 or -1")
    pending = setup.get("pendingDraw", 0)
    if isinstance(pending, bool) or not isinstance(pending, int) or pending < 0:
        raise ValueError("setup 'pendingDraw' must be a whole number >= 0")
    state = replace(
        empty_match(rules, players, seed, dealer),
        deal=1,
        phase="playing",
        step=step,
        hands=tuple(tuple(h) for h in hands),
        stock=tuple(reversed(stock)),
        discard=tuple(reversed(discard)),
        melds=tuple(melds),
        turn=turn,
        direction=direction,
        pending=pending,
        must_meld=bool(setup.get("mustMeld", False)),
        totals=tuple(totals),
    )
    return state


def initial_state(
    rules: Rules, players: int, seed: str, dealer: int | None, scenario: dict[str, Any]
) -> RommyState:
    """The scenario runner's starting state: ``setup``, a stacked ``deck`` or a seeded deal.

    :raises ValueError: a malformed ``setup`` or ``deck``.
    """
    return scenario_start(
        scenario,
        lambda setup: from_setup(rules, players, seed, dealer or 0, setup),
        lambda deck: from_deck(rules, players, seed, dealer or 0, deck),
        lambda: new_match(rules, players, seed, dealer)[0],
        lambda deck: card_list(deck, "deck"),
    )
