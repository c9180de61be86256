from __future__ import annotations

from reliability import soak


async def test_a_short_soak_keeps_every_invariant_while_seats_drop() -> None:
    report = await soak.run(rooms=4, minutes=0.15, seats=4, think=0.2, drop=0.5, seed=9)
    print(report.table())
    assert report.value("acked actions checked") > 0
    assert report.value("seat sockets dropped") > 0
    assert report.value("invariant violations (lost, doubled, unequal views, forks, gaps)") == 0
    assert report.value("exceptions in server logs") == 0
    assert report.value("sockets wedged") == 0
