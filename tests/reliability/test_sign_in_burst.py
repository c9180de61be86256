from __future__ import annotations

from reliability import sign_in_burst


def test_wrong_passwords_on_two_nodes_are_checked_five_times_and_a_burst_is_refused_busy() -> None:
    report = sign_in_burst.run(wrong=12, burst=16)
    print(report.table())
    assert report.value("wrong passwords checked of 12 at once") <= 5
    assert report.value("the right password after them") == 429
    assert report.value("other answers") == 0
    assert report.value("tracebacks in the nodes' logs") == 0
