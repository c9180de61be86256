from __future__ import annotations

from reliability import crash_nodes


async def test_node_kills_lose_and_double_no_acked_action() -> None:
    report = await crash_nodes.run(kills=2, rooms=2, seats=3, seed=7, gap=(0.5, 1.5))
    print(report.table())
    assert report.value("node kills resumed") == "2/2"
    assert report.value("acked actions checked") > 0
    assert report.value("acked actions lost") == 0
    assert report.value("applied twice") == 0
    assert report.value("views unequal to a fresh snapshot") == 0
    assert report.value("seq forks (two changes under one seq)") == 0
