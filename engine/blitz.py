"""Blitz (``blitzSeconds``: 0 off, else 60-3600): a clock per player for the whole match.

The engine knows no time: the room keeps each seat's clock (it runs while the seat holds
the table up, beside the turn timer) and, when one runs out, applies the action
``clockOut`` for that seat, which the engine accepts only under this rule and while a deal
is being played. What it means here:

- The deal ends at once, scored as it stands, as if the player still in the deal with the
  smallest hand value (then the fewest cards, then the nearest after the flagged seat in
  the direction of play) had gone out: every other hand counts as it is held, the flagged
  player's included, by the scoring mode (under ``placings`` the players already out keep
  their points, and that player's going out is the last scoring moment; the others are
  placed by hand value, the flagged player last).
- The match ends with that deal: the clock was the flagged player's for the whole match.
  The winner is the best total among the other seats (with teams, the best team other than
  the flagged player's; under knockout the best total among the seats still in), so running
  one's own clock down never wins a match. A tie for first: no winner, as at any match end.
"""

from __future__ import annotations

from engine.errors import IllegalAction
from engine.events import Event
from engine.hand_limit import knocked_out
from engine.match import end_match, score_deal
from engine.scoring import best_seats, card_values
from engine.state import State
from engine.teams import team_count, team_of, team_totals

# The phases in which a seat can hold the table up (its clock runs).
_RUNNING = frozenset({"playing", "chooseColor", "draft"})


def clock_out(state: State, seat: int) -> tuple[State, list[Event]]:
    """The room's word that ``seat``'s match clock ran out (see the module text)."""
    if not state.rules.blitz_seconds:
        raise IllegalAction("no_blitz", "this room plays without a match clock")
    if state.phase not in _RUNNING:
        raise IllegalAction("wrong_phase", f"no match clock runs during {state.phase!r}")
    new = state.copy()
    new.moves += 1
    new.exposed = new.caught = new.declared = None
    new.drawn = None
    new.follow = 0
    new.after_color = None
    new.phase = "playing"
    events: list[Event] = [{"type": "clockOut", "seat": seat}]
    score_deal(new, deal_winner(new, seat), events, flagged=seat)
    end_match(new, match_winner(new, seat), events)
    return new, events


def deal_winner(state: State, flagged: int) -> int:
    """Who counts as going out when ``flagged``'s clock runs out."""
    value = card_values(state.rules, state.side).__getitem__
    n = state.players
    others = [s for s in state.active_seats() if s != flagged and s not in state.placed]
    if not others:
        return flagged

    def key(seat: int) -> tuple[int, int, int]:
        distance = ((seat - flagged) * state.direction) % n
        return (sum(map(value, state.hands[seat])), len(state.hands[seat]), distance)

    return min(others, key=key)


def match_winner(state: State, flagged: int) -> int | None:
    """The match's winner after ``flagged``'s clock ran out (None: first place shared)."""
    rules = state.rules
    totals = state.totals
    if rules.teams:
        mine = team_of(rules, state.players, flagged)
        among = [t for t in range(team_count(rules, state.players)) if t != mine]
        best = best_seats(team_totals(rules, totals), rules.lowest_wins, among=among)
    else:
        among = [s for s in range(state.players) if s != flagged and not knocked_out(state, s)]
        if not among:
            among = [s for s in range(state.players) if s != flagged]
        best = best_seats(totals, rules.lowest_wins, among=among)
    return best[0] if len(best) == 1 else None
