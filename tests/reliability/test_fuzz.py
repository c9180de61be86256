from __future__ import annotations

from reliability import fuzz


def test_the_frame_strategies_cover_valid_and_broken_messages() -> None:
    pool = fuzz.draw_pool(300, seed=1)
    texts = [f for f in pool if isinstance(f, str)]
    assert any(isinstance(f, bytes) for f in pool)  # binary frames
    assert any(fuzz.action_id(f) for f in pool)  # well-formed actions
    assert any('"resume"' in f for f in texts) and any('"ping"' in f for f in texts)
    assert any(not f.startswith(("{", "[", '"')) for f in texts)  # not JSON at all


async def test_fuzzed_frames_are_all_answered_without_server_errors() -> None:
    # Many oversized frames (each closes its socket with 1009): the answers bound for a
    # closed socket are had by sending the action again with its id after the reconnect.
    # One example per REST operation: the full contract run is test_openapi_conformance's.
    report = await fuzz.run(
        frames=1500, rooms=2, seats=2, rest_examples=1, pool_size=300, seed=3, oversize_rate=1 / 50
    )
    print(report.table())
    assert report.value("socket frames sent") == 1500
    assert report.value("frames unanswered") == 0
    assert report.value("pings unanswered (socket stuck)") == 0
    assert report.value("sockets closed 1011 (server error)") == 0
    assert report.value("server exceptions in the log") == 0
    assert report.value("REST calls (schemathesis)") > 0
    assert report.value("REST 5xx") == 0
    assert report.value("REST contract failures") == 0
