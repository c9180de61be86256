"""A finished deal replayed through the engine: its final state, and its frames.

Both history routes that replay a deal read it here (:mod:`app.api.history`): the replay
route's check (``finalState`` and whether it reproduces the recorded scores) and the
frames the replay page steps through (docs/persistence.md, *Frames*). Every state comes
from the engine's own replay (:func:`engine.replay_log`) and every view from
:func:`engine.view_for`: nothing here knows a rule.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from app.db import DealReplay
from engine import (
    EngineError,
    GameState,
    event_full,
    hands_of,
    replay_log,
    state_from_json,
    view_for,
)
from engine.verify import verify


class ReplayBroken(Exception):
    """The recorded deal does not replay: ``index`` is the action that broke it (None: the
    start state itself), ``code`` and ``message`` say why."""

    def __init__(self, index: int | None, code: str, message: str) -> None:
        super().__init__(message)
        self.problem = {"index": index, "code": code, "message": message}


# A step of the replay: the recorded action (None for the start), the state and events.
Frame = tuple[dict[str, Any] | None, GameState, list[dict[str, Any]]]


def replayed(replay: DealReplay) -> Iterator[Frame]:
    """The start state (with no action), then each recorded action with the state and
    events it made, in order.

    :raises ReplayBroken: a start state this engine cannot read, or an action it refuses.
    """
    try:
        state = state_from_json(replay.start_state)
    except (KeyError, TypeError, ValueError) as error:
        # Recorded by an engine whose state format differs from this one's.
        raise ReplayBroken(None, "replay/bad_start_state", str(error)) from error
    yield None, state, []
    entries: list[dict[str, Any]] = [
        {"seat": e.seat if e.seat is not None else -1, "action": e.action, "record": e.to_json()}
        for e in replay.actions
    ]
    done = 0  # the actions replayed: the index of one that breaks the replay
    try:
        for step in replay_log(entries, state):
            if step.after is not None:  # always: the replay starts from a state
                yield step.entry["record"], step.after, step.events
            done += 1
    except EngineError as error:
        raise ReplayBroken(done, error.code, error.message) from error


def replay_check(replay: DealReplay) -> dict[str, Any]:
    """The replay route's ``finalState`` and ``replay: {consistent, error}``."""
    try:
        *_, (_, state, _) = replayed(replay)
    except ReplayBroken as broken:
        return {"finalState": None, "replay": {"consistent": False, "error": broken.problem}}
    check = {"consistent": _consistent(replay, state), "error": None}
    return {"finalState": state.to_json(), "replay": check}


def _consistent(replay: DealReplay, state: GameState) -> bool:
    # Every game's state keeps running totals; a deal's scores only where deals are scored.
    scores = state.deal_scores
    return list(state.totals) == replay.totals and (
        replay.scores == [None] * len(replay.scores) or list(scores or ()) == replay.scores
    )


def frames(replay: DealReplay, deals: list[int]) -> dict[str, Any]:
    """The frames route's body: one frame for the start and one per action, each with the
    table as an all-seeing spectator sees it (``view.hands``: every seat's hand).

    ``rules`` stand once beside the frames, not in every view; ``deals`` are the match's
    deal numbers (for a deal picker); ``shuffle`` is the start state's proof and
    ``checks`` what ``python -m engine.verify`` finds of the deal; ``replay`` says, as the
    replay route does, whether the log replays to the recorded scores (if not, the frames
    stop before the action that broke it).
    """
    out: list[dict[str, Any]] = []
    rules: dict[str, Any] | None = None
    check: dict[str, Any] = {"consistent": False, "error": None}
    try:
        for record, state, events in replayed(replay):
            view = _all_seeing(state)
            rules = view.pop("rules", rules)
            out.append(
                {
                    "index": len(out),
                    "seq": record["seq"] if record else None,
                    "seat": record["seat"] if record else None,
                    "action": record["action"] if record else None,
                    "events": [event_full(e) for e in events],
                    "view": view,
                }
            )
        check["consistent"] = _consistent(replay, state)
    except ReplayBroken as broken:
        check["error"] = broken.problem
    body = replay.to_json()
    return {
        "matchId": replay.match_id,
        "deal": replay.number,
        "deals": deals,
        "players": body["players"],
        "rules": rules,
        "scores": replay.scores,
        "totals": replay.totals,
        "winner": replay.winner,
        "matchOver": replay.match_over,
        "shuffle": replay.start_state.get("shuffle"),
        "checks": _checks(body),
        "replay": check,
        "frames": out,
    }


def _all_seeing(state: GameState) -> dict[str, Any]:
    """A spectator's view with every hand in it, in seat order (a game without hands:
    an empty one per seat)."""
    hands = hands_of(state)
    seen = [list(h) for h in hands] if hands is not None else [[] for _ in range(state.players)]
    view: dict[str, Any] = view_for(state, None)
    view["hands"] = seen
    return view


def _checks(record: dict[str, Any]) -> dict[str, str]:
    """The engine's verification of the deal (its shuffle, deal, actions and scores)."""
    try:
        return verify(record)
    except (KeyError, TypeError, ValueError) as error:
        return {"record": f"not a deal record: {error}"}
