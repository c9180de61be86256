"""A first card acts as the same card played: one effect, whatever turned it up.

Every action card is turned up first under every option that changes what it does, and
the table it leaves is compared with the table the same card leaves when its player lays
it from the same position (engine.first_card names that player, and which penalties the
first player must draw at once).
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from engine import apply, parse_action, rules_from_json
from engine.cards import FACES
from engine.deal import new_state
from engine.events import Event
from engine.first_card import turn_first_card
from engine.state import State

MODES: dict[str, dict[str, Any]] = {
    "classic": {},
    "byDealer": {"firstCardPlayedByDealer": True},
    "duo": {"firstCardRules": "duo"},
}
# The options that change what a first action card does.
OPTIONS: list[dict[str, Any]] = [
    {},
    {"stacking": True},
    {"stacking": True, "stackWildDrawFour": True},
    {"reverseDeflect": True},
    {"skipDeflect": True},
    {"crossStack": "drawFourOnDrawTwo"},
    {"stackDrawFour": True},
    {"drinks": True},
    {"wildDrawFourPlaysAgain": True},
    {"drawFourFollowColor": True},
    {"wildDrawFourChallenge": False},
    {"penaltyDrawToMatch": True},
    {"penaltyDrawToMatch": True, "stacking": True},
]
# Under classic and UNO Duo the first player draws a first penalty at once.
AT_ONCE: dict[str, Any] = {
    "stacking": False,
    "reverseDeflect": False,
    "skipDeflect": False,
    "crossStack": "none",
    "stackDrawFour": False,
    "wildDrawFourChallenge": False,
}
CARDS = ["G5", "GS", "GR", "G+2", "G+1|P8", "W"]
HANDS = ["R1 B2 Y3", "R4 B6 Y7", "R8 B9 Y1", "R3 B4 Y6"]
# Its one green card, at the bottom, ends a penaltyDrawToMatch draw before the pile runs dry.
PILE = ("G3", "Y2", "B5", "R6", "Y8", "B8", "R9", "Y9", "B1", "R2", "Y4", "B3", "R5")  # top last


def _state(options: dict[str, Any], players: int, dealer: int) -> State:
    state = new_state(rules_from_json({"preset": "classic", **options}), players, "s", dealer)
    state.hands = tuple(tuple(h.split()) for h in HANDS[:players])
    state.draw_pile = PILE
    state.phase = "playing"
    return state


Table = tuple[State, list[Event]]


def _first(options: dict[str, Any], players: int, dealer: int, card: str) -> Table:
    """The card turned up first; a colour it asks for named (red) by the seat asked."""
    state = _state(options, players, dealer)
    state.draw_pile = PILE + (card,)
    events = turn_first_card(state)
    assert events[0] == {"type": "firstCard", "card": card}
    if state.phase == "chooseColor":
        state, more = apply(state, state.turn, parse_action({"type": "chooseColor", "color": "R"}))
        events += more
    return state, _effects(events)


def _played(options: dict[str, Any], players: int, dealer: int, card: str, player: int) -> Table:
    """The same card laid by ``player`` on a top card of its colour and number 9 (a wild on
    Green 9: no hand holds green, so a Wild Draw Four is no bluff)."""
    state = _state(options, players, dealer)
    info = FACES["light"][card]
    hands = list(state.hands)
    hands[player] = (card, *hands[player])
    state.hands = tuple(hands)
    state.discard = (f"{info.color or 'G'}9",)
    state.color = info.color or "G"
    state.turn = player
    action: dict[str, Any] = {"type": "play", "cards": [card]}
    if info.is_wild:
        action["color"] = "R"
    new, events = apply(state, player, parse_action(action))
    return new, _effects(events)


def _effects(events: list[Event]) -> list[Event]:
    return [e for e in events if e["type"] not in ("firstCard", "play", "chooseColor")]


def _table(table: Table) -> dict[str, Any]:
    state, events = table
    return {
        "turn": state.turn,
        "direction": state.direction,
        "phase": state.phase,
        "color": state.color,
        "top": state.discard[-1],
        "hands": state.hands,
        "drawPile": state.draw_pile,
        "pending": (state.pending, state.pending_kind, state.wd4),
        "follow": state.follow,
        "drinks": (state.drinks, state.sips),
        "events": events,
    }


def _cases() -> list[tuple[str, int, str, dict[str, Any]]]:
    cases = []
    for mode, players, card, options in itertools.product(MODES, (2, 3, 4), CARDS, OPTIONS):
        if mode == "duo" and players != 2:
            continue
        cases.append((mode, players, card, options))
    cases += [("duo", 2, "W+4", options) for options in OPTIONS]
    return cases


@pytest.mark.parametrize(("mode", "players", "card", "options"), _cases())
def test_a_first_card_leaves_the_table_the_same_card_played_leaves(
    mode: str, players: int, card: str, options: dict[str, Any]
) -> None:
    dealer = players - 1  # the first player is seat 0: play wraps round the table
    first_player = 0
    # The dealer plays it; a classic first Reverse among three or more is the first
    # player's (the dealer starts, play going right).
    reverse = FACES["light"][card].rank == "R"
    player = first_player if mode == "classic" and reverse and players > 2 else dealer
    played_options = {**MODES[mode], **options}
    if mode != "byDealer":
        played_options.update(AT_ONCE)
    first = _first({**MODES[mode], **options}, players, dealer, card)
    played = _played(played_options, players, dealer, card, player)
    if mode == "duo" and card == "W+4" and options.get("penaltyDrawToMatch"):
        # Its penalty is drawn before the colour is named: nothing to draw to match.
        state = first[0]
        assert (state.turn, len(state.hands[0]), state.drawn) == (1, 7, None)
        return
    if mode == "duo" and reverse:
        # UNO Duo's first Reverse does not act: player 2 may dump its colour.
        state = first[0]
        assert (state.turn, state.dump_color, state.direction) == (first_player, "G", 1)
        return
    assert _table(first) == _table(played)


def test_a_first_draw_two_as_the_dealers_play_under_reverse_deflect_waits_to_be_deflected() -> None:
    # The first player may send it back with a Reverse, as they could a played one.
    state, _ = _first({"preset": "druk", "reverseDeflect": True}, 4, 3, "G+2")
    assert (state.turn, state.pending, state.pending_kind) == (0, 2, "+2")
    assert len(state.hands[0]) == 3


@pytest.mark.parametrize("after", [{}, {"penaltyDrawToMatch": True}], ids=str)
@pytest.mark.parametrize("card", ["G+2", "G+1|P8"])
def test_a_first_penalty_leaves_the_same_table_drawn_at_once_or_after_waiting(
    card: str, after: dict[str, Any]
) -> None:
    """A classic first penalty is drawn at once; the dealer's under stacking waits and the
    first player draws it: what follows is the same."""
    at_once, _ = _first({**after, "stacking": True}, 3, 2, card)
    waited, _ = _first({**after, "stacking": True, "firstCardPlayedByDealer": True}, 3, 2, card)
    assert waited.pending
    waited, _ = apply(waited, 0, parse_action({"type": "draw"}))
    keys = ("turn", "hands", "drawPile", "pending", "follow")
    assert {k: _table((at_once, []))[k] for k in keys} == {k: _table((waited, []))[k] for k in keys}
    assert at_once.drawn == waited.drawn
