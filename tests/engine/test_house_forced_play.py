"""House rules of drawing: forcedPlay, forcedPlayDrawn and blindDraw
(engine/forced_play.py, engine/blind_draw.py, docs/rules.md "House rules")."""

from __future__ import annotations

import pytest
from uno_helpers import cards, draw, events_of, outcomes, pass_, play, position, refused, run_setup

from engine import InvalidRules, apply, legal_actions, rules_from_json, view_for

FORCED = {"forcedPlay": True}
DRAWN = {"forcedPlayDrawn": True}
BLIND = {"blindDraw": True, "forcedPlayDrawn": True}


def kinds(state, seat):  # type: ignore[no-untyped-def]
    return [a.type for a in legal_actions(state, seat)]


def test_forced_play_refuses_a_draw_while_a_card_can_be_played() -> None:
    state = position(["R5 G1", "G2", "Y4"], "R7", draw="B1 B2", rules=FORCED)
    assert "draw" not in kinds(state, 0)
    err = refused(state, 0, draw(0))
    assert err.code == "must_play"


def test_forced_play_lets_a_player_without_a_playable_card_draw() -> None:
    result = run_setup(["G1 G2", "G3", "Y4"], "R7", draw="B1 B2", rules=FORCED, actions=[draw(0)])
    assert outcomes(result) == ["ok"]


def test_forced_play_still_lets_a_pending_penalty_be_taken() -> None:
    state = position(
        ["R+2 R1 R3", "G+2 G1 G3", "Y4"], "R7", draw="B1 B2 B3", rules={**FORCED, "stacking": True}
    )
    state, _ = apply(state, 0, play(0, "R+2"))
    assert {"play", "draw"} <= set(kinds(state, 1))
    state, _ = apply(state, 1, draw(1))
    assert state.hands[1] == ("G+2", "G1", "G3", "B1", "B2")


def test_forced_play_off_lets_a_player_draw_instead_of_playing() -> None:
    result = run_setup(["R5 G1", "G2", "Y4"], "R7", draw="B1 B2", actions=[draw(0)])
    assert outcomes(result) == ["ok"]


def test_forced_play_drawn_refuses_keeping_a_playable_drawn_card() -> None:
    state = position(["G1 G2", "G3", "Y4"], "R7", draw="R1 B2", rules=DRAWN)
    state, _ = apply(state, 0, draw(0))
    assert state.drawn == "R1"
    assert kinds(state, 0) == ["play"]
    assert refused(state, 0, pass_(0)).code == "must_play_drawn"
    state, _ = apply(state, 0, play(0, "R1"))
    assert state.turn == 1


def test_forced_play_drawn_an_unplayable_drawn_card_ends_the_turn_as_before() -> None:
    result = run_setup(["G1 G2", "G3", "Y4"], "R7", draw="B1 B2", rules=DRAWN, actions=[draw(0)])
    assert result["state"]["turn"] == 1


def test_forced_play_drawn_clashes_with_drawn_cards_not_playable() -> None:
    with pytest.raises(InvalidRules) as err:
        rules_from_json({"preset": "druk", "forcedPlayDrawn": True})
    assert err.value.code == "rules/clash"
    assert "forcedPlayDrawn" in err.value.message and "drawnCardPlayable" in err.value.message


def test_blind_draw_needs_forced_play_drawn() -> None:
    with pytest.raises(InvalidRules) as err:
        rules_from_json({"blindDraw": True})
    assert err.value.code == "rules/clash"
    assert "blindDraw" in err.value.message and "forcedPlayDrawn" in err.value.message


def test_blind_draw_plays_a_playable_drawn_card_in_the_same_change() -> None:
    result = run_setup(["G1 G2", "G3 G4", "Y4"], "R7", draw="R1 B2", rules=BLIND, actions=[draw(0)])
    assert outcomes(result) == ["ok"]
    types = [e["type"] for e in events_of(result, 0)]
    assert types == ["draw", "blindPlay", "play"]
    state = result["state"]
    assert state["top"] == "R1" and state["hands"][0] == cards("G1 G2")
    assert state["turn"] == 1


def test_blind_draw_keeps_an_unplayable_card_and_ends_the_turn() -> None:
    result = run_setup(["G1 G2", "G3", "Y4"], "R7", draw="B1 B2", rules=BLIND, actions=[draw(0)])
    state = result["state"]
    assert state["hands"][0] == cards("G1 G2 B1") and state["turn"] == 1


def test_blind_draw_of_a_wild_asks_the_drawer_for_its_colour_then_acts() -> None:
    state = position(["G1 G2", "G3 G4", "Y4 Y5"], "R7", draw="W+4 B2 B3 B4 B5 B6", rules=BLIND)
    state, _ = apply(state, 0, draw(0))
    assert (state.phase, state.turn, state.top) == ("chooseColor", 0, "W+4")
    assert kinds(state, 0) == ["chooseColor"] * 4
    state, _ = apply(state, 0, {"type": "chooseColor", "color": "G"})
    assert (state.phase, state.turn, state.color, state.pending) == ("playing", 1, "G", 4)


def test_blind_draw_views_show_nobody_a_drawn_card_before_it_is_played() -> None:
    state = position(["G1 G2", "G3 G4", "Y4"], "R7", draw="R1 B2", rules=BLIND)
    after, events = apply(state, 0, draw(0))
    assert after.drawn is None
    for seat in (None, 0, 1, 2):
        assert view_for(after, seat)["drawn"] is None
    assert "R1" not in view_for(after, 0)["hand"]


def test_blind_draw_plays_the_card_a_draw_to_match_brought() -> None:
    result = run_setup(
        ["G1 G2", "G3", "Y4"],
        "R7",
        draw="B1 B2 R3 B4",
        rules={**BLIND, "drawToMatch": True},
        actions=[draw(0)],
    )
    state = result["state"]
    assert state["top"] == "R3" and state["hands"][0] == cards("G1 G2 B1 B2")
