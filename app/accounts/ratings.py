"""The rating model: OpenSkill's Plackett-Luce model over the placings of a finished match.

Each account has one rating per pool (a game family): ``classic`` for the shedding
presets, ``duo``, ``flip``, and ``party`` for UNO Rommy and Bottle UNO. A rating is a
belief ``(mu, sigma)``, 25 and 25/3 for a newcomer; it is shown as an integer on a
1500-based scale (:func:`shown`), ``provisional`` until :data:`PROVISIONAL_GAMES` rated
games. docs/ratings.md says the same for players.

Placings are the match's finishing order (app.placings: a seat that left or was played by
the autopilot is last). Bots and guests take part in the placings (a fresh rating stands
in for each) but are given no rating. Which seats are rated, and against whom, is
app.db.ratings' rule (docs/ratings.md, "When a match is rated").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, get_args

from openskill.models import PlackettLuce

Pool = Literal["classic", "duo", "flip", "party"]
POOLS: tuple[Pool, ...] = get_args(Pool)
PROVISIONAL_GAMES = 20
# Shown value = BASE + SCALE * (mu - MU): a newcomer shows 1500; one sigma of a newcomer's
# uncertainty is about 333 points.
BASE, SCALE = 1500, 40.0
MU, SIGMA = 25.0, 25.0 / 3.0

_POOL_OF_PRESET: dict[str, Pool] = {
    "duo": "duo",
    "flip": "flip",
    "rommy": "party",
    "bottle": "party",
}
_model = PlackettLuce(mu=MU, sigma=SIGMA)


def pool_of(rules: Mapping[str, Any]) -> Pool:
    """The pool of a room's rules (wire form): its preset's family."""
    return _POOL_OF_PRESET.get(str(rules.get("preset", "classic")), "classic")


def shown(mu: float) -> int:
    return round(BASE + SCALE * (mu - MU))


@dataclass(frozen=True, slots=True)
class Belief:
    mu: float = MU
    sigma: float = SIGMA


def public(value: int, games: int) -> dict[str, Any]:
    """A rating as every reader shows it."""
    return {"value": value, "provisional": games < PROVISIONAL_GAMES, "games": games}


NEWCOMER = public(shown(MU), 0)


def rate(beliefs: Sequence[Belief | None], placings: Sequence[int]) -> list[Belief | None]:
    """The beliefs after a match with these placings; None (a bot or guest) stays None,
    and takes part as a newcomer."""
    teams = [[_model.rating(mu=b.mu, sigma=b.sigma) if b else _model.rating()] for b in beliefs]
    after = _model.rate(teams, ranks=[float(p) for p in placings])
    return [
        None if b is None else Belief(team[0].mu, team[0].sigma)
        for b, team in zip(beliefs, after, strict=True)
    ]


def win_chances(beliefs: Sequence[Belief]) -> list[float]:
    """The model's chance of each player placing first (for the ratings bench)."""
    teams = [[_model.rating(mu=b.mu, sigma=b.sigma)] for b in beliefs]
    return list(_model.predict_win(teams))
