from __future__ import annotations

from reliability import leaks


def test_the_scan_finds_a_foreign_hand_a_seed_and_the_draw_order() -> None:
    truth = leaks.Truth()
    pile = ["R1", "G2", "B3", "Y4", "R5", "G6", "B7"]
    truth.add("m1", 1, {"seed": "abcdef0123", "draw_pile": pile})
    scan = leaks.Scan(truth)
    scan.secrets('{"x": "abcdef0123"}', {"x": "abcdef0123"}, ("m1", 1, "playing"), "frame")
    scan.secrets("[]", {"next": pile[1:6][::-1]}, ("m1", 1, "playing"), "frame")
    scan.secrets("{}", {"startState": {"a": 1}}, ("m1", 1, "playing"), "frame")
    assert scan.counts["seed revealed early"] == 1
    assert scan.counts["draw order revealed"] == 1
    scan.secrets("[]", {"reveal": [pile[1:6]]}, ("m1", 1, "dealOver"), "frame")
    assert scan.counts["draw order revealed"] == 1  # a finished deal's cards are no secret
    assert scan.counts["hidden field 'startState' before the match ended"] == 1
    events = [
        {"type": "draw", "seat": 0, "cards": ["R1"]},
        {"type": "draw", "seat": 1, "cards": ["G2"]},
    ]
    ops = [{"op": "replace", "path": "/hand", "value": ["R1", "G2"]}]
    own = leaks.without_own({"ops": ops, "events": events}, 0)
    assert own["ops"] == [] and own["events"][0] == {"type": "draw", "seat": 0}
    assert own["events"][1]["cards"] == ["G2"]


async def test_no_socket_frame_or_rest_answer_of_live_deals_reveals_hidden_cards() -> None:
    report = await leaks.run(deals=4, rooms=2, seats=3, spectators=1, seed=5)
    print(report.table())
    assert report.value("deals played") >= 4
    assert report.value("seat frames scanned") > 0
    assert report.value("spectator frames scanned") > 0
    assert report.value("REST answers scanned") > 0
    assert report.value("foreign hands or drawn cards in socket frames") == 0
    assert report.value("seeds, start/final states or draw order before the end") == 0
    assert report.value("hands in REST answers") == 0
