"""Double score (``doubleScore``): every deal counts twice. The deal's entries (what the
hands are worth by the scoring options) are doubled before they join the totals, so the
target is reached in about half the deals. A paper scoresheet (engine.scoresheet) records
what the table wrote and is not doubled."""

from __future__ import annotations

from engine.rules import Rules


def counted(rules: Rules, scores: list[int]) -> list[int]:
    """The deal's scores as they count towards the totals."""
    if rules.double_score:
        return [2 * s for s in scores]
    return scores
