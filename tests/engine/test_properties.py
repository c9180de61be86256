"""Invariants that must hold in every game, whatever the options: random legal playouts."""

from __future__ import annotations

import random
import re
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    EngineError,
    InvalidRules,
    State,
    apply,
    legal_actions,
    parse_action,
    rules_from_json,
    view_for,
)
from engine.cards import build_deck
from engine.deal import deck_for
from engine.misplay import penalty_for
from engine.rules import OPTIONS, Rules
from engine.scoring import hand_value

PLAYOUT_STEPS = 400

option_values = {
    "stacking": st.booleans(),
    "jumpIn": st.booleans(),
    "jumpInContinuesFrom": st.sampled_from(["jumper", "turnHolder"]),
    "sevenZero": st.booleans(),
    "zeroPassDirection": st.sampled_from(["withPlay", "againstPlay"]),
    "drawToMatch": st.booleans(),
    "drawToMatchCap": st.sampled_from([0, 1, 3, 10]),
    "unoPenalty": st.integers(0, 10),
    "wildDrawFourChallenge": st.booleans(),
    "wildDrawFourRestriction": st.sampled_from(["noMatchingColor", "noPlayableCard", "none"]),
    "firstCardWild": st.sampled_from(["firstPlayerChooses", "reshuffle"]),
    "firstCardWildDrawFour": st.sampled_from(["reshuffle", "bury"]),
    "forbidActionFinish": st.booleans(),
    "scoringMode": st.sampled_from(["winnerCollects", "ownHandCounts"]),
    "numberCards": st.sampled_from(["faceValue", "flatTen"]),
    "matchMode": st.sampled_from(["points", "oneAndDone", "knockout"]),
    "targetScore": st.sampled_from([100, 150, 500]),
    "multiPlay": st.booleans(),
    "stackWildDrawFour": st.booleans(),
    "drawFourFollowColor": st.booleans(),
    "firstCardPlayedByDealer": st.booleans(),
    "wildDrawEight": st.integers(0, 4),
    "everybodyDrawsTwo": st.integers(0, 4),
    "zeroPass": st.booleans(),
    "sevenSwap": st.booleans(),
    "swapOnLastCard": st.booleans(),
    "penaltyDrawToMatch": st.booleans(),
    "drinks": st.booleans(),
    "dealMethod": st.sampled_from(["deal", "draft"]),
    "firstCardRules": st.sampled_from(["classic", "duo"]),
    "reverseDumpsColor": st.booleans(),
    "wildDrawFourPlaysAgain": st.booleans(),
    # House rules
    "stackDrawFour": st.booleans(),
    "crossStack": st.sampled_from(["none", "drawTwoOnDrawFour", "drawFourOnDrawTwo", "both"]),
    "reverseDeflect": st.booleans(),
    "skipDeflect": st.booleans(),
    "forcedPlay": st.booleans(),
    "forcedPlayDrawn": st.booleans(),
    "blindDraw": st.booleans(),
    "drawnCardPlayable": st.booleans(),
    "strictUno": st.booleans(),
    "misplayPenalty": st.booleans(),
    "noWildFinish": st.booleans(),
    "bomb": st.booleans(),
    "handReveal": st.sampled_from([0, 5, 8, 12]),
    "doubleScore": st.booleans(),
    "handLimit": st.sampled_from([0, 8, 10]),
    "handLimitRule": st.sampled_from(["out", "stopDrawing"]),
    "teams": st.sampled_from([0, 2, 3]),
    "placings": st.booleans(),
    "blitzSeconds": st.sampled_from([0, 60, 600]),
}
SHEDDING_PRESETS = [
    "classic",
    "house",
    "party",
    "crazy",
    "druk",
    "helsinki",
    "warszawa",
    "duo",
    "flip",
    "knockout",
]
assert set(option_values) <= {o.name for o in OPTIONS}


@st.composite
def games(draw: st.DrawFn, extra: dict | None = None) -> tuple[State, random.Random]:
    """A new match of random rules (``extra`` on top, kept unless a preset clashes)."""
    from engine import new_match

    preset = draw(st.sampled_from(SHEDDING_PRESETS))
    players = 2 if preset == "duo" else draw(st.integers(2, 10))
    if draw(st.booleans()):
        # A preset as it is, or with random options on top of it.
        options = {}
    else:
        names = draw(st.sets(st.sampled_from(sorted(option_values))))
        options = {name: draw(option_values[name]) for name in names}
        options["decks"] = draw(st.integers(1, 2))
    options.update(extra or {})
    seed = draw(st.text(min_size=1, max_size=8))
    rules = without_clashes(preset, options, keep=set(extra or ()))
    if rules.teams and players % rules.teams:
        players = 2 * rules.teams if preset != "duo" else players
    if rules.teams and (players % rules.teams or players < 2 * rules.teams):
        rules = without_clashes(preset, {k: v for k, v in options.items() if k != "teams"})
    state, _ = new_match(rules, players, seed)
    return state, random.Random(draw(st.integers(0, 2**32)))


def without_clashes(preset: str, options: dict, keep: set[str] = frozenset()) -> Rules:  # type: ignore[assignment]
    """The rules of ``preset`` with ``options``, less each option a clash names (options
    that contradict each other are refused, naming them), those in ``keep`` last."""
    options = dict(options)
    while True:
        try:
            return rules_from_json({"preset": preset, **options})
        except InvalidRules as err:
            assert err.code == "rules/clash", err.message
            named = [n for n in sorted(options) if re.search(rf"\b{n}\b", err.message)]
            assert named, err.message  # a clash of the preset's own options
            del options[sorted(named, key=lambda n: n in keep)[0]]


def all_cards(state: State) -> Counter[str]:
    cards: Counter[str] = Counter(state.draw_pile)
    cards.update(state.discard)
    cards.update(state.draft)
    for hand in state.hands:
        cards.update(hand)
    return cards


def assert_invariants(state: State) -> None:
    rules = state.rules
    assert all_cards(state) == Counter(deck_for(rules))
    assert 0 <= state.turn < state.players
    if state.phase in ("playing", "chooseColor"):
        assert not state.out[state.turn]
        assert state.color is not None or state.phase == "chooseColor"
    if state.phase in ("playing", "chooseColor", "draft"):
        # Only the turn holder may take a turn action, and it always has one.
        turn_kinds = {"draw", "pass", "chooseColor", "challenge", "keep", "discard"}
        others = {
            s
            for s in range(state.players)
            if s != state.turn
            for a in legal_actions(state, s)
            if a.type in turn_kinds
        }
        assert others == set()
        moves = [
            a for a in legal_actions(state, state.turn) if a.type not in ("callUno", "catchUno")
        ]
        assert moves


def step(state: State, rng: random.Random) -> State:
    """One random legal action by a random seat that has one."""
    return step_with_events(state, rng)[0]


# blitzSeconds: how often a playout's decider runs out of match time (the room's word,
# ``clockOut``, which no seat chooses and legal_actions does not list).
CLOCK_OUT_CHANCE = 0.004


def step_with_events(state: State, rng: random.Random) -> tuple[State, list[dict]]:
    if (
        state.rules.blitz_seconds
        and state.phase in ("playing", "chooseColor", "draft")
        and rng.random() < CLOCK_OUT_CHANCE
    ):
        return apply(state, state.turn, {"type": "clockOut"})
    choices = [(s, a) for s in range(state.players) for a in legal_actions(state, s)]
    seat, action = rng.choice(choices)
    return apply(state, seat, action)


common = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@common
@given(games())
def test_random_playouts_conserve_cards_and_keep_one_turn_holder(game: tuple) -> None:
    state, rng = game
    for _ in range(PLAYOUT_STEPS):
        assert_invariants(state)
        if state.phase == "matchOver":
            break
        state = step(state, rng)


@common
@given(games())
def test_every_listed_legal_action_is_accepted(game: tuple) -> None:
    state, rng = game
    for _ in range(PLAYOUT_STEPS // 4):
        if state.phase == "matchOver":
            break
        for seat in range(state.players):
            for action in legal_actions(state, seat):
                apply(state, seat, action)  # must not raise
        state = step(state, rng)


def _probe_actions(state: State, rng: random.Random) -> list[dict]:
    cards = sorted(set(build_deck(state.rules.deck, state.rules.decks)))
    kinds = ["draw", "pass", "callUno", "challenge", "nextDeal", "keep", "discard", "meld"]
    probes: list[dict] = [{"type": k} for k in kinds]
    probes += [
        {"type": "play", "cards": [rng.choice(cards)], "color": rng.choice([None, "R", "G"])}
        for _ in range(6)
    ]
    probes += [{"type": "catchUno", "target": rng.randrange(state.players)}]
    probes += [{"type": "chooseColor", "color": "B"}, {"type": "bogus"}, {"type": "play"}]
    hand = state.hands[rng.randrange(state.players)]
    if len(hand) >= 2:
        probes.append({"type": "play", "cards": rng.sample(list(hand), 2), "uno": True})
    return probes


@common
@given(games())
def test_refused_actions_change_nothing(game: tuple) -> None:
    state, rng = game
    for _ in range(PLAYOUT_STEPS // 8):
        if state.phase == "matchOver":
            break
        snapshot = State.from_json(state.to_json())
        for probe in _probe_actions(state, rng):
            seat = rng.randrange(state.players)
            try:
                apply(state, seat, probe)
            except EngineError as err:
                assert err.code and err.message
                assert state == snapshot
        state = step(state, rng)


@common
@given(games())
def test_misplay_penalties_keep_every_invariant(game: tuple) -> None:
    """Refused plays under misplayPenalty: the penalty is its own change, and afterwards
    every card is still in one place and the turn where it was."""
    state, rng = game
    rules = {**state.rules.to_json(), "misplayPenalty": True}
    state = State.from_json({**state.to_json(), "rules": rules})
    for _ in range(PLAYOUT_STEPS // 8):
        if state.phase == "matchOver":
            break
        for probe in _probe_actions(state, rng):
            seat = rng.randrange(state.players)
            try:
                apply(state, seat, probe)
            except EngineError as err:
                try:
                    parsed = parse_action(probe)
                except EngineError:
                    continue  # a malformed action costs nothing
                penalty = penalty_for(state, parsed, err.code)
                if penalty is not None:
                    after, _ = apply(state, seat, penalty)
                    assert_invariants(after)
                    if after.out != state.out or after.phase != state.phase:
                        # handLimit: the card took the seat out of the deal (and maybe
                        # ended it, with one player left).
                        assert state.rules.hand_limit_rule == "out" and state.rules.hand_limit
                        state = after
                        continue
                    assert (after.turn, after.phase, after.moves) == (
                        state.turn,
                        state.phase,
                        state.moves,
                    )
                    assert len(after.hands[seat]) <= len(state.hands[seat]) + 1
                    state = after
        if state.phase == "matchOver":
            break  # a penalty card ended the match (handLimit: one player left)
        state = step(state, rng)


@common
@given(games())
def test_deal_scores_equal_the_card_values_left_in_hands(game: tuple) -> None:
    check_deal_scores(*game)


NEW_RULES = {"placings": True, "blitzSeconds": 60}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(extra=NEW_RULES))
def test_placings_and_blitz_playouts_keep_every_invariant(game: tuple) -> None:
    state, rng = game
    for _ in range(PLAYOUT_STEPS // 2):
        assert_invariants(state)
        if state.phase == "matchOver":
            break
        for seat in range(state.players):
            # A seat out of the deal (placings) may do nothing; every listed action goes.
            if state.out[seat]:
                assert legal_actions(state, seat) == []
            for action in legal_actions(state, seat):
                apply(state, seat, action)
        state = step(state, rng)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(extra=NEW_RULES))
def test_placings_and_blitz_deal_scores_are_consistent(game: tuple) -> None:
    check_deal_scores(*game)


def check_deal_scores(state: State, rng: random.Random) -> None:
    over: list[dict] = []
    # placings: each step's first ``placed`` event is a going out, scored on the hands
    # still in the deal (engine.placings); the places after it in the same step close it.
    moments = [0] * state.players
    placed: list[int] = []
    for _ in range(PLAYOUT_STEPS * 3):
        before_totals = state.totals
        state, events = step_with_events(state, rng)
        places = [e for e in events if e["type"] == "placed"]
        if places:
            goer = places[0]["seat"]
            assert not state.hands[goer] or any(e["type"] == "clockOut" for e in events)
            for other in range(state.players):
                if other != goer and other not in placed:
                    held = hand_value(state.hands[other], state.rules, state.side)
                    moments[other if state.rules.lowest_wins else goer] += held
            placed += [e["seat"] for e in places]
            assert [e["place"] for e in places] == list(
                range(len(placed) - len(places) + 1, len(placed) + 1)
            )
        over = [e for e in events if e["type"] == "dealOver"]
        if over:
            break
    if not over:
        return
    winner = over[0]["winner"]
    rules = state.rules
    if rules.placings:
        # Every seat has its place, the first out won, and the deal scored each going out.
        assert sorted(placed) == list(range(state.players)) and winner == placed[0]
        assert [p["place"] for p in view_for(state, None)["players"]] == [
            placed.index(s) + 1 for s in range(state.players)
        ]
        factor = 2 if rules.double_score else 1
        assert list(state.deal_scores or ()) == [factor * m for m in moments]
        assert [b + d for b, d in zip(before_totals, state.deal_scores or (), strict=True)] == list(
            state.totals
        )
        return
    # Out by emptying the hand; under handLimit "out" the last seat left wins with its
    # hand as it is, and that hand counts for nobody; so does the hand of the seat counted
    # out when a match clock ran out (blitzSeconds).
    clocked = any(e["type"] == "clockOut" for e in events)
    last_left = bool([e for e in events if e["type"] == "handLimit"]) or clocked
    if not last_left:
        assert state.hands[winner] == ()
    values = [
        0 if state.out[s] and s not in over_seats(events) else hand_value(h, rules, state.side)
        for s, h in enumerate(state.hands)
    ]
    if last_left:
        values[winner] = 0
    scores = list(state.deal_scores or ())
    if rules.double_score:
        values = [2 * v for v in values]
    if rules.teams:
        # The winner's partners' hands count nothing (engine.teams).
        count = state.players // rules.teams
        values = [0 if s % count == winner % count else v for s, v in enumerate(values)]
    if rules.scoring_mode == "winnerCollects":
        assert scores[winner] == sum(values)
        assert all(v == 0 for s, v in enumerate(scores) if s != winner)
    else:
        assert scores == values
    assert [b + d for b, d in zip(before_totals, scores, strict=True)] == list(state.totals)


def over_seats(events: list[dict]) -> list[int]:
    """Seats knocked out by this very deal still had their hands scored."""
    return [s for e in events if e["type"] == "knockedOut" for s in e["seats"]]


@common
@given(games())
def test_views_never_show_another_seats_cards(game: tuple) -> None:
    state, rng = game
    for _ in range(PLAYOUT_STEPS // 4):
        if state.phase == "matchOver":
            break
        for seat in [None, *range(state.players)]:
            view = view_for(state, seat)
            assert view["hand"] == (list(state.hands[seat]) if seat is not None else [])
            if state.phase in ("playing", "chooseColor"):
                assert view["reveal"] is None
                assert "hands" not in view
            # handReveal shows exactly the hands of its size, to everyone; else nothing.
            size = state.rules.hand_reveal
            shown = view["shownHands"]
            if not size:
                assert shown is None
            else:
                assert shown == [list(h) if len(h) >= size else None for h in state.hands]
        state = step(state, rng)


@common
@given(games())
def test_state_json_round_trip_is_exact(game: tuple) -> None:
    state, rng = game
    for _ in range(20):
        assert State.from_json(state.to_json()) == state
        if state.phase == "matchOver":
            break
        state = step(state, rng)


def completed(entry: dict, rng: random.Random) -> dict:
    """A wire ``legal`` entry made into an action the way a client does: adding what it
    ``needs`` from the choices it lists, and nothing else."""
    action = {k: v for k, v in entry.items() if k not in ("needs", "colors", "targets")}
    for need in entry.get("needs", ()):
        action[need] = rng.choice(entry[{"color": "colors", "target": "targets"}[need]])
    return action


@common
@given(games())
def test_a_client_that_only_reads_the_views_legal_is_never_refused(game: tuple) -> None:
    state, rng = game
    for _ in range(PLAYOUT_STEPS // 4):
        if state.phase == "matchOver":
            break
        moves = []
        for seat in range(state.players):
            for entry in view_for(state, seat)["legal"]:
                assert set(entry.get("needs", ())) <= {"color", "target"}, entry
                action = completed(entry, rng)
                apply(state, seat, action)  # must not raise
                moves.append((seat, action))
        seat, action = rng.choice(moves)
        state = apply(state, seat, action)[0]
