"""What UNO Rommy and Bottle UNO share: the match fields of their states and their JSON,
seating a new match, the seeded shuffle of each deal, dealing a deal again for the
verifier, and the scenario runner's three ways in.

Each game supplies its own empty state and its own start of a deal; the steps around them
are written once here. The states are frozen dataclasses with ``seed``, ``shuffles`` and
``deal`` fields.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, ClassVar, Protocol, TypeVar

from engine.cards import is_card
from engine.events import Event
from engine.match_start import seat_the_table
from engine.rules import Rules, rules_from_json
from engine.seeded_shuffle import seed_of, shuffle


class Seeded(Protocol):
    """A game state these steps work on (a frozen dataclass: ``replace`` builds the next)."""

    __dataclass_fields__: ClassVar[dict[str, Any]]

    @property
    def seed(self) -> str: ...
    @property
    def shuffles(self) -> int: ...
    @property
    def deal(self) -> int: ...


class Matched(Seeded, Protocol):
    """A game state with the match fields both party games keep."""

    @property
    def rules(self) -> Rules: ...
    @property
    def players(self) -> int: ...
    @property
    def dealer(self) -> int: ...
    @property
    def phase(self) -> str: ...


def match_json(game: str, state: Matched) -> dict[str, Any]:
    """The start of a party game state's JSON: its game and the match fields."""
    return {
        "game": game,
        "rules": state.rules.to_json(),
        "players": state.players,
        "seed": state.seed,
        "shuffles": state.shuffles,
        "deal": state.deal,
        "dealer": state.dealer,
        "phase": state.phase,
    }


def match_fields(data: dict[str, Any]) -> dict[str, Any]:
    """The match fields of a party game state, read from its JSON (:func:`match_json`)."""
    return {
        "rules": rules_from_json(data["rules"]),
        "players": int(data["players"]),
        "seed": str(data["seed"]),
        "shuffles": int(data["shuffles"]),
        "deal": int(data["deal"]),
        "dealer": int(data["dealer"]),
        "phase": str(data["phase"]),
    }


S = TypeVar("S", bound=Seeded)
Start = Callable[[S], tuple[S, list[Event]]]
Empty = Callable[[Rules, int, str, int], S]


def shuffled(state: S, cards: list[str]) -> S:
    """Shuffle ``cards`` in place with the match's next shuffle seed; count the shuffle."""
    shuffles = state.shuffles + 1
    shuffle(seed_of(state.seed, shuffles), cards)
    return replace(state, shuffles=shuffles)


def seated(
    game: str,
    rules: Rules,
    players: int,
    seed: str,
    dealer: int | None,
    empty: Empty[S],
    start: Start[S],
) -> tuple[S, list[Event]]:
    """A new match: the table seated (the dealer drawn when not given), the first deal
    started."""
    players, dealer, events = seat_the_table(game, players, seed, dealer)
    state, more = start(empty(rules, players, seed, dealer))
    return state, events + more


def dealt_again(state: S, start: Start[S]) -> S:
    """The deal ``state`` is the start of, dealt again from its seed (for the verifier):
    started from the deal before it, with nothing shuffled yet."""
    return start(replace(state, deal=state.deal - 1, shuffles=0))[0]


def card_list(value: object, where: str) -> list[str]:
    """``value`` as a list of card codes, else ValueError naming ``where``."""
    if not isinstance(value, list) or not all(is_card(c) for c in value):
        raise ValueError(f"{where!r} must be a list of card codes")
    return value


def scenario_start(
    scenario: dict[str, Any],
    from_setup: Callable[[dict[str, Any]], S],
    from_deck: Callable[[list[str]], S],
    seeded: Callable[[], S],
    deck: Callable[[object], list[str]],
) -> S:
    """The scenario runner's starting state: ``setup``, a stacked ``deck`` (read by
    ``deck``, which refuses a malformed one) or a seeded deal.

    :raises ValueError: a malformed ``setup`` or ``deck``.
    """
    if "setup" in scenario:
        setup = scenario["setup"]
        if not isinstance(setup, dict):
            raise ValueError("'setup' must be an object")
        return from_setup(setup)
    if "deck" in scenario:
        return from_deck(deck(scenario["deck"]))
    return seeded()
