"""How long a claim window holds and what delay a connection is credited with
(app.rooms.races, pure): the window covers the claimants' round-trip gap up to its bound;
a connection's own pong messages are believed only up to its ping frames' round trip."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from app.rooms.races import RaceSettings, credited_delay, window_ms

RACES = RaceSettings(window_ms=250, margin_ms=25, delay_cap_ms=250, ws_slack_ms=15)
delays = st.integers(min_value=0, max_value=2000)
rtts = st.none() | st.floats(min_value=0, max_value=5000, allow_nan=False)


@given(delays, st.lists(st.none() | delays, max_size=9))
def test_a_window_covers_the_farthest_claimant_up_to_its_bound(
    opener: int, others: list[int | None]
) -> None:
    held = window_ms(opener, others, RACES)
    assert 1 <= held <= RACES.window_ms
    # Unmeasured seats count as the cap; no seat is credited more than the cap.
    farthest = max((RACES.delay_cap_ms if d is None else min(d, 250) for d in others), default=0)
    needed = max(0, farthest - opener) + RACES.margin_ms
    assert held == min(RACES.window_ms, needed)


def test_claimants_equally_far_are_held_for_the_margin_only() -> None:
    assert window_ms(20, [20, 22], RACES) == 27
    assert window_ms(20, [200], RACES) == 205  # 20 ms against 200 ms: the gap and more
    assert window_ms(200, [20], RACES) == 25  # the far claim came first: nobody to wait for
    assert window_ms(20, [None], RACES) == 250  # not measured yet: as if at the cap


@given(rtts, rtts, rtts, st.floats(min_value=0, max_value=5000, allow_nan=False))
def test_stretching_pong_messages_gains_nothing_beyond_the_ping_frames_and_slack(
    app: float | None, ws: float | None, tcp: float | None, stretch: float
) -> None:
    credit = credited_delay(app, tcp, 250, ws, 15)
    assert 0 <= credit <= 250
    if ws is not None and app is not None:
        # The page's own answers, however late, are believed up to ws + slack.
        assert credit <= max(min(250, ws + 15), min(250, tcp or 0)) + 1
        assert credited_delay(app + stretch, tcp, 250, ws, 15) <= max(
            credit, int(min(250, ws + 15))
        )
    if tcp is not None:
        assert credit >= int(min(250, tcp))  # the kernel's figure is a floor
