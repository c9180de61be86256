"""How long an account's session lives: 30 days after it was last used, and a year at
most after it was opened. Every request that shows a token checks it
(:func:`expires_at`); a session past it is gone, as one signed out."""

from __future__ import annotations

from datetime import datetime, timedelta

IDLE = timedelta(days=30)
LONGEST = timedelta(days=365)
# A session's last use is written at most this often (not on every request).
USE_GRAIN = timedelta(minutes=1)


def expires_at(opened: datetime, last_used: datetime) -> datetime:
    """When the session ends unless it is used again.

    >>> from datetime import UTC
    >>> day = datetime(2026, 1, 1, tzinfo=UTC)
    >>> expires_at(day, day).isoformat()
    '2026-01-31T00:00:00+00:00'
    >>> expires_at(day, day + timedelta(days=360)).isoformat()
    '2027-01-01T00:00:00+00:00'
    """
    return min(last_used + IDLE, opened + LONGEST)


def iso(moment: datetime) -> str:
    """ISO 8601 in UTC, as the API writes times (``...Z``)."""
    return moment.isoformat().replace("+00:00", "Z")
