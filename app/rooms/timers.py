"""The room's own timers: the turn clock and time bank, absent seats, the bots' moves, the
next deal after a pause, empty rooms, a paused table. One ``tick`` command judges whatever
is due; each due thing is its own change. After every change :func:`settle` sets the
clocks anew, all kept in the document so that any writer carries them on."""

from __future__ import annotations

from typing import Any

import engine
from app.errors import RoomError
from app.rooms import autoplay, claims, commands, seats
from app.rooms.doc import ABSENT_AFTER, LOBBY, PLAYING, player_by_pid, player_by_seat
from app.rooms.presence import going_away
from app.rooms.races import is_race_claim
from app.rooms.room import Room
from app.rooms.step import Step, merge

# The room's own actions.
CLOCK_OUT = engine.Action("clockOut")
NEXT_DEAL = engine.Action("nextDeal")


def blitz_ms(state: engine.GameState) -> int:
    """blitzSeconds (ms) for a match of ``state``'s rules; 0 when off or when the game is
    not a shedding game (UNO Rommy and Bottle UNO read no blitz clock)."""
    if type(state) is not engine.State:
        return 0
    return int(state.rules.blitz_seconds) * 1000


def next_deal_timer(m: Room, now_ms: int) -> tuple[float, commands.Timer] | None:
    """(delay in s, command) if the room should deal on by itself after a deal ended."""
    # A timed room deals on by itself after turnSeconds, so that no deal end waits on
    # someone who left.
    state = m.state
    if state is None or state.phase != "dealOver":
        return None
    delay = m.doc.get("nextDealDelay", 0) or m.doc.get("turnSeconds", 0)
    if not delay:
        return None
    if m.doc["status"] != PLAYING:
        return None
    ended = m.doc.get("dealOverAt") or m.doc.get("ts", now_ms)
    since = max(0, now_ms - ended) / 1000
    return max(0.0, delay - since), commands.Timer(deal=state.deal)


def next_due(m: Room) -> int | None:
    """When the room next needs a ``tick`` (server ms), or None."""
    doc = m.doc
    if doc.get("pausedAt"):
        return None  # a paused table's clocks stand still (see on_unpause)
    dues: list[int] = []
    clock = doc.get("clock")
    if clock:
        dues.append(clock["deadline"])
    bot_at = doc.get("botAt")
    if bot_at:
        dues.append(bot_at)
    timer = next_deal_timer(m, 0)
    if timer is not None:
        ended = doc.get("dealOverAt") or doc.get("ts", 0)
        delay = doc.get("nextDealDelay", 0) or doc.get("turnSeconds", 0)
        dues.append(ended + delay * 1000)
    if doc["status"] in (LOBBY, PLAYING):
        gone = going_away(doc["players"])
        if gone:
            absent = doc.get("absentAfter", ABSENT_AFTER) * 1000
            dues.extend(player["goneAt"] + absent for player in gone)
    empty_since = doc.get("emptySince")
    if empty_since:  # (0: a document written without a clock, as in tests)
        dues.append(empty_since + empty_limit(m))
    return min(dues) if dues else None


def empty_limit(m: Room) -> int:
    if m.doc["status"] == LOBBY:
        host = m.doc.get("hostPid")
        if host is not None and player_by_pid(m.doc, host) is None:
            # Its host sat and has gone, and nobody sits: nobody is left to start it.
            return m.times.left_lobby_ms
        return m.times.empty_lobby_ms
    return m.times.empty_room_ms


def on_tick(m: Room, command: commands.Tick, now_ms: int) -> Step:
    """Whatever of the room's timers is due, in a fixed order; nothing due: no change
    (a tick that a player's action overtook, or a second node's copy of it)."""
    doc = m.doc
    if doc.get("pausedAt"):
        return Step({"ok": True, "stale": True})
    if doc.get("emptySince") and now_ms >= doc["emptySince"] + empty_limit(m):
        if is_empty(m):
            return m.end_room("empty", now_ms)
        doc["emptySince"] = None
    clock = doc.get("clock")
    if clock and now_ms >= clock["deadline"]:
        return timeout(m, clock, now_ms)
    absent = doc.get("absentAfter", ABSENT_AFTER) * 1000
    for player in going_away(doc["players"]):
        if now_ms >= player["goneAt"] + absent:
            return go_away(m, player, "absent")
    timer = next_deal_timer(m, now_ms)
    if timer is not None and timer[0] <= 0:
        return on_timer(m, timer[1], now_ms)
    if doc.get("botAt") and now_ms >= doc["botAt"]:
        doc["botAt"] = None
        step = bot_turn(m, now_ms)
        if step is not None:
            return step
        m.bots_idle = None if m.state is None else m.state.moves
    return Step({"ok": True, "stale": True})


def go_away(m: Room, player: dict[str, Any], reason: str) -> Step:
    player["away"] = True
    step = Step({"ok": True}, changed=True)
    step.public_events.append({"type": "away", "seat": player["seat"], "reason": reason})
    if player["pid"] == m.doc.get("hostPid") and m.doc["status"] == LOBBY:
        seats.hand_over(m, step)
    return step


def timeout(m: Room, clock: dict[str, Any], now_ms: int) -> Step:
    """The decider's time ran out: the room plays its turn out (draw one and pass where
    the rules allow a pass, else the autopilot's choice), as one change."""
    state = m.state
    seat = clock["seat"]
    if state is None or autoplay.decider(state) != seat or state.deal != clock["deal"]:
        m.doc["clock"] = None  # a clock left from a decision that is gone
        return Step({"ok": True, "stale": True})
    if clock.get("flag"):
        # blitzSeconds: the seat's match clock ran out. The room's own word goes into
        # the log as an engine action (engine.blitz): the deal and the match end.
        try:
            flagged = m.apply(seat, CLOCK_OUT, None, now_ms, by="clock")
        except RoomError:
            m.doc["clock"] = None  # (no deal to end: nothing the clock can do)
            return Step({"ok": True, "stale": True})
        flagged.actor = seat
        return flagged
    step: Step | None = None
    deal = state.deal
    for _ in range(autoplay.MAX_DEFAULT_STEPS):
        state = m.state
        if state is None or autoplay.decider(state) != seat or state.deal != deal:
            break
        action = autoplay.default_move(state, seat, m.rng)
        if action is None:
            break
        try:
            more = m.apply(seat, action, None, now_ms, by="timeout")
        except RoomError:
            fallback = autoplay.fallback(state, seat)
            if fallback is None or fallback == action:
                break
            more = m.apply(seat, fallback, None, now_ms, by="timeout")
        if step is None:
            step = more
        else:
            merge(step, more)
    if step is None:
        m.doc["clock"] = None
        return Step({"ok": True, "stale": True})
    step.actor = seat
    player = player_by_seat(m.doc, seat)
    step.public_events.append({"type": "timeout", "seat": seat})
    if player is not None and not player.get("bot"):
        player["timeouts"] = player.get("timeouts", 0) + 1
        if player["timeouts"] >= 2 and not player.get("away"):
            player["away"] = True
            step.public_events.append({"type": "away", "seat": seat, "reason": "timeouts"})
    return step


def bot_turn(m: Room, now_ms: int) -> Step | None:
    """One move of a seat the room plays (the decider first), or None."""
    state = m.state
    if m.doc["status"] != PLAYING or state is None:
        return None
    pilots = autoplay.pilots(m.doc)
    deal_on = not autoplay.present_humans(m.doc)
    first = autoplay.decider(state)
    order = sorted(pilots, key=lambda s: (s != first, s))
    for seat in order:
        pilot = pilots[seat]
        memory = None
        if pilot.by == "bot" and engine.legal_actions(state, seat):
            # A bot remembers the deal as a player would; the autopilot of an away seat
            # plays from the seat's view alone.
            memory = m.recall.memory(seat, m.deal_start, m.deal_actions)
        action = autoplay.bot_move(state, seat, pilot, m.rng, deal_on=deal_on, memory=memory)
        if action is None:
            continue
        if claims.fair(m) and is_race_claim(state, seat, action):
            # A race (out of turn, or a UNO call): claimed as a person claims, held in
            # the claim window with the others and ranked by its reaction time.
            step = Step({"ok": True, "stale": True})
            step.claims.append(room_claim(m, seat, pilot, action, now_ms))
            return step
        try:
            step = m.apply(seat, action, None, now_ms, by=pilot.by)
        except RoomError:
            fallback = autoplay.fallback(state, seat) if seat == first else None
            if fallback is None:
                continue
            step = m.apply(seat, fallback, None, now_ms, by=pilot.by)
        step.actor = seat
        step.public_events.append({"type": "auto", "seat": seat, "by": pilot.by})
        return step
    return None


def room_claim(
    m: Room, seat: int, pilot: autoplay.Pilot, action: engine.Action, now_ms: int
) -> commands.Action:
    """The command of a claim the room makes for ``seat``. Its reaction is the time
    since the position it claims on was made (the bot's human-like pause), with no
    network delay to credit: it is judged against the people's estimates as they are."""
    player = player_by_seat(m.doc, seat)
    state = m.state
    assert player is not None and state is not None
    since = m.position_ms if m.position_ms is not None else now_ms
    claim = commands.Action(
        pid=player["pid"],
        ref=f"room-{state.deal}-{state.moves}-{seat}-{action.type}",
        action=action,
        timing={"raw": max(0, now_ms - since), "delay": 0},
        by=pilot.by,
    )
    return claim


def settle(m: Room, step: Step, now_ms: int) -> None:
    """After every change: the decider's clock, the bots' next move, and whether the
    room is empty (all kept in the document, so any writer carries them on)."""
    doc, state = m.doc, m.state
    playing = doc["status"] == PLAYING and state is not None
    # The turn clock.
    clock = doc.get("clock")
    seat = autoplay.decider(state) if playing else None
    same = (
        clock is not None
        and clock["seat"] == seat
        and state is not None
        and clock["deal"] == state.deal
        and step.actor != seat
    )
    if not same:
        if clock is not None:
            # The time bank pays for the part of the decision past turnSeconds.
            owner = player_by_seat(doc, clock["seat"])
            if owner is not None and "bank" in owner:
                spent = max(0, now_ms - clock["start"] - clock["turn"])
                owner["bank"] = max(0, owner["bank"] - spent)
            # blitzSeconds: the match clock pays for the whole decision.
            if owner is not None and "blitz" in owner:
                owner["blitz"] = max(0, owner["blitz"] - max(0, now_ms - clock["start"]))
        doc["clock"] = None
        turn_ms = int(doc.get("turnSeconds", 0)) * 1000
        owner = player_by_seat(doc, seat) if seat is not None else None
        blitz = None if owner is None else owner.get("blitz")
        if (turn_ms or blitz is not None) and seat is not None and state is not None:
            bank = 0 if owner is None else int(owner.get("bank", 0))
            deadline = now_ms + turn_ms + bank if turn_ms else None
            # The match clock's end, when it comes before the turn timer's: then the
            # deadline is the flag (``clockOut``), not a turn played out.
            flag = blitz is not None and (deadline is None or now_ms + blitz <= deadline)
            doc["clock"] = {
                "seat": seat,
                "deal": state.deal,
                "start": now_ms,
                "turn": turn_ms,
                "deadline": now_ms + blitz if flag and blitz is not None else deadline,
            }
            if flag:
                doc["clock"]["flag"] = True
    # The bots.
    if not playing or doc.get("pausedAt") or not autoplay.pilots(doc):
        doc["botAt"] = None
    elif doc.get("botAt") is None or step.actor is not None:
        doc["botAt"] = None
        if bots_may_act(m):
            delay = m.times.bot_delay_ms * (0.6 + 0.8 * m.rng.random())
            doc["botAt"] = now_ms + int(delay)
    # Nobody there.
    if not is_empty(m):
        doc["emptySince"] = None
    elif doc.get("emptySince") is None:
        doc["emptySince"] = now_ms


def is_empty(m: Room) -> bool:
    """Nobody seated (a lobby), or no seated person with a socket open (a match)."""
    players = m.doc["players"]
    if m.doc.get("tournament"):
        # A tournament table plays to its end (the autopilot plays absent seats): its
        # result counts, whoever watches.
        return False
    if m.doc["status"] == LOBBY:
        return not players
    for p in players:
        if p["conn"] > 0 and not p.get("bot"):
            return False
    return True


def bots_may_act(m: Room) -> bool:
    state = m.state
    if state is None or state.moves == m.bots_idle:
        return False
    deal_on = not autoplay.present_humans(m.doc)
    for seat in autoplay.pilots(m.doc):
        legal = engine.legal_actions(state, seat)
        if any(a.type != "nextDeal" or deal_on for a in legal):
            return True
    return False


def on_resume(m: Room, command: commands.Resume, now_ms: int) -> Step:
    """A writer took the room over after an outage: the decider gets the time back that
    passed while no writer held the room."""
    shift = int(command.shift)
    doc = m.doc
    clock = doc.get("clock")
    if shift <= 0 or doc.get("pausedAt") or (clock is None and not doc.get("emptySince")):
        # (A paused table's clock stands still: unpause gives its time back.)
        return Step({"ok": True, "stale": True})
    step = Step({"ok": True}, changed=True)
    if doc.get("emptySince"):
        doc["emptySince"] += shift  # nor does an outage count as nobody being there
    if clock is not None:
        clock["start"] += shift
        clock["deadline"] += shift
        event = {"type": "clockResumed", "seat": clock["seat"], "added": shift}
        step.public_events.append(event)
    return step


def on_pause(m: Room, command: commands.Pause, now_ms: int) -> Step:
    """A tournament's host stops the table: no clock runs, nobody moves, until
    ``unpause`` gives every running clock the paused time back."""
    doc = m.doc
    if doc["status"] != PLAYING or doc.get("pausedAt"):
        return Step({"ok": True, "stale": True})
    doc["pausedAt"] = now_ms
    return Step({"ok": True}, changed=True, public_events=[{"type": "paused"}])


def on_unpause(m: Room, command: commands.Unpause, now_ms: int) -> Step:
    doc = m.doc
    paused = doc.get("pausedAt")
    if not paused:
        return Step({"ok": True, "stale": True})
    shift = max(0, now_ms - int(paused))
    doc["pausedAt"] = None
    clock = doc.get("clock")
    if clock is not None:
        clock["start"] += shift
        clock["deadline"] += shift
    if doc.get("dealOverAt"):
        doc["dealOverAt"] += shift
    for player in doc["players"]:
        if player.get("goneAt") is not None:
            player["goneAt"] += shift
    return Step({"ok": True}, changed=True, public_events=[{"type": "unpaused", "added": shift}])


def on_timer(m: Room, command: commands.Timer, now_ms: int) -> Step:
    """The room deals the next deal itself, ``nextDealDelay`` s after one ended; a timer
    that a player's nextDeal (or anything else) overtook in the log does nothing."""
    state = m.state
    if (
        m.doc["status"] != PLAYING
        or m.doc.get("pausedAt")
        or state is None
        or state.phase != "dealOver"
        or state.deal != command.deal
    ):
        return Step({"ok": True, "stale": True})
    # Any seated player may deal on (the first one still in the match); the room acts.
    seat = next(s for s in range(state.players) if not engine.is_out(state, s))
    step = m.apply(seat, NEXT_DEAL, None, now_ms)
    step.public_events.append({"type": "timer", "action": "nextDeal"})
    return step
