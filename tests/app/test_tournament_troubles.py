"""The runner's troubles (app/tournaments/troubles.py) on a clock the test moves: a
failure is logged once with its reason, then at most once a minute; it is tried again
only after a pause that doubles up to a minute; a recovery is said once."""

from __future__ import annotations

import logging

import pytest

from app.errors import RoomError
from app.tournaments.troubles import Troubles


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_failure_is_logged_once_then_once_a_minute_and_retried_after_a_doubling_pause(
    caplog: pytest.LogCaptureFixture,
) -> None:
    clock = Clock()
    troubles = Troubles(logging.getLogger("test.troubles"), clock)
    err = RoomError(409, "not_enough_players", "a match needs at least 2 players")
    assert troubles.due("t1")
    with caplog.at_level(logging.INFO, logger="test.troubles"):
        assert troubles.failed("t1", err) is True
        pauses = []
        for _ in range(12):
            assert not troubles.due("t1")
            start = clock.now
            while not troubles.due("t1"):
                clock.now += 0.5
            pauses.append(clock.now - start)
            assert troubles.failed("t1", err) is False  # the same reason: not news
        assert pauses[:7] == [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 60.0] and max(pauses) == 60.0
        # Another table is not held up by the first.
        assert troubles.due("t2")
        logged = [r.getMessage() for r in caplog.records]
        # ~8 minutes of failures: the first line, then one a minute.
        assert (
            logged[0]
            == "t1 cannot be looked after: not_enough_players: a match needs at least 2 players"
        )
        assert 1 + 6 <= len(logged) <= 1 + 9
        assert troubles.failed("t1", ValueError("another")) is True  # a new reason is news
        assert troubles.recovered("t1") is True and troubles.recovered("t1") is False
        assert troubles.due("t1")
