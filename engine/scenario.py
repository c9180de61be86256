"""The scenario runner (docs/engine-api.md): one JSON scenario in, one JSON result out.

``python -m engine.scenario FILE`` (``-`` for standard input). Exit 0 whenever the
scenario is well-formed, even if actions were refused; 2 with a message on standard error
when the file itself is malformed, among others when it names a card that is not in the
game's deck (a classic ``R7`` in a Flip game, a ``W+8`` without ``wildDrawEight``).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any

from engine import api
from engine.actions import parse_action
from engine.cards import FACES, SIDE_COLORS, is_card
from engine.deal import deck_for, new_state, start_deal
from engine.errors import EngineError
from engine.events import event_full
from engine.game_registry import game_of
from engine.misplay import penalty_for
from engine.rules import rules_from_json
from engine.stacking import STACK_FAMILY
from engine.state import State
from engine.teams import check_players
from engine.variants import bottle, rommy

DEFAULT_SEED = "scenario"


class MalformedScenario(ValueError):
    """The scenario file itself is wrong (as opposed to an action being refused)."""


def run(scenario: Any) -> dict[str, Any]:
    """The result object for a parsed scenario.

    :raises MalformedScenario: the scenario is not of the contract's form.
    """
    if not isinstance(scenario, dict):
        raise MalformedScenario("the scenario must be a JSON object")
    state = initial_state(scenario)
    actions = scenario.get("actions", [])
    if not isinstance(actions, list) or not all(isinstance(a, dict) for a in actions):
        raise MalformedScenario("'actions' must be a list of objects")
    results = []
    for entry in actions:
        seat = entry.get("seat")
        action = None
        try:
            action = parse_action(entry)  # the entry is the action, with its seat beside
            state, events = api.apply(state, seat, action)
        except EngineError as err:
            refused: dict[str, Any] = {"ok": False, "error": err.to_json()}
            penalty = None if action is None else penalty_for(state, action, err.code)
            if penalty is not None:
                # misplayPenalty: the refused play changed nothing; its penalty is a
                # change of its own, listed with the refusal.
                state, events = api.apply(state, seat, penalty)
                refused["penalty"] = {"events": [event_full(e) for e in events]}
            results.append(refused)
            continue
        results.append({"ok": True, "events": [event_full(e) for e in events]})
    kind = game_of(state)
    summary = kind.summary(state) if kind is not None else state_summary(state)
    return {"results": results, "state": summary}


def initial_state(scenario: dict[str, Any]) -> Any:
    """The state the actions start from: a stacked deck, a set-up position, or a seed."""
    try:
        rules = rules_from_json(scenario.get("rules"))
    except EngineError as err:
        raise MalformedScenario(f"{err.code}: {err.message}") from err
    players = scenario.get("players")
    if isinstance(players, bool) or not isinstance(players, int):
        raise MalformedScenario("'players' must be a whole number")
    if not rules.min_players <= players <= rules.max_players:
        raise MalformedScenario(
            f"'players' must be {rules.min_players} to {rules.max_players}"
            f" for {rules.preset}, got {players}"
        )
    try:
        check_players(rules, players)
    except EngineError as err:
        raise MalformedScenario(f"{err.code}: {err.message}") from err
    seed = str(scenario.get("seed", DEFAULT_SEED))
    dealer = scenario.get("dealer")
    if dealer is not None and (
        isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players
    ):
        raise MalformedScenario(f"'dealer' must be a seat from 0 to {players - 1}")
    _check_deck(rules, scenario)
    if rules.game != "shedding":
        start = {"rommy": rommy.initial_state, "bottle": bottle.initial_state}[rules.game]
        try:
            return start(rules, players, seed, dealer, scenario)
        except ValueError as err:
            raise MalformedScenario(str(err)) from err
    if "setup" in scenario:
        return _from_setup(rules, players, seed, dealer or 0, scenario["setup"])
    if "deck" in scenario:
        deck = _cards(scenario["deck"], "deck")
        if len(deck) < players * 7 + 1:
            raise MalformedScenario(f"'deck' needs at least {players * 7 + 1} cards to deal")
        state = new_state(rules, players, seed, dealer or 0)
        start_deal(state, deck)
        return state
    return api.new_match(rules, players, seed, dealer)[0]


# The scenario's fields that list cards: its deck, and in ``setup`` the hands, piles and
# (UNO Rommy) melds.
_CARD_LISTS = ("discard", "drawPile", "stock", "deck")


def _check_deck(rules: Any, scenario: dict[str, Any]) -> None:
    """Refuse a card the game's deck does not hold, wherever the scenario names it: a
    card of another deck would be played as something it is not (a classic card in a
    Flip game has no dark face). Flip cards may pair their two faces freely."""
    if rules.deck == "flip112":

        def in_deck(card: str) -> bool:
            try:
                FACES["dark"][card]  # a lookup, not ``in``: the table pairs faces lazily
            except KeyError:
                return False
            return True

    else:
        cards = frozenset(deck_for(rules))

        def in_deck(card: str) -> bool:
            return card in cards

    named: list[tuple[str, object]] = [("deck", scenario.get("deck"))]
    setup = scenario.get("setup")
    if isinstance(setup, dict):
        named += [(name, setup.get(name)) for name in _CARD_LISTS]
        hands = setup.get("hands")
        if isinstance(hands, list):
            named += [("hands", hand) for hand in hands]
        melds = setup.get("melds")
        if isinstance(melds, list):
            named += [
                ("melds", meld.get("cards") if isinstance(meld, dict) else meld) for meld in melds
            ]
    for where, value in named:
        if not isinstance(value, list):
            continue  # missing or of the wrong form: the checks of that field say so
        for card in value:
            # An unknown code is refused by its field's own check, with its own message.
            if is_card(card) and not in_deck(card):
                raise MalformedScenario(
                    f"card {card!r} in {where!r} is not in this game's deck ({rules.deck})"
                )


def _cards(value: object, where: str) -> list[str]:
    if not isinstance(value, list):
        raise MalformedScenario(f"{where!r} must be a list of card codes")
    for card in value:
        if not is_card(card):
            raise MalformedScenario(f"unknown card code {card!r} in {where!r}")
    return value


def _seat_field(setup: dict[str, Any], name: str, default: int, players: int) -> int:
    value = setup.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
        raise MalformedScenario(f"setup {name!r} must be a seat from 0 to {players - 1}")
    return value


def _from_setup(rules: Any, players: int, seed: str, dealer: int, setup: object) -> State:
    if not isinstance(setup, dict):
        raise MalformedScenario("'setup' must be an object")
    hands = setup.get("hands")
    if not isinstance(hands, list) or len(hands) != players:
        raise MalformedScenario(f"setup 'hands' must list {players} hands")
    discard = _cards(setup.get("discard"), "discard")
    if not discard:
        raise MalformedScenario("setup 'discard' needs at least the top card")
    top = discard[0]
    side = setup.get("side", "light")
    if side not in SIDE_COLORS:
        raise MalformedScenario("setup 'side' must be 'light' or 'dark'")
    if side == "dark" and rules.deck != "flip112":
        raise MalformedScenario("setup 'side' dark needs the flip preset")
    try:
        top_info = FACES[side][top]
    except KeyError:
        raise MalformedScenario(f"the top card {top!r} has no {side} face") from None
    color = setup.get("color", top_info.color)
    if color not in SIDE_COLORS[side]:
        raise MalformedScenario(
            f"setup 'color' must be one of {list(SIDE_COLORS[side])} (top card {top!r})"
        )
    direction = setup.get("direction", 1)
    if direction not in (1, -1):
        raise MalformedScenario("setup 'direction' must be 1 or -1")
    pending = setup.get("pendingDraw", 0)
    if isinstance(pending, bool) or not isinstance(pending, int) or pending < 0:
        raise MalformedScenario("setup 'pendingDraw' must be a whole number >= 0")
    state = new_state(rules, players, seed, dealer)
    state.deal = 1
    state.phase = "playing"
    state.hands = tuple(tuple(_cards(h, "hands")) for h in hands)
    state.discard = tuple(reversed(discard))
    state.draw_pile = tuple(reversed(_cards(setup.get("drawPile", []), "drawPile")))
    state.color = color
    state.direction = direction
    state.turn = _seat_field(setup, "turn", (dealer + 1) % players, players)
    state.side = side
    state.pending = pending
    if pending:
        state.pending_kind = STACK_FAMILY.get(top_info.rank, top_info.rank)
    totals = setup.get("totals", [0] * players)
    if not isinstance(totals, list) or len(totals) != players:
        raise MalformedScenario(f"setup 'totals' must list {players} numbers")
    state.totals = tuple(totals)
    return state


def state_summary(state: State) -> dict[str, Any]:
    """The result's ``state``: everything, hands included (piles listed top first)."""
    return {
        "phase": state.phase,
        "turn": state.turn,
        "direction": state.direction,
        "top": state.top,
        "color": state.color,
        "hands": [list(h) for h in state.hands],
        "drawPile": len(state.draw_pile),
        "pendingDraw": state.pending,
        "deal": state.deal,
        "dealer": state.dealer,
        "dealScores": list(state.deal_scores) if state.deal_scores is not None else None,
        "totals": list(state.totals),
        "winner": state.winner,
        "matchOver": state.match_over,
        "drinks": list(state.drinks) if state.drinks is not None else None,
        "draftPile": len(state.draft),
        "side": state.side,
        "discard": list(reversed(state.discard)),
        "drawPileCards": list(reversed(state.draw_pile)),
        "unoExposed": state.exposed,
        "drawn": state.drawn,
        "out": list(state.out),
    }


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        print("usage: python -m engine.scenario FILE  (or - for standard input)", file=sys.stderr)
        return 2
    try:
        if args[0] == "-":
            text = sys.stdin.read()
        else:
            with open(args[0], encoding="utf-8") as file:
                text = file.read()
        result = run(json.loads(text))
    except OSError as err:
        print(f"error: cannot read {args[0]!r}: {err.strerror}", file=sys.stderr)
        return 2
    except json.JSONDecodeError as err:
        print(f"error: not valid JSON: {err}", file=sys.stderr)
        return 2
    except MalformedScenario as err:
        print(f"error: malformed scenario: {err}", file=sys.stderr)
        return 2
    json.dump(result, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
