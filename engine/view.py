"""What one seat may see: the only place that decides which cards a viewer is shown."""

from __future__ import annotations

import functools
import hashlib
from typing import Any, TypedDict

from engine.actions import Action
from engine.draft import offer
from engine.drinks import tally
from engine.game_registry import other_game
from engine.game_state import GameState
from engine.hand_reveal import shown_hands
from engine.legal import legal_actions
from engine.placings import place_of
from engine.state import State
from engine.teams import team_view

# The shapes of a view of UNO's own (shedding) games, as readers take them. UNO Rommy's and
# Bottle UNO's views are whole dicts of their own (engine/variants), not split in parts;
# every game's view as clients get it is schematized in app/wire/content.py.


class TablePlayer(TypedDict):
    seat: int
    cards: int  # how many it holds
    score: int  # its match total
    out: bool  # knocked out of the match
    place: int | None  # placings: its place this deal, once it has one


class Table(TypedDict):
    """What every seat (and a spectator) sees alike of a shedding game."""

    players: list[TablePlayer]
    top: str | None
    color: str | None
    turn: int
    direction: int
    drawPile: int
    pendingDraw: int
    pendingKind: str | None
    phase: str
    rules: dict[str, Any]
    deal: int
    dealer: int
    unoExposed: int | None
    unoCalled: list[int]
    dealScores: list[int] | None
    totals: list[int]
    winner: int | None
    matchOver: bool
    reveal: list[list[str]] | None
    shownHands: list[list[str] | None] | None
    teams: dict[str, list[int]] | None
    moves: int
    draftPile: int
    followColor: bool
    dumpColor: str | None
    drinks: list[dict[str, Any]] | None
    side: str
    seedCommitment: str
    seed: str | None


class SeatPart(TypedDict):
    """What one seat alone sees of a shedding game (a spectator: no hand, nothing to do)."""

    you: int | None
    hand: list[str]
    legal: list[dict[str, Any]]  # wire_legal's entries: each action kind has its fields
    drawn: str | None
    offer: str | None


def view_for(state: GameState, seat: int | None) -> dict[str, Any]:
    """The JSON-ready view of ``state`` for ``seat`` (None: a spectator, who sees no hand).

    While a deal is on no other seat's cards are in it; after the deal ``reveal`` lists
    every hand.
    """
    split = view_parts(state, [seat])
    if split is None:
        return other_game(state).view_for(state, seat)
    table, (part,) = split
    return {**part, **table}


def view_parts(state: GameState, seats: list[int | None]) -> tuple[Table, list[SeatPart]] | None:
    """The views of ``seats`` in two parts: the table, what every seat (and a spectator)
    sees alike, built once; and for each seat what it alone sees. A seat's view is its
    part with the table (:func:`view_for`). None for a game that does not split its view
    (its views come whole from :func:`view_for`)."""
    if type(state) is not State:
        return None
    return _table(state), [_seat_part(state, seat) for seat in seats]


def _seat_part(state: State, seat: int | None) -> SeatPart:
    """What ``seat`` alone may see (a spectator: no hand, nothing to do)."""
    is_seat = seat is not None and 0 <= seat < state.players
    mine = seat if is_seat else None
    return {
        "you": mine,
        "hand": list(state.hands[mine]) if mine is not None else [],
        "legal": wire_legal(state, mine) if mine is not None else [],
        "drawn": state.drawn if mine is not None and mine == state.turn else None,
        "offer": offer(state) if mine is not None and mine == state.turn else None,
    }


def _table(state: State) -> Table:
    """What every seat (and a spectator) sees alike."""
    over = state.phase in ("dealOver", "matchOver")
    return {
        "players": [
            {
                "seat": s,
                "cards": len(h),
                "score": state.totals[s],
                "out": state.out[s],
                "place": place_of(state, s),
            }
            for s, h in enumerate(state.hands)
        ],
        "top": state.top,
        "color": state.color,
        "turn": state.turn,
        "direction": state.direction,
        "drawPile": len(state.draw_pile),
        "pendingDraw": state.pending,
        "pendingKind": state.pending_kind,
        "phase": state.phase,
        "rules": state.rules.to_json(),
        "deal": state.deal,
        "dealer": state.dealer,
        "unoExposed": state.exposed,
        "unoCalled": uno_called(state),
        "dealScores": list(state.deal_scores) if state.deal_scores is not None else None,
        "totals": list(state.totals),
        "winner": state.winner,
        "matchOver": state.match_over,
        "reveal": [list(h) for h in state.hands] if over else None,
        "shownHands": shown_hands(state),
        "teams": team_view(state.rules, state.players, state.totals),
        "moves": state.moves,
        "draftPile": len(state.draft),
        "followColor": state.follow > 0,
        "dumpColor": state.dump_color,
        "drinks": tally(state),
        "side": state.side,
        # The shuffle is committed to from the start and the seed shown once the match is
        # over, so anyone can replay every deal and check that none was stacked.
        "seedCommitment": seed_commitment(state.seed),
        "seed": state.seed if state.match_over else None,
    }


def uno_called(state: State) -> list[int]:
    """The seats that show as having called UNO while a deal is on: one card and not
    ``exposed`` (the call came with the play), or a call made ahead of the next-to-last
    card (``declared``) that no play or draw has used up yet."""
    if state.phase in ("dealOver", "matchOver"):
        return []
    return [
        s
        for s, hand in enumerate(state.hands)
        if (len(hand) == 1 and state.exposed != s) or state.declared == s
    ]


# Every view of every change shows it: hashed once per match (of those in play), not per
# change; a pure function of the seed, so what it remembers is never stale.
@functools.lru_cache(maxsize=256)
def seed_commitment(seed: str) -> str:
    """SHA-256 of the match seed, hex: published while the seed itself stays hidden."""
    return hashlib.sha256(seed.encode()).hexdigest()


def wire_legal(state: State, seat: int) -> list[dict[str, Any]]:
    """Legal actions in wire form for clients: a wild or seven-swap play listed once,
    without the ``color`` or ``target`` the client adds, and saying what it must add:
    ``needs`` (``["color"]`` or ``["target"]``) with the choices, ``colors`` or
    ``targets``. An entry without ``needs`` is complete as it stands."""
    entries: dict[Action, dict[str, Any]] = {}
    for action in legal_actions(state, seat):
        color = target = None
        if action.type == "play":
            # A play that empties the hand with several cards must carry the UNO call;
            # any other play leaves calling to the player.
            finishing = len(action.cards) > 1 and len(action.cards) == len(state.hands[seat])
            color, target = action.color, action.target
            # Built field by field: a NamedTuple's _replace costs three times as much.
            action = Action(action.type, action.cards, None, None, finishing, action.at)
        entry = entries.get(action)
        if entry is None:
            entry = entries[action] = action.to_json()
        if color is not None:
            _choice(entry, "color", "colors", color)
        if target is not None:
            _choice(entry, "target", "targets", target)
    return list(entries.values())


def _choice(entry: dict[str, Any], field: str, choices: str, value: Any) -> None:
    listed = entry.get(choices)
    if listed is None:
        entry["needs"] = [field]
        entry[choices] = [value]
    elif value not in listed:
        listed.append(value)
