from __future__ import annotations

from reliability import quickplay_wedge


async def test_careless_and_greedy_quick_play_on_two_nodes_never_wedges() -> None:
    report = await quickplay_wedge.run(rounds=1, unwatched=3, seed=3)
    print(report.table())
    assert report.ok, report.table()
