"""Teams (``teams``: 0 off, 2 pairs, 3 threes): partners sit opposite each other.

At a table of ``n`` seats in teams of ``size`` there are ``n // size`` teams and seat ``s``
plays for team ``s % (n // size)``: 2v2 at four seats is 0+2 against 1+3, 3v3 at six seats
0+2+4 against 1+3+5, pairs at six seats make three teams. A team wins the deal when one of
its players goes out: under ``winnerCollects`` that player scores the opponents' hands
(the partners' cards count nothing); under ``ownHandCounts`` the whole winning team
scores 0 and every opponent its own hand. A team's score is the sum of its players'
totals, and the match ends when a team's score reaches the target (or at the deal
limit): the best team wins, ``winner`` naming its first seat. Each player still sees only
their own hand: partners cannot see each other's cards.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.errors import InvalidAction
from engine.rules import Rules


def team_count(rules: Rules, players: int) -> int:
    return players // rules.teams if rules.teams else players


def team_of(rules: Rules, players: int, seat: int) -> int:
    """The team ``seat`` plays for (its own seat number without teams)."""
    return seat % team_count(rules, players)


def check_players(rules: Rules, players: int) -> None:
    """:raises InvalidAction: teams that this many players cannot make up."""
    size = rules.teams
    if size and (players % size or players < 2 * size):
        raise InvalidAction(
            "rules/clash",
            f"teams {size} needs a number of players divisible by {size} (at least"
            f" {2 * size}), got {players} players",
        )


def team_totals(rules: Rules, totals: Sequence[int]) -> list[int]:
    """Each team's score: the sum of its players' totals."""
    count = team_count(rules, len(totals))
    out = [0] * count
    for seat, total in enumerate(totals):
        out[seat % count] += total
    return out


def team_scores(rules: Rules, values: list[int], winner: int) -> list[int]:
    """A deal's entries under teams, from each hand's value and the seat that went out."""
    players = len(values)
    side = team_of(rules, players, winner)
    mine = [team_of(rules, players, s) == side for s in range(players)]
    if rules.scoring_mode == "ownHandCounts":
        return [0 if mine[s] else values[s] for s in range(players)]
    scores = [0] * players
    scores[winner] = sum(v for s, v in enumerate(values) if not mine[s])
    return scores


def team_view(rules: Rules, players: int, totals: Sequence[int]) -> dict[str, list[int]] | None:
    """``{"of": team per seat, "totals": each team's score}``, or None without teams."""
    if not rules.teams:
        return None
    return {
        "of": [team_of(rules, players, s) for s in range(players)],
        "totals": team_totals(rules, totals),
    }
