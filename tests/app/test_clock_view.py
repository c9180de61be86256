"""What a view says of the clock: the turn time and the time bank apart (``bankFrom`` to
``deadline``), and when the autopilot takes over a seat whose sockets all closed
(``awayAt``), as the room really acts; over real sockets, on the memory and Redis stores."""

from __future__ import annotations

from live import SETUP, Server
from test_tables import events, seat_room, until


async def test_the_view_shows_where_the_turn_time_ends_and_the_bank_starts(
    quick: Server,
) -> None:
    room_id, seat_tokens, _ = await seat_room(
        quick, SETUP, turnSeconds=30, seat_extra={"bank": 20_000}
    )
    c0 = await quick.connect(room_id, seat_tokens[0])
    view = c0.view
    assert view["deadlineSeat"] == 0
    # The deadline is the turn time plus the whole bank; the bank starts where the turn ends.
    assert view["deadline"] - view["bankFrom"] == 20_000
    record = await quick.app.state.store.load(room_id)
    clock = record.doc["clock"]
    assert view["bankFrom"] == clock["start"] + 30_000
    await c0.close()


async def test_a_room_without_a_turn_timer_has_no_bank_start(quick: Server) -> None:
    room_id, seat_tokens, _ = await seat_room(quick, SETUP)
    c0 = await quick.connect(room_id, seat_tokens[0])
    assert c0.view["deadline"] is None and c0.view["bankFrom"] is None
    assert c0.view["players"][0]["awayAt"] is None
    await c0.close()


async def test_a_closed_seat_says_when_the_autopilot_takes_it_and_it_does_then(
    quick: Server,
) -> None:
    room_id, seat_tokens, _ = await seat_room(quick, SETUP, absentAfter=1, turnSeconds=30)
    watcher = await quick.connect(room_id, seat_tokens[1])
    gone = await quick.connect(room_id, seat_tokens[0])
    await watcher.wait_seq(gone.seq)
    assert watcher.view["players"][0]["awayAt"] is None  # a socket is open
    await gone.close()
    await until(lambda: events(watcher, "disconnect"))
    closed = [
        m
        for m in watcher.messages
        if m["type"] == "patch" and {"type": "disconnect", "seat": 0} in m["events"]
    ][0]
    record = await quick.app.state.store.load(room_id)
    gone_at = record.doc["players"][0]["goneAt"]
    assert gone_at == closed["ts"]
    # absentAfter (1 s) after the last socket closed, well before the turn's 30 s.
    away_at = watcher.view["players"][0]["awayAt"]
    assert away_at == gone_at + 1000 < watcher.view["deadline"]
    await until(lambda: events(watcher, "away"))
    went = [
        m
        for m in watcher.messages
        if m["type"] == "patch" and any(e["type"] == "away" for e in m["events"])
    ][0]
    assert went["ts"] >= away_at
    # Away: the autopilot plays, so no take-over is due any more.
    assert watcher.view["players"][0]["away"] is True
    assert watcher.view["players"][0]["awayAt"] is None
    await until(lambda: events(watcher, "auto"))
    await watcher.close()
