from __future__ import annotations

from reliability import crash_redis


async def test_redis_kills_with_appendfsync_always_lose_no_acked_action_and_all_resume() -> None:
    # Several kills: the nodes must listen again after each (one kill hid a pub/sub
    # connection that was never subscribed again).
    report = await crash_redis.run(
        kills=3, fsync="always", rooms=2, seats=3, seed=7, gap=(0.5, 1.5)
    )
    print(report.table())
    assert report.value("Redis kills resumed") == "3/3"
    assert report.value("acked actions checked") > 0
    assert report.value("acked actions lost") == 0
    assert report.value("seq forks (two changes under one seq)") == 0
