from __future__ import annotations

from reliability import crash_redis


async def test_redis_kills_with_appendfsync_always_lose_no_acked_action() -> None:
    report = await crash_redis.run(
        kills=1, fsync="always", rooms=2, seats=3, seed=7, gap=(0.5, 1.5)
    )
    print(report.table())
    assert report.value("Redis kills resumed") == "1/1"
    assert report.value("acked actions checked") > 0
    assert report.value("acked actions lost") == 0
    assert report.value("seq forks (two changes under one seq)") == 0
