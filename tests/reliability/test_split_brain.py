from __future__ import annotations

from reliability import split_brain


async def test_a_stopped_lease_holder_gets_no_stale_write_accepted() -> None:
    report = await split_brain.run(runs=2, rooms=2, seats=3, lease_ms=1000, seed=7)
    print(report.table())
    assert report.value("split-brain runs resumed") == "2/2"
    assert report.value("stale writes accepted (forks + acked lost + doubled)") == 0
    assert report.value("views unequal to a fresh snapshot") == 0
