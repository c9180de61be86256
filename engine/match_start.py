"""Starting a match: the dealer, then the first deal."""

from __future__ import annotations

from engine.deal import choose_dealer, new_state, start_deal
from engine.errors import InvalidAction
from engine.events import Event
from engine.rules import Rules
from engine.state import State
from engine.teams import check_players

MIN_PLAYERS = 2
MAX_PLAYERS = 10


def seat_the_table(
    game: str, players: object, seed: str, dealer: object
) -> tuple[int, int, list[Event]]:
    """Check the player count and dealer seat of a new match, choosing the dealer by the
    draw when none is given: (players, dealer, events).

    :raises InvalidAction: a player count outside 2-10 or a dealer seat off the table.
    """
    if isinstance(players, bool) or not isinstance(players, int):
        raise InvalidAction("bad_players", f"players must be a whole number, got {players!r}")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidAction("bad_players", f"{game} takes 2 to 10 players, got {players}")
    if dealer is None:
        chosen, events = choose_dealer(players, seed)
        return players, chosen, events
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
        raise InvalidAction("bad_dealer", f"no seat {dealer!r} at a table of {players}")
    return players, dealer, []


def new_match(
    rules: Rules, players: int, seed: str, dealer: int | None = None
) -> tuple[State, list[Event]]:
    """A match with its first deal dealt.

    ``seed`` should come from :mod:`secrets` (the caller's side effect, not the engine's).
    ``dealer=None`` chooses the dealer by the draw of the official rules.

    :raises InvalidAction: a player count outside 2-10 or a dealer seat off the table.
    """
    players, dealer, events = seat_the_table("UNO", players, seed, dealer)
    check_players(rules, players)
    state = new_state(rules, players, seed, dealer)
    events += start_deal(state)
    return state, events
