"""What each seat may see (docs/engine-api.md): views and the viewer's copy of events."""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any, get_type_hints

import pytest
from typed_shapes import mismatch
from uno_helpers import cards, challenge, draw, play, position

from engine import (
    PRESETS,
    SeatPart,
    State,
    Table,
    apply,
    event_for,
    legal_actions,
    new_match,
    rules_from_json,
    view_for,
    view_parts,
)

HANDS = ["R1 R2 W", "G2 G3 G4", "Y4 Y5 Y6 Y7"]


def _hidden_from(state: State, seat: int | None) -> set[str]:
    """Cards the viewer must not be shown: others' hands and the draw pile, except any
    copy the viewer holds itself or sees on the discard pile's top."""
    own = set(state.hands[seat]) if seat is not None else set()
    hidden = set(state.draw_pile)
    for s, hand in enumerate(state.hands):
        if s != seat:
            hidden |= set(hand)
    return hidden - own - {state.discard[-1]}


def _assert_no_leak(view: dict[str, Any], hidden: set[str]) -> None:
    dump = json.dumps(view)
    leaked = sorted(card for card in hidden if json.dumps(card) in dump)
    assert not leaked, f"view shows hidden cards {leaked}"


def test_view_shows_own_hand_and_only_counts_of_the_others() -> None:
    state = position(HANDS, "R9", draw="B1 B2")
    view = view_for(state, 1)
    assert view["you"] == 1
    assert view["hand"] == cards("G2 G3 G4")
    assert view["players"] == [
        {"seat": 0, "cards": 3, "score": 0, "out": False, "place": None},
        {"seat": 1, "cards": 3, "score": 0, "out": False, "place": None},
        {"seat": 2, "cards": 4, "score": 0, "out": False, "place": None},
    ]
    assert (view["top"], view["color"], view["drawPile"], view["turn"]) == ("R9", "R", 2, 0)
    assert view["reveal"] is None
    _assert_no_leak(view, _hidden_from(state, 1))


def test_view_does_not_depend_on_what_the_other_seats_hold() -> None:
    state = position(HANDS, "R9", draw="B1 B2")
    other = position(["R1 R2 W", "B5 B6 B7", "G7 G8 G9 RS"], "R9", draw="Y8 W+4")
    assert view_for(state, 0) == view_for(other, 0)
    assert view_for(state, None) == view_for(other, None)


def test_spectator_sees_no_hand_and_no_legal_actions() -> None:
    state = position(HANDS, "R9", draw="B1 B2")
    view = view_for(state, None)
    assert (view["you"], view["hand"], view["legal"], view["drawn"]) == (None, [], [], None)
    assert view["reveal"] is None
    _assert_no_leak(view, _hidden_from(state, None))


def test_reveal_shows_every_hand_only_once_the_deal_is_over() -> None:
    state = position(["R1", "G2 G3", "Y4"], "R9")
    for seat in (0, 1, 2, None):
        assert view_for(state, seat)["reveal"] is None
    state, _ = apply(state, 0, play(0, "R1"))
    assert state.phase == "dealOver"
    for seat in (0, 1, 2, None):
        assert view_for(state, seat)["reveal"] == [[], ["G2", "G3"], ["Y4"]]


def test_reveal_at_match_over() -> None:
    state = position(["R1", "G2 G3", "Y4"], "R9", rules={"preset": "oneAndDone"})
    state, _ = apply(state, 0, play(0, "R1"))
    assert state.phase == "matchOver"
    assert view_for(state, None)["reveal"] == [[], ["G2", "G3"], ["Y4"]]


def test_drawn_card_is_shown_to_the_drawer_only() -> None:
    state = position(HANDS, "R9", draw="R5 B2")
    state, events = apply(state, 0, draw(0))
    assert view_for(state, 0)["drawn"] == "R5"
    assert view_for(state, 1)["drawn"] is None
    assert view_for(state, None)["drawn"] is None
    _assert_no_leak(view_for(state, 1), {"R5"})
    (drawn,) = [e for e in events if e["type"] == "draw"]
    assert event_for(drawn, 0)["cards"] == ["R5"]
    for viewer in (1, 2, None):
        seen = event_for(drawn, viewer)
        assert seen["count"] == 1 and seen["seat"] == 0
        assert "cards" not in seen and "R5" not in json.dumps(seen)


def test_penalty_draw_shows_the_cards_to_the_victim_only() -> None:
    state = position(["R+2 R1", "G2 G3", "Y4"], "R9", draw="B7 B8")
    _, events = apply(state, 0, play(0, "R+2"))
    (drew,) = [e for e in events if e["type"] == "draw"]
    assert event_for(drew, 1)["cards"] == ["B7", "B8"]
    for viewer in (0, 2, None):
        assert "B7" not in json.dumps(event_for(drew, viewer))


def test_challenge_hand_is_shown_to_the_challenger_only() -> None:
    state = position(["W+4 R3 G1", "G2 B5", "Y4"], "R7", draw="Y1 Y2 Y3 Y5")
    state, _ = apply(state, 0, play(0, "W+4", "B"))
    state, events = apply(state, 1, challenge(1))
    for event in events:
        for viewer in (0, 2, None):
            assert "R3" not in json.dumps(event_for(event, viewer))
    assert any(event_for(e, 1).get("hand") == ["R3", "G1"] for e in events)
    # Nor does the challenge leave the hand in anyone's view afterwards.
    _assert_no_leak(view_for(state, 1), _hidden_from(state, 1))


def test_view_legal_lists_a_wild_once_without_colour() -> None:
    state = position(HANDS, "R9")
    legal = view_for(state, 0)["legal"]
    wilds = [a for a in legal if a["type"] == "play" and a["cards"] == ["W"]]
    assert wilds == [{**wilds[0], "needs": ["color"], "colors": ["R", "G", "B", "Y"]}]
    assert "color" not in wilds[0]
    assert {"type": "play", "cards": ["R1"]} in legal
    assert {"type": "draw"} in legal
    assert view_for(state, 1)["legal"] == []


def test_view_during_choose_colour_lists_colours_for_the_chooser_only() -> None:
    state, _ = new_match(rules_from_json({}), 3, "x", dealer=0)
    data = state.to_json()
    data.update(phase="chooseColor", color=None, turn=1)
    data["discard"] = data["discard"] + ["W"]
    state = State.from_json(data)
    assert {a["color"] for a in view_for(state, 1)["legal"]} == {"R", "G", "B", "Y"}
    assert view_for(state, 2)["legal"] == []
    assert view_for(state, 1)["phase"] == "chooseColor"


def test_view_reports_uno_exposure_and_the_move_clock() -> None:
    state = position(["R1 R2", "G2 G3", "Y4"], "R9")
    state, _ = apply(state, 0, play(0, "R1"))
    view = view_for(state, 2)
    assert (view["unoExposed"], view["moves"]) == (0, 1)
    assert {"type": "catchUno", "target": 0} in view["legal"]


def test_view_says_which_seats_have_called_uno() -> None:
    start = position(["R1 R2 R3", "G1 G3", "G4 Y5", "B1 B2"], "R9", draw="B7 B8 B9")
    assert view_for(start, None)["unoCalled"] == []
    state, _ = apply(start, 0, play(0, "R1"))  # seat 1 has two cards and the turn
    state, _ = apply(state, 1, {"type": "callUno"})  # called ahead of its next-to-last card
    assert view_for(state, 3)["unoCalled"] == [1]
    missed, _ = apply(state, 1, draw(1))  # a draw uses the early call up
    assert view_for(missed, 3)["unoCalled"] == []
    state, _ = apply(state, 1, play(1, "G1"))  # down to one card, the call made
    assert view_for(state, 3)["unoCalled"] == [1]
    state, _ = apply(state, 2, play(2, "G4"))  # down to one card without the call: exposed
    view = view_for(state, None)
    assert (view["unoExposed"], view["unoCalled"]) == (2, [1])
    state, _ = apply(state, 2, {"type": "callUno"})  # its own late call
    assert view_for(state, 0)["unoCalled"] == [1, 2]


@pytest.mark.parametrize(
    "options",
    [{}, {"preset": "house"}, {"jumpIn": True, "unoPenalty": 0}, {"stacking": True}],
)
def test_random_playouts_never_show_hidden_cards(options: dict[str, Any]) -> None:
    rules = rules_from_json(options)
    for seed in range(3):
        rng = random.Random(seed)
        state, _ = new_match(rules, 4, f"views-{seed}", dealer=seed % 4)
        for _ in range(150):
            if state.phase not in ("playing", "chooseColor"):
                break
            for viewer in (0, 1, 2, 3, None):
                _assert_no_leak(view_for(state, viewer), _hidden_from(state, viewer))
            choices = [(s, a) for s in range(4) for a in legal_actions(state, s)]
            seat, action = rng.choice(choices)
            state, events = apply(state, seat, action)
            for event in events:
                for viewer in (0, 1, 2, 3, None):
                    if viewer == event.get("to"):
                        continue
                    seen = json.dumps(event_for(event, viewer))
                    assert "private" not in seen
                    if event["type"] == "draw":
                        assert "cards" not in event_for(event, viewer)


def test_views_commit_to_the_seed_and_reveal_it_only_when_the_match_is_over() -> None:
    state, _ = new_match(rules_from_json({"preset": "oneAndDone"}), 2, "s3cr3t", dealer=0)
    digest = hashlib.sha256(b"s3cr3t").hexdigest()
    assert view_for(state, 0)["seedCommitment"] == digest
    assert view_for(state, 0)["seed"] is None
    for _ in range(10_000):
        if state.match_over:
            break
        state, _ = apply(state, state.turn, legal_actions(state, state.turn)[0])
    assert view_for(state, 1)["seed"] == "s3cr3t"
    assert view_for(state, 1)["seedCommitment"] == digest


def test_view_legal_says_a_seven_swap_needs_a_target_even_as_the_last_card() -> None:
    from engine.scenario import initial_state

    setup = {
        "hands": [["R7"], ["G2"], ["B3"]],
        "discard": ["R5"],
        "color": "R",
        "drawPile": ["Y1"],
        "turn": 0,
        "direction": 1,
    }
    state = initial_state({"rules": {"preset": "warszawa"}, "players": 3, "setup": setup})
    legal = view_for(state, 0)["legal"]
    assert {"type": "play", "cards": ["R7"], "needs": ["target"], "targets": [1, 2]} in legal


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_table_part_and_a_seats_part_make_its_view(preset: str) -> None:
    # The room builds the table once per change and gives every audience that one copy.
    rules = rules_from_json({"preset": preset})
    players = 2 if preset == "duo" else 4
    state, _ = new_match(rules, players, f"seed-{preset}")
    rng = random.Random(preset)
    seats: list[int | None] = [*range(players), None]
    for _ in range(60):
        split = view_parts(state, seats)
        assert (split is not None) is (type(state) is State)  # UNO's own games split views
        if split is not None:
            table, parts = split
            views = [{**part, **table} for part in parts]
            assert views == [view_for(state, seat) for seat in seats]
            assert not table.keys() & parts[0].keys()
            # Exactly the keys declared, each value of its declared type.
            assert table.keys() == get_type_hints(Table).keys()
            assert parts[0].keys() == get_type_hints(SeatPart).keys()
            assert mismatch(table, Table) is None, mismatch(table, Table)
            for part in parts:
                assert mismatch(part, SeatPart) is None, mismatch(part, SeatPart)
        moves = [(s, a) for s in range(players) for a in legal_actions(state, s)]
        if not moves:
            break
        seat, action = rng.choice(moves)
        state, _ = apply(state, seat, action)
