from __future__ import annotations

from reliability import rating_farm


async def test_a_farmer_gains_nothing_from_puppets_that_leave() -> None:
    report = await rating_farm.run(matches=2, seed=5)
    print(report.table())
    assert report.ok, report.table()
