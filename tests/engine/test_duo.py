"""UNO Duo (preset ``duo``, docs/variants.md), one behaviour per test.

Two players only, the 112-card deck, the draft deal, Duo's first-card rules, the Draw Two
volley, Skip = play again, the Reverse colour dump, Wild Draw Four with another turn, the
4 / 6 challenge, and Duo scoring (10 / 15 / 20, to 200, lowest wins). Seat 0 is the dealer
("player 1", who drafts first); seat 1 is player 2 (left of the dealer, who starts).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from uno_helpers import (
    cards,
    challenge,
    choose_color,
    draw,
    events_of,
    outcomes,
    pass_,
    play,
    position,
    refused,
    run_setup,
)

from engine import (
    InvalidAction,
    apply,
    legal_actions,
    new_match,
    rules_from_json,
    view_for,
)
from engine.deal import deck_for
from engine.scenario import initial_state, run
from engine.scenario import main as scenario_main

DUO = {"preset": "duo"}


def duo(hands: list[str], discard: str, **kw: Any) -> dict[str, Any]:
    return run_setup(hands, discard, rules={**DUO, **kw.pop("rules", {})}, **kw)


def dump(seat: int, spec: str, color: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": seat, "type": "play", "cards": cards(spec)}
    if color is not None:
        out["color"] = color
    return out


# --- players and deck ----------------------------------------------------------------------


def test_duo_new_match_refuses_three_players() -> None:
    with pytest.raises(InvalidAction) as err:
        new_match(rules_from_json(DUO), 3, "three")
    assert err.value.code == "bad_players"


def test_duo_scenario_runner_exits_2_for_three_players(tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "three.json"
    path.write_text(json.dumps({"rules": DUO, "players": 3, "seed": "x"}))
    assert scenario_main([str(path)]) == 2
    assert "players" in capsys.readouterr().err


def test_duo_plays_with_exactly_two_players() -> None:
    state, _ = new_match(rules_from_json(DUO), 2, "two", dealer=0)
    assert state.players == 2


def test_duo_deck_is_classic112_with_wild_shuffle_hands_and_three_customizable() -> None:
    deck = Counter(deck_for(rules_from_json(DUO)))
    assert sum(deck.values()) == 112
    assert deck["WSH"] == 1
    assert deck["WC"] == 3
    assert deck["W"] == 4 and deck["W+4"] == 4
    assert deck["R0"] == 1 and deck["R5"] == 2


# --- the draft -----------------------------------------------------------------------------


def test_duo_deal_starts_with_the_dealer_drafting_and_sees_the_offer_alone() -> None:
    state, _ = new_match(rules_from_json(DUO), 2, "draft", dealer=0)
    assert state.phase == "draft"
    assert state.turn == 0
    assert all(len(h) == 0 for h in state.hands)
    assert view_for(state, 0)["offer"] == state.draw_pile[-1]
    assert view_for(state, 1)["offer"] is None
    assert view_for(state, None)["offer"] is None
    assert [a.type for a in legal_actions(state, 0)] == ["keep", "discard"]
    assert legal_actions(state, 1) == []


def test_duo_draft_keep_takes_the_card_and_sends_the_next_to_the_draft_pile() -> None:
    state, _ = new_match(rules_from_json(DUO), 2, "draft", dealer=0)
    top, second = state.draw_pile[-1], state.draw_pile[-2]
    new, _ = apply(state, 0, {"type": "keep"})
    assert new.hands[0] == (top,)
    assert new.draft == (second,)
    assert new.turn == 1
    assert view_for(new, 0)["draftPile"] == 1


def test_duo_draft_discard_sends_the_card_to_the_draft_pile_and_keeps_the_next() -> None:
    state, _ = new_match(rules_from_json(DUO), 2, "draft", dealer=0)
    top, second = state.draw_pile[-1], state.draw_pile[-2]
    new, _ = apply(state, 0, {"type": "discard"})
    assert new.hands[0] == (second,)
    assert new.draft == (top,)
    assert new.turn == 1


def test_duo_draft_in_a_scenario_reports_the_draft_pile() -> None:
    deck = _drafted("G8", P1, P2)
    result = run(
        {
            "rules": DUO,
            "players": 2,
            "dealer": 0,
            "deck": deck,
            "actions": [{"seat": 0, "type": "keep"}, {"seat": 1, "type": "discard"}],
        }
    )
    assert outcomes(result) == ["ok", "ok"]
    state = result["state"]
    assert state["phase"] == "draft"
    assert state["draftPile"] == 2
    # seat 1 discarded the offered card and had to keep the next one
    assert state["hands"] == [[deck[0]], [deck[3]]]
    assert state["turn"] == 0


def test_duo_wild_customizable_plays_as_a_wild() -> None:
    result = duo(["WC R1", "B2"], "G5", actions=[play(0, "WC"), play(0, "WC", "Y")])
    assert outcomes(result) == ["color_required", "ok"]
    assert result["state"]["color"] == "Y"
    assert result["state"]["turn"] == 1


def test_duo_draft_out_of_turn_is_refused() -> None:
    state, _ = new_match(rules_from_json(DUO), 2, "draft", dealer=0)
    assert refused(state, 1, {"type": "keep"}).code == "not_your_turn"
    assert refused(state, 0, play(0, "R1")).code == "wrong_phase"


def test_duo_draft_at_seven_each_puts_fourteen_cards_under_the_pile_and_turns_the_first() -> None:
    state, _ = new_match(rules_from_json(DUO), 2, "full", dealer=0)
    total = Counter(state.draw_pile)
    drafted: list[str] = []
    for step in range(14):
        choice = "keep" if step % 3 else "discard"
        pile = state.draw_pile
        drafted.append(pile[-2] if choice == "keep" else pile[-1])
        state, events = apply(state, state.turn, {"type": choice})
    assert [len(h) for h in state.hands] == [7, 7]
    assert state.draft == ()
    assert state.phase in ("playing", "chooseColor")
    assert any(e["type"] == "firstCard" for e in events)
    # The draft cards lie face down under the draw pile (index 0 is the bottom).
    assert Counter(state.draw_pile[:14]) == Counter(drafted)
    assert len(state.discard) >= 1
    held = Counter(state.draw_pile) + Counter(state.discard)
    for hand in state.hands:
        held += Counter(hand)
    assert held == total


def test_duo_first_drafter_alternates_with_the_dealer_each_deal() -> None:
    state = position(["R5", "G1 G2"], "R7", rules=DUO)
    state, _ = apply(state, 0, play(0, "R5"))
    assert state.phase == "dealOver"
    state, _ = apply(state, 1, {"type": "nextDeal"})
    assert state.phase == "draft"
    assert state.dealer == 1
    assert state.turn == 1
    assert view_for(state, 1)["offer"] is not None


# --- first-card rules (a stacked deck drafted with "keep" every time) -----------------------


def _drafted(first: str, hand1: str, hand2: str, draw_pile: str = "") -> list[str]:
    """A deck (top first) that seat 0 then seat 1 draft by keeping every offer: seat 0
    keeps ``hand1``, seat 1 ``hand2``; then ``first`` is turned up."""
    h1, h2 = cards(hand1), cards(hand2)
    filler = ["Y9"] * 14
    deck: list[str] = []
    for i in range(7):
        deck += [h1[i], filler[2 * i], h2[i], filler[2 * i + 1]]
    return deck + [first] + cards(draw_pile)


P1 = "R1 R2 R3 R4 R5 R6 R7"
P2 = "G1 G2 G3 G4 G5 G6 G7"


def _first(first: str, actions: list[dict[str, Any]] | None = None, p2: str = P2) -> dict[str, Any]:
    keeps = [{"seat": s % 2, "type": "keep"} for s in range(14)]
    return run(
        {
            "rules": DUO,
            "players": 2,
            "dealer": 0,
            "deck": _drafted(first, P1, p2, "B1 B2 B3 B4 B5 B6"),
            "actions": keeps + (actions or []),
        }
    )


def test_duo_a_number_first_card_player_two_starts() -> None:
    result = _first("G8")
    assert outcomes(result) == ["ok"] * 14
    state = result["state"]
    assert state["hands"] == [cards(P1), cards(P2)]
    assert state["top"] == "G8"
    assert state["turn"] == 1
    assert state["phase"] == "playing"


def test_duo_a_first_draw_two_player_two_draws_two_and_the_turn_ends() -> None:
    state = _first("G+2")["state"]
    assert len(state["hands"][1]) == 9
    assert state["turn"] == 0
    assert state["pendingDraw"] == 0


def test_duo_a_first_wild_draw_four_player_two_draws_four_player_one_names_the_colour() -> None:
    result = _first("W+4", [choose_color(1, "B"), choose_color(0, "B")])
    assert outcomes(result)[14:] == ["not_your_turn", "ok"]
    state = result["state"]
    assert len(state["hands"][1]) == 11
    assert state["color"] == "B"
    assert state["turn"] == 0


def test_duo_a_first_skip_player_one_starts() -> None:
    state = _first("GS")["state"]
    assert state["turn"] == 0


def test_duo_a_first_wild_player_one_names_the_colour_then_player_two_plays() -> None:
    result = _first("W", [choose_color(0, "Y")])
    assert outcomes(result)[14:] == ["ok"]
    state = result["state"]
    assert state["color"] == "Y"
    assert state["turn"] == 1


def test_duo_a_first_reverse_player_two_may_dump_that_colour() -> None:
    result = _first("GR", [dump(1, "G1 G2 G3 G4 G5 G6", None)], p2="G1 G2 G3 G4 G5 G6 B9")
    assert outcomes(result)[14:] == ["ok"]
    state = result["state"]
    assert state["hands"][1] == ["B9"]
    assert state["turn"] == 0


def test_duo_a_first_reverse_dump_is_all_or_nothing() -> None:
    result = _first("GR", [dump(1, "G1 G2 G3")], p2="G1 G2 G3 G4 G5 G6 B9")
    assert outcomes(result)[14:] == ["dump_all_or_nothing"]


def test_duo_after_a_first_reverse_player_two_may_dump_the_colour_of_their_own_reverse() -> None:
    result = _first("GR", [dump(1, "YR Y3 Y4")], p2="YR Y3 Y4 B1 B2 B3 B4")
    assert outcomes(result)[14:] == ["ok"]
    assert result["state"]["hands"][1] == cards("B1 B2 B3 B4")


def test_duo_a_first_reverse_shows_dump_color_in_the_view() -> None:
    state = initial_state(
        {
            "rules": DUO,
            "players": 2,
            "dealer": 0,
            "deck": _drafted("GR", P1, P2, "B1 B2"),
        }
    )
    for step in range(14):
        state, _ = apply(state, step % 2, {"type": "keep"})
    assert state.turn == 1
    assert view_for(state, 1)["dumpColor"] == "G"
    state, _ = apply(state, 1, play(1, "G1"))
    assert view_for(state, 0)["dumpColor"] is None


# --- play ---------------------------------------------------------------------------------


def test_duo_draw_two_volley_the_one_who_cannot_continue_draws_the_total() -> None:
    """Seed: player 1 plays a Draw Two, player 2 answers, player 1 again: 6; player 2 has
    no more and draws six, which ends the turn."""
    result = duo(
        ["G+2 B+2 R1", "Y+2 R2"],
        "G5",
        draw="Y1 Y3 Y4 Y5 Y6 Y7 Y8",
        actions=[play(0, "G+2"), play(1, "Y+2"), play(0, "B+2"), draw(1)],
    )
    assert outcomes(result) == ["ok"] * 4
    state = result["state"]
    assert state["hands"][1] == cards("R2 Y1 Y3 Y4 Y5 Y6 Y7")
    assert state["turn"] == 0
    assert state["pendingDraw"] == 0


def test_duo_wild_draw_fours_do_not_stack() -> None:
    result = duo(["W+4 Y1", "W+4 R2"], "R5", actions=[play(0, "W+4", "B"), play(1, "W+4", "G")])
    assert outcomes(result) == ["ok", "penalty_pending"]


def test_duo_skip_plays_again_at_once() -> None:
    result = duo(["GS R1", "Y2"], "G5", actions=[play(0, "GS")])
    assert result["state"]["turn"] == 0


def test_duo_no_obligation_to_play_a_drawn_playable_card() -> None:
    result = duo(["Y1 R1", "B2"], "G5", draw="G7 B9", actions=[draw(0), pass_(0)])
    assert outcomes(result) == ["ok", "ok"]
    assert result["state"]["hands"][0] == cards("Y1 R1 G7")
    assert result["state"]["turn"] == 1


def test_duo_may_draw_while_holding_a_playable_card() -> None:
    result = duo(["G1 R1", "B2"], "G5", draw="Y7", actions=[draw(0)])
    assert outcomes(result) == ["ok"]


def test_duo_a_lone_reverse_acts_as_a_skip_the_player_goes_again() -> None:
    """The Duo seed says nothing of a Reverse played alone; with two players the engine
    reads it as the official two-player Skip (the player goes again)."""
    result = duo(["GR G1 Y1", "B2"], "G5", actions=[play(0, "GR")])
    assert outcomes(result) == ["ok"]
    assert result["state"]["turn"] == 0


def test_duo_reverse_dump_plays_every_card_of_its_colour() -> None:
    result = duo(["GR G3 G9 Y1", "B2"], "G5", actions=[dump(0, "GR G3 G9")])
    assert outcomes(result) == ["ok"]
    state = result["state"]
    assert state["hands"][0] == ["Y1"]
    assert state["discard"][:4] == cards("G9 G3 GR G5")
    assert state["turn"] == 1


def test_duo_reverse_dump_is_all_or_nothing() -> None:
    result = duo(["GR G3 G9 Y1", "B2"], "G5", actions=[dump(0, "GR G3")])
    assert outcomes(result) == ["dump_all_or_nothing"]


def test_duo_reverse_dump_must_start_with_the_reverse() -> None:
    result = duo(["GR G3 G9 Y1", "B2"], "G5", actions=[dump(0, "G3 GR G9")])
    assert outcomes(result) == ["one_card_only"]


def test_duo_reverse_dump_a_final_draw_two_acts_on_the_opponent() -> None:
    result = duo(
        ["GR G3 G+2 Y1", "B2"], "G5", draw="R1 R2 R3", actions=[dump(0, "GR G3 G+2"), draw(1)]
    )
    assert outcomes(result) == ["ok", "ok"]
    state = result["state"]
    assert state["hands"][1] == cards("B2 R1 R2")
    assert state["turn"] == 0


def test_duo_reverse_dump_a_final_skip_skips_the_opponent() -> None:
    result = duo(["GR G3 GS Y1", "B2"], "G5", actions=[dump(0, "GR G3 GS")])
    assert outcomes(result) == ["ok"]
    assert result["state"]["turn"] == 0


@pytest.mark.parametrize("spec", ["GR GR", "GR G3 GR"])
def test_duo_reverse_dump_a_final_reverse_acts_once_on_the_opponent(spec: str) -> None:
    """docs/variants.md: "a final action card acts on the opponent" - once, as a lone
    Reverse does (the opponent is skipped, the player goes again)."""
    result = duo([f"{spec} Y1", "B2"], "G5", actions=[dump(0, spec)])
    assert outcomes(result) == ["ok"]
    assert [e["seat"] for e in events_of(result, 0) if e["type"] == "skip"] == [1]
    assert result["state"]["turn"] == 0


def test_duo_reverse_dump_may_go_out_with_uno() -> None:
    result = duo(["GR G3 G9", "B2"], "G5", actions=[{**dump(0, "GR G3 G9"), "uno": True}])
    assert outcomes(result) == ["ok"]
    assert result["state"]["phase"] == "dealOver"
    assert result["state"]["winner"] == 0


def test_duo_legal_actions_offer_the_reverse_dump() -> None:
    state = position(["GR G3 G9 Y1", "B2"], "G5", rules=DUO)
    listed = {a.cards for a in legal_actions(state, 0) if a.type == "play"}
    assert ("GR", "G3", "G9") in listed
    assert ("GR",) in listed


def test_reverse_dumps_color_off_refuses_the_dump() -> None:
    result = duo(
        ["GR G3 G9 Y1", "B2"],
        "G5",
        rules={"reverseDumpsColor": False},
        actions=[dump(0, "GR G3 G9")],
    )
    assert outcomes(result) == ["one_card_only"]


def test_duo_wild_draw_four_opponent_draws_four_and_the_player_goes_again() -> None:
    result = duo(
        ["W+4 Y1 B2", "R2"],
        "R5",
        draw="G1 G2 G3 G4 G6",
        actions=[play(0, "W+4", "B"), draw(1)],
    )
    assert outcomes(result) == ["ok", "ok"]
    state = result["state"]
    assert state["hands"][1] == cards("R2 G1 G2 G3 G4")
    assert state["color"] == "B"
    assert state["turn"] == 0


def test_wild_draw_four_plays_again_off_the_turn_passes_after_the_penalty() -> None:
    result = duo(
        ["W+4 Y1 B2", "R2"],
        "R5",
        rules={"wildDrawFourPlaysAgain": False},
        draw="G1 G2 G3 G4 G6",
        actions=[play(0, "W+4", "B"), draw(1)],
    )
    assert result["state"]["turn"] == 0  # two players: the turn comes straight back
    three = run_setup(
        ["W+4 Y1 B2", "R2", "Y7"],
        "R5",
        rules={"wildDrawFourPlaysAgain": True},
        draw="G1 G2 G3 G4 G6",
        actions=[play(0, "W+4", "B"), draw(1)],
    )
    assert three["state"]["turn"] == 0
    plain = run_setup(
        ["W+4 Y1 B2", "R2", "Y7"],
        "R5",
        draw="G1 G2 G3 G4 G6",
        actions=[play(0, "W+4", "B"), draw(1)],
    )
    assert plain["state"]["turn"] == 2


def test_duo_challenge_guilty_the_offender_draws_four() -> None:
    """Guilty: the offender held a playable card (noPlayableCard) - here a number match."""
    result = duo(
        ["W+4 Y5 B2", "R2 G1"],
        "R5",
        draw="G2 G3 G4 G6 G7 G8",
        actions=[play(0, "W+4", "B"), challenge(1)],
    )
    assert outcomes(result) == ["ok", "ok"]
    assert events_of(result, 1)[0]["guilty"] is True
    state = result["state"]
    assert state["hands"][0] == cards("Y5 B2 G2 G3 G4 G6")
    assert state["hands"][1] == cards("R2 G1")
    assert state["turn"] == 1


def test_duo_challenge_innocent_the_challenger_draws_six_and_the_player_goes_again() -> None:
    result = duo(
        ["W+4 Y1 B2", "R2 G1"],
        "R5",
        draw="G2 G3 G4 G6 G7 G8 G9",
        actions=[play(0, "W+4", "B"), challenge(1)],
    )
    assert outcomes(result) == ["ok", "ok"]
    assert events_of(result, 1)[0]["guilty"] is False
    state = result["state"]
    assert state["hands"][1] == cards("R2 G1 G2 G3 G4 G6 G7 G8")
    assert state["turn"] == 0


def test_duo_preset_judges_the_challenge_by_no_playable_card() -> None:
    assert rules_from_json(DUO).wild_draw_four_restriction == "noPlayableCard"


def test_duo_wild_shuffle_hands_gathers_and_deals_all_hands() -> None:
    result = duo(["WSH R1 R2 R3", "G1 G2 G3"], "Y5", actions=[play(0, "WSH", "B")])
    assert outcomes(result) == ["ok"]
    state = result["state"]
    hands = state["hands"]
    assert Counter(hands[0] + hands[1]) == Counter(cards("R1 R2 R3 G1 G2 G3"))
    assert (len(hands[0]), len(hands[1])) == (3, 3)
    assert state["color"] == "B"
    assert state["turn"] == 1


# --- scoring -------------------------------------------------------------------------------


def test_duo_scoring_the_loser_scores_their_hand_the_winner_zero() -> None:
    """Numbers face value; Draw Two, Reverse, Skip 10; Wild 15 (Shuffle Hands and
    Customizable as a Wild); Wild Draw Four 20."""
    result = duo(["R5", "R7 G+2 BR YS W W+4 WSH WC"], "R8", actions=[play(0, "R5")])
    state = result["state"]
    assert state["phase"] == "dealOver"
    assert state["dealScores"] == [0, 7 + 10 + 10 + 10 + 15 + 20 + 15 + 15]
    assert state["totals"] == state["dealScores"]


def test_duo_match_ends_at_200_and_the_lowest_total_wins() -> None:
    result = duo(["R5", "G9 G2"], "R8", totals=[180, 190], actions=[play(0, "R5")])
    state = result["state"]
    assert state["totals"] == [180, 201]
    assert state["matchOver"] is True
    assert state["winner"] == 0


def test_duo_reaching_200_does_not_win_the_player_who_went_out_may_be_higher() -> None:
    result = duo(["G9 G8 G7", "R5"], "R8", turn=1, totals=[195, 100], actions=[play(1, "R5")])
    state = result["state"]
    assert state["totals"] == [195 + 24, 100]
    assert state["matchOver"] is True
    assert state["winner"] == 1


def test_duo_match_goes_on_below_200() -> None:
    result = duo(["R5", "G9"], "R8", totals=[100, 100], actions=[play(0, "R5")])
    assert result["state"]["phase"] == "dealOver"
    assert result["state"]["matchOver"] is False
