"""A finished deal frame by frame: the frames agree with the replay route, and every frame
holds the deck's cards exactly once; over REST on SQLite and PostgreSQL, the frames route
answers as the replay route does (404, 409 while the match runs) and from its cache."""

from __future__ import annotations

import random
import re
from collections import Counter
from datetime import UTC, datetime
from typing import Any

import httpx
from db_fixtures import (  # noqa: F401 (fixtures)
    fixture_client,
    fixture_database_url,
    fixture_db,
    fixture_postgres_session_url,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_history_api import SEATS, _play_and_record

from app.api.deal_frames import frames, replay_check
from app.db import Database, DealRecord, DealReplay
from app.db.records import ActionRecord, SeatRecord
from app.frame_cache import FrameCache
from engine import (
    PRESETS,
    GameState,
    InvalidRules,
    State,
    apply,
    hands_of,
    legal_actions,
    new_match,
    replay_log,
    rules_from_json,
    state_from_json,
)
from engine.deal import deck_for
from engine.rules import OPTIONS, Option
from engine.variants.bottle import BottleState
from engine.variants.bottle import all_cards as bottle_cards
from engine.variants.rommy import RommyState
from engine.variants.rommy.view import all_cards as rommy_cards

STEPS = 600  # a deal that lasts longer is replayed as far as it went
# Options a random match leaves alone: the match clock runs out only in a room.
LEFT_ALONE = {"blitzSeconds"}


def _values(option: Option) -> st.SearchStrategy[Any]:
    if isinstance(option.default, bool):
        return st.booleans()
    if option.choices:
        return st.sampled_from(option.choices)
    return st.integers(option.least, max(option.least, min(option.high, 20)))


@st.composite
def matches(draw: st.DrawFn) -> tuple[GameState, random.Random]:
    """A new match of any preset, with random options on top of it half the time."""
    preset = draw(st.sampled_from(sorted(PRESETS)))
    names = draw(
        st.sets(
            st.sampled_from(sorted(o.name for o in OPTIONS if o.name not in LEFT_ALONE)), max_size=6
        )
    )
    options = {o.name: draw(_values(o)) for o in OPTIONS if o.name in names}
    while True:
        try:
            rules = rules_from_json({"preset": preset, **options})
            break
        except InvalidRules as err:
            named = [n for n in sorted(options) if re.search(rf"\b{n}\b", err.message)]
            if not named:
                rules = rules_from_json({"preset": preset})
                break
            del options[named[0]]
    low, high = rules.min_players, min(rules.max_players, 6)
    players = draw(st.integers(low, high))
    if rules.teams and (players % rules.teams or players < 2 * rules.teams):
        rules = rules_from_json({"preset": preset})
    state, _ = new_match(rules, players, draw(st.text(min_size=1, max_size=8)))
    return state, random.Random(draw(st.integers(0, 2**32)))


def _one_deal(state: GameState, rng: random.Random) -> DealReplay:
    """Play the first deal with random legal actions (the turn holder's plays first, so it
    ends soon) and record it as the room does."""
    start, log = state, []
    for seq in range(1, STEPS + 1):
        if state.phase in ("dealOver", "matchOver"):
            break
        choices = [(s, a) for s in range(state.players) for a in legal_actions(state, s)]
        if not choices:
            break
        plays = [(s, a) for s, a in choices if a.type == "play" and s == state.turn]
        seat, action = rng.choice(plays or choices)
        state, _ = apply(state, seat, action)
        log.append(ActionRecord(seq, seq, seat, action.to_json()))
    return DealReplay(
        match_id="m",
        number=start.deal,
        seed=start.seed,
        dealer=start.dealer,
        start_state=start.to_json(),
        actions=log,
        scores=list(state.deal_scores) if state.deal_scores is not None else [None] * state.players,
        totals=list(state.totals),
        winner=state.winner,
        match_over=state.match_over,
        finished=datetime.now(UTC),
        seats=[SeatRecord(s, None, f"P{s}", None) for s in range(state.players)],
    )


def _piles(state: GameState) -> Counter[str]:
    """Every card of the match that is in no hand."""
    cards: Counter[str] = Counter()
    if isinstance(state, State):
        cards.update(state.draw_pile)
        cards.update(state.discard)
        cards.update(state.draft)
    elif isinstance(state, RommyState):
        cards.update(rommy_cards(state))
        for hand in state.hands:
            cards.subtract(hand)
    elif isinstance(state, BottleState):
        cards.update(bottle_cards(state))
    return +cards


def _deck(state: GameState) -> Counter[str]:
    if isinstance(state, State):
        return Counter(deck_for(state.rules))
    return _piles(state) + Counter(c for hand in hands_of(state) or () for c in hand)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(matches())
def test_frames_end_where_the_replay_route_ends_and_hold_every_card_once(
    match: tuple[GameState, random.Random],
) -> None:
    state, rng = match
    replay = _one_deal(state, rng)
    body = frames(replay, [replay.number])
    check = replay_check(replay)
    assert body["replay"] == check["replay"] == {"consistent": True, "error": None}
    assert len(body["frames"]) == len(replay.actions) + 1
    assert [f["index"] for f in body["frames"]] == list(range(len(body["frames"])))
    assert [f["seq"] for f in body["frames"][1:]] == [a.seq for a in replay.actions]

    final = state_from_json(check["finalState"])
    last = body["frames"][-1]["view"]
    assert last["totals"] == list(final.totals) == replay.totals
    assert last["hands"] == [list(h) for h in hands_of(final) or [[]] * final.players]
    assert last["top"] == final.top and last["phase"] == final.phase

    deck = _deck(state)
    states = [step.after for step in replay_log([{"start": replay.start_state}, *_entries(replay)])]
    for frame, after in zip(body["frames"], states, strict=True):
        assert after is not None
        held = Counter(c for hand in frame["view"]["hands"] for c in hand)
        assert held + _piles(after) == deck, frame["index"]
        assert len(frame["view"]["hands"]) == after.players


def _entries(replay: DealReplay) -> list[dict[str, Any]]:
    return [{"seat": a.seat, "action": a.action} for a in replay.actions]


async def test_frames_route_steps_through_a_recorded_match(
    client: httpx.AsyncClient, db: Database
) -> None:
    finals = await _play_and_record(db, "match-1", "seed-1")
    for final in finals:
        response = await client.get(f"/api/matches/match-1/deals/{final.deal}/frames")
        assert response.status_code == 200, response.text
        body = response.json()
        replay = (await client.get(f"/api/matches/match-1/deals/{final.deal}/replay")).json()
        assert body["matchId"] == "match-1" and body["deal"] == final.deal
        assert body["deals"] == [s.deal for s in finals]
        assert [p["name"] for p in body["players"]] == ["Anna", "Ben", "Cara"]
        assert len(body["frames"]) == len(replay["actions"]) + 1
        first, last = body["frames"][0], body["frames"][-1]
        assert first["action"] is None and first["seq"] is None and first["events"] == []
        assert [f["action"] for f in body["frames"][1:]] == [a["action"] for a in replay["actions"]]
        assert last["view"]["hands"] == [list(h) for h in final.hands]
        assert last["view"]["totals"] == replay["finalState"]["totals"] == list(final.totals)
        assert body["replay"] == {"consistent": True, "error": None}
        # Read again: the same body, from the node's cache.
        again = await client.get(f"/api/matches/match-1/deals/{final.deal}/frames")
        assert again.content == response.content


async def test_frames_wait_for_the_match_to_end(client: httpx.AsyncClient, db: Database) -> None:
    state, _ = new_match(rules_from_json({}), 2, "seed-y", dealer=0)
    await db.record_room("room-2", "Live", {}, 2, False)
    record = DealRecord(
        match_id="live",
        deal_number=1,
        start_state=state.to_json(),
        actions=[],
        scores=[0, 0],
        totals=[0, 0],
        winner=None,
        match_over=False,
        seats=SEATS[:2],
    )
    await db.record_deal("room-2", record)
    cases = [
        ("/api/matches/live/deals/1/frames", 409, "match_in_progress"),
        ("/api/matches/nope/deals/1/frames", 404, "match_not_found"),
        ("/api/matches/live/deals/0/frames", 422, "invalid_request"),
    ]
    for url, status, code in cases:
        response = await client.get(url)
        assert (response.status_code, response.json()["code"]) == (status, code), url


def test_the_frame_cache_drops_the_least_recently_read_beyond_its_limit() -> None:
    cache = FrameCache(limit=70)  # two bodies of 33 bytes, not three
    first = cache.put(("a", 1), {"frames": "x" * 20})
    cache.put(("b", 1), {"frames": "y" * 20})
    assert cache.get(("a", 1)) == first  # read: now the most recent
    cache.put(("c", 1), {"frames": "z" * 20})
    assert cache.get(("b", 1)) is None
    assert cache.get(("a", 1)) == first and cache.get(("c", 1)) is not None
    # A body larger than the whole cache is served, never kept.
    assert cache.put(("d", 1), {"frames": "w" * 100}) and cache.get(("d", 1)) is None
