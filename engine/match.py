"""The end of a deal and of the match: scores, totals, knockouts and the winner.

One ordered function, :func:`end_deal`, decides what a finished deal means for the match
under the three match modes (points, oneAndDone, knockout).
"""

from __future__ import annotations

from engine import placings
from engine.double_score import counted
from engine.drinks import end_of_deal_sips
from engine.events import Event
from engine.hand_limit import back_in, knocked_out
from engine.scoring import best_seats, deal_scores
from engine.state import State
from engine.teams import team_totals

# The options that decide when and how a match ends (this module and engine/blitz.py read
# them): clients that tell a player how the match ends read this list (GET /api/rules).
MATCH_END_OPTIONS = ("matchMode", "targetScore", "roundLimit", "scoringMode", "blitzSeconds")


def end_deal(state: State, winner: int, events: list[Event]) -> None:
    """Score the deal ``winner`` went out of and decide whether the match goes on.

    Works on a working copy. Sets ``phase`` to ``dealOver`` or ``matchOver``.
    """
    winner = score_deal(state, winner, events)
    match_winner = _match_winner(state, winner, events)
    if match_winner is _GOES_ON:
        back_in(state)  # handLimit: seats out of this deal only are back for the next
        state.phase = "dealOver"
        return
    end_match(state, match_winner, events)  # type: ignore[arg-type]


def score_deal(state: State, winner: int, events: list[Event], flagged: int | None = None) -> int:
    """The deal's scores and totals (``winner`` went out; ``flagged``: the seat whose
    match clock ran out, engine.blitz) and the ``dealOver`` event; the phase is left to
    the caller. Returns the deal's winner (under placings, who closed it)."""
    rules = state.rules
    if rules.placings:
        # The places so far are scored; ``winner``'s going out is the last scoring moment.
        winner = placings.close(state, winner, events, flagged)
        scores = counted(rules, list(state.place_points))
    else:
        scores = counted(rules, deal_scores(state.hands, winner, rules, state.side))
    end_of_deal_sips(state, winner, events)
    if True in state.out and not rules.placings:
        for seat in range(state.players):
            # Seats knocked out of the match score nothing; a seat only out of this deal
            # (handLimit) has its hand scored as it stands.
            if state.out[seat] and (not rules.hand_limit or knocked_out(state, seat)):
                scores[seat] = 0
    totals = tuple([t + s for t, s in zip(state.totals, scores, strict=True)])
    state.deal_scores = tuple(scores)
    state.totals = totals
    state.winner = winner
    state.pending = 0
    state.pending_kind = None
    state.wd4 = None
    state.drawn = None
    state.exposed = state.declared = state.caught = None
    events.append(
        {
            "type": "dealOver",
            "winner": winner,
            "scores": scores,
            "totals": list(totals),
            "hands": [list(h) for h in state.hands],
        }
    )
    return winner


def end_match(state: State, winner: int | None, events: list[Event]) -> None:
    """The match is over once the deal just scored: ``winner`` (None: first place shared)."""
    back_in(state)
    state.phase = "matchOver"
    state.winner = winner
    events.append({"type": "matchOver", "winner": winner, "totals": list(state.totals)})


_GOES_ON = object()


def _match_winner(state: State, deal_winner: int, events: list[Event]) -> object:
    """The match winner (None when first place is shared), or _GOES_ON."""
    rules = state.rules
    totals = state.totals
    if rules.match_mode == "oneAndDone":
        return deal_winner
    if rules.match_mode == "knockout":
        return _knockout(state, events)
    if rules.teams:
        totals = tuple(team_totals(rules, totals))  # a team's players score together
    target_hit = any(t >= rules.target_score for t in totals)
    limit_hit = rules.round_limit > 0 and state.deal >= rules.round_limit
    if not (target_hit or limit_hit):
        return _GOES_ON
    best = best_seats(totals, rules.lowest_wins)
    # With teams the best team's first seat (team t's seats are t, t + teams, ...).
    return best[0] if len(best) == 1 else None


def _deal_only(state: State, seat: int) -> bool:
    """Out of this deal only (handLimit), not knocked out: still in the match."""
    if not state.rules.hand_limit:
        return False
    return state.totals[seat] - (state.deal_scores or (0,) * state.players)[seat] < (
        state.rules.target_score
    )


def _knockout(state: State, events: list[Event]) -> object:
    """Seats whose total reaches the target leave; the last one left wins."""
    rules = state.rules
    still_in = [s for s in range(state.players) if not state.out[s] or _deal_only(state, s)]
    leaving = [s for s in still_in if state.totals[s] >= rules.target_score]
    if leaving:
        state.out = tuple(o or s in leaving for s, o in enumerate(state.out))
        events.append({"type": "knockedOut", "seats": leaving})
    remaining = [s for s in still_in if s not in leaving]
    if len(remaining) > 1:
        return _GOES_ON
    if len(remaining) == 1:
        return remaining[0]
    # Everyone left went over at once: the lowest of them wins.
    best = best_seats(state.totals, True, among=still_in)
    return best[0] if len(best) == 1 else None
