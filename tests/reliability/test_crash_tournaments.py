from __future__ import annotations

from reliability import crash_tournaments


async def test_a_tournament_whose_serving_node_dies_mid_start_or_round_still_finishes() -> None:
    # Two kills (a start, a next round), both as the write that seats the round shows:
    # the window in which the round's rooms were being opened.
    report = await crash_tournaments.run(tournaments=2, seed=3)
    print(report.table())
    assert report.value("tournaments over with every table's result") == "2/2"
    assert report.value("tables whose room never opened") == 0
    assert report.value("host retries refused otherwise than as done") == 0
    assert report.value("tracebacks in the logs") == 0
