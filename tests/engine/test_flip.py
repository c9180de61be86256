"""UNO Flip (preset ``flip``, docs/variants.md), one behaviour per test.

A card code is ``"LIGHT|DARK"``: its light face and its dark face. The light side has red,
green, blue, yellow, Draw One (``+1``), Reverse, Skip, Flip (``F``), Wild and Wild Draw
Two (``W+2``); the dark side pink, teal, orange, purple (``P T O V``), Draw Five (``+5``),
Reverse, Skip Everyone (``SE``), Flip, Wild and Wild Draw Colour (``WDC``).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from uno_helpers import (
    all_cards,
    cards,
    challenge,
    choose_color,
    draw,
    events_of,
    outcomes,
    play,
    state_cards,
)

from engine import apply, legal_actions, new_match, rules_from_json
from engine.cards import DARK_COLORS, FACES, FLIP112
from engine.deal import deck_for
from engine.scenario import initial_state, run

FLIP = {"preset": "flip"}


def flip_scenario(
    hands: list[str],
    discard: str,
    *,
    side: str = "light",
    draw_pile: str = "",
    rules: dict[str, Any] | None = None,
    actions: list[dict[str, Any]] | None = None,
    turn: int = 0,
    color: str | None = None,
) -> dict[str, Any]:
    setup: dict[str, Any] = {
        "hands": [cards(h) for h in hands],
        "discard": cards(discard),
        "drawPile": cards(draw_pile),
        "turn": turn,
        "side": side,
    }
    if color is not None:
        setup["color"] = color
    return {
        "rules": {**FLIP, **(rules or {})},
        "players": len(hands),
        "dealer": 0,
        "setup": setup,
        "actions": actions or [],
    }


def flip_run(hands: list[str], discard: str, **kw: Any) -> dict[str, Any]:
    return run(flip_scenario(hands, discard, **kw))


def faces(codes: list[str], side: int) -> list[str]:
    return [c.split("|")[side] for c in codes]


# --- the deck ------------------------------------------------------------------------------


def _side_counts(colors: str, ranks: list[str], wilds: list[str]) -> Counter[str]:
    want: Counter[str] = Counter()
    for color in colors:
        for rank in ranks:
            want[color + rank] = 2
    for wild in wilds:
        want[wild] = 4
    return want


def test_flip_deck_has_112_double_sided_cards_with_a_full_light_and_dark_side() -> None:
    assert len(FLIP112) == 112
    numbers = [str(n) for n in range(1, 10)]
    light = Counter(faces(list(FLIP112), 0))
    dark = Counter(faces(list(FLIP112), 1))
    assert light == _side_counts("RGBY", [*numbers, "+1", "R", "S", "F"], ["W", "W+2"])
    assert dark == _side_counts("PTOV", [*numbers, "+5", "R", "SE", "F"], ["W", "WDC"])
    assert not any(face.endswith("0") for face in light + dark)


def test_flip_preset_uses_the_flip_deck_and_no_extras() -> None:
    rules = rules_from_json({**FLIP, "wildDrawEight": 2})
    assert Counter(deck_for(rules)) == Counter(FLIP112)


def test_flip_play_starts_on_the_light_side_with_all_112_cards() -> None:
    for seed in ("a", "b", "c", "d", "e", "f"):
        state, _ = new_match(rules_from_json(FLIP), 4, seed, dealer=0)
        assert state.side == "light"
        assert state_cards(state) == Counter(FLIP112)
        top = FACES["light"][state.discard[-1]]
        assert top.rank not in ("F", "W+2")  # sent back like a first Wild Draw Four


# --- the Flip card -----------------------------------------------------------------------------

DISCARD = "R3|T4 G2|O5 B1|V7"
PILE = "Y1|P2 Y2|P3 Y3|P6"


def test_flip_card_turns_everything_over_and_the_bottom_discard_comes_on_top() -> None:
    result = flip_run(
        ["RF|PF R1|P1", "B5|T3 G9|V2", "Y5|O1"],
        DISCARD,
        draw_pile=PILE,
        actions=[play(0, "RF|PF")],
    )
    assert outcomes(result) == ["ok"]
    state = result["state"]
    assert state["side"] == "dark"
    assert state["discard"] == cards("B1|V7 G2|O5 R3|T4 RF|PF")
    assert state["top"] == "B1|V7"
    assert state["color"] == "V"
    assert state["drawPileCards"] == cards("Y3|P6 Y2|P3 Y1|P2")
    assert state["hands"][1] == cards("B5|T3 G9|V2")  # the same cards, now seen dark
    assert state["turn"] == 1
    flip_event = [e for e in events_of(result, 0) if e["type"] == "flip"]
    assert flip_event == [{"type": "flip", "seat": 0, "side": "dark", "top": "B1|V7"}]


def test_flip_piles_flip_in_place_keeps_the_order_the_flip_card_shows_its_dark_face() -> None:
    result = flip_run(
        ["RF|PF R1|P1", "B5|T3 G9|V2", "Y5|O1"],
        DISCARD,
        draw_pile=PILE,
        rules={"flipPiles": "flipInPlace"},
        actions=[play(0, "RF|PF")],
    )
    state = result["state"]
    assert state["side"] == "dark"
    assert state["discard"] == cards("RF|PF R3|T4 G2|O5 B1|V7")
    assert state["color"] == "P"
    assert state["drawPileCards"] == cards(PILE)


def test_flip_play_follows_the_now_visible_top_card() -> None:
    result = flip_run(
        ["RF|PF R1|P1", "B5|T3 G9|V2", "Y5|O1"],
        DISCARD,
        actions=[play(0, "RF|PF"), play(1, "B5|T3"), play(1, "G9|V2")],
    )
    # B5 would match the light blue 1, but its dark T3 matches neither V nor 7.
    assert outcomes(result) == ["ok", "card_not_playable", "ok"]
    assert result["state"]["color"] == "V"


def test_flip_a_second_flip_turns_back_to_the_light_side() -> None:
    result = flip_run(
        ["RF|PF R1|P1", "B5|VF G9|V2", "Y5|O1"],
        DISCARD,
        actions=[play(0, "RF|PF"), play(1, "B5|VF")],
    )
    assert outcomes(result) == ["ok", "ok"]
    state = result["state"]
    assert state["side"] == "light"
    # Turned over twice: the first Flip, at the bottom after the first turn, is on top.
    assert state["top"] == "RF|PF"
    assert state["color"] == "R"
    assert state["discard"][-1] == "B5|VF"


def test_flip_a_wild_on_top_after_the_flip_the_flipper_names_a_dark_colour() -> None:
    result = flip_run(
        ["RF|PF R1|P1", "B5|T3", "Y5|O1"],
        "R3|T4 R1|W",
        actions=[
            play(0, "RF|PF"),
            play(1, "B5|T3"),
            choose_color(0, "R"),
            choose_color(0, "T"),
        ],
    )
    assert outcomes(result) == ["ok", "wrong_phase", "color_required", "ok"]
    scenario = flip_scenario(["RF|PF R1|P1", "B5|T3", "Y5|O1"], "R3|T4 R1|W")
    state = initial_state(scenario)
    state, _ = apply(state, 0, play(0, "RF|PF"))
    assert state.phase == "chooseColor"
    assert state.turn == 0
    state, _ = apply(state, 0, choose_color(0, "T"))
    assert state.color == "T"
    assert state.turn == 1


def test_flip_cards_are_conserved_across_flips() -> None:
    hands = ["RF|PF R1|P1 G4|OF", "B5|VF G9|V2", "Y5|O1 Y6|TF"]
    scenario = flip_scenario(hands, DISCARD, draw_pile=PILE)
    state = initial_state(scenario)
    before = state_cards(state)
    for seat, card in ((0, "RF|PF"), (1, "B5|VF")):
        state, _ = apply(state, seat, play(seat, card))
        assert state_cards(state) == before
    assert state.side == "light"


# --- Draw One, Draw Five, Skip Everyone -----------------------------------------------------


def test_flip_draw_one_the_next_player_draws_one_and_loses_the_turn() -> None:
    result = flip_run(
        ["R+1|P1 R2|P2", "B5|T3", "Y5|O1"],
        "R3|T4",
        draw_pile="G1|V1 G2|V2",
        actions=[play(0, "R+1|P1")],
    )
    state = result["state"]
    assert state["hands"][1] == cards("B5|T3 G1|V1")
    assert state["turn"] == 2


def test_flip_draw_five_the_next_player_draws_five_and_loses_the_turn() -> None:
    result = flip_run(
        ["R1|P+5 R2|P2", "B5|T3", "Y5|O1"],
        "G3|P4",
        side="dark",
        draw_pile="G1|V1 G2|V2 G3|V3 G4|V4 G5|V5 G6|V6",
        actions=[play(0, "R1|P+5")],
    )
    state = result["state"]
    assert state["hands"][1] == cards("B5|T3 G1|V1 G2|V2 G3|V3 G4|V4 G5|V5")
    assert state["turn"] == 2


def test_flip_skip_everyone_the_player_goes_again() -> None:
    result = flip_run(
        ["R1|PSE R2|P2", "B5|T3", "Y5|O1", "Y6|O2"],
        "G3|P4",
        side="dark",
        actions=[play(0, "R1|PSE")],
    )
    assert outcomes(result) == ["ok"]
    assert result["state"]["turn"] == 0
    skipped = [e["seat"] for e in events_of(result, 0) if e["type"] == "skip"]
    assert skipped == [1, 2, 3]


def test_flip_light_skip_skips_one_player() -> None:
    result = flip_run(["RS|P1 R2|P2", "B5|T3", "Y5|O1"], "R3|T4", actions=[play(0, "RS|P1")])
    assert result["state"]["turn"] == 2


# --- Wild Draw Two and Wild Draw Colour ---------------------------------------------------------

NO_CHALLENGE = {"wildDrawFourChallenge": False}


@pytest.mark.parametrize(("hand", "expected"), [("B2|T2", "ok"), ("R2|T2", "restricted")])
def test_flip_wild_draw_two_with_the_challenge_off_only_without_the_current_colour(
    hand: str, expected: str
) -> None:
    result = flip_run(
        [f"W+2|P1 {hand}", "B5|T3", "Y5|O1"],
        "R3|T4",
        draw_pile="G1|V1 G2|V2 G3|V3",
        rules=NO_CHALLENGE,
        actions=[play(0, "W+2|P1", "G")],
    )
    if expected == "restricted":
        assert outcomes(result) == ["wild_draw_four_restricted"]
        return
    assert outcomes(result) == ["ok"]
    state = result["state"]
    assert state["hands"][1] == cards("B5|T3 G1|V1 G2|V2")
    assert state["turn"] == 2
    assert state["color"] == "G"


def test_flip_wild_draw_two_bluff_with_the_challenge_on_is_caught_by_a_challenge() -> None:
    result = flip_run(
        ["W+2|P1 R2|T2", "B5|T3", "Y5|O1"],
        "R3|T4",
        draw_pile="G1|V1 G2|V2 G3|V3",
        actions=[play(0, "W+2|P1", "G"), challenge(1)],
    )
    assert outcomes(result) == ["ok", "ok"]
    assert events_of(result, 1)[0]["guilty"] is True
    state = result["state"]
    assert state["hands"][0] == cards("R2|T2 G1|V1 G2|V2")
    assert state["turn"] == 1


def test_flip_wild_draw_colour_next_draws_until_the_named_colour_then_loses_the_turn() -> None:
    result = flip_run(
        ["W+2|WDC B1|T2", "B5|T3", "Y5|O1"],
        "G3|P4",
        side="dark",
        draw_pile="R1|P1 R2|T2 R3|O3 R4|V4",
        rules=NO_CHALLENGE,
        actions=[play(0, "W+2|WDC", "O")],
    )
    assert outcomes(result) == ["ok"]
    state = result["state"]
    assert state["hands"][1] == cards("B5|T3 R1|P1 R2|T2 R3|O3")
    assert state["color"] == "O"
    assert state["turn"] == 2


def test_flip_wild_draw_colour_with_the_challenge_on_waits_for_the_victim() -> None:
    result = flip_run(
        ["W+2|WDC B1|T2", "B5|T3", "Y5|O1"],
        "G3|P4",
        side="dark",
        draw_pile="R1|P1 R2|T2 R3|O3 R4|V4",
        actions=[play(0, "W+2|WDC", "O"), draw(1)],
    )
    assert outcomes(result) == ["ok", "ok"]
    state = result["state"]
    assert state["hands"][1] == cards("B5|T3 R1|P1 R2|T2 R3|O3")
    assert state["turn"] == 2


def test_flip_wild_draw_colour_bluff_caught_the_offender_draws_to_the_colour() -> None:
    """Guilty (held a card of the colour in force): the offender draws until the named
    colour comes instead, and the challenger takes a normal turn (engine's reading)."""
    result = flip_run(
        ["W+2|WDC B1|P2", "B5|T3", "Y5|O1"],
        "G3|P4",
        side="dark",
        draw_pile="R1|T1 R3|O3 R4|V4",
        actions=[play(0, "W+2|WDC", "O"), challenge(1)],
    )
    assert outcomes(result) == ["ok", "ok"]
    assert events_of(result, 1)[0]["guilty"] is True
    state = result["state"]
    assert state["hands"][0] == cards("B1|P2 R1|T1 R3|O3")
    assert state["hands"][1] == cards("B5|T3")
    assert state["turn"] == 1


def test_flip_wild_draw_colour_with_the_challenge_off_refused_holding_the_colour() -> None:
    result = flip_run(
        ["W+2|WDC B1|P2", "B5|T3", "Y5|O1"],
        "G3|P4",
        side="dark",
        rules=NO_CHALLENGE,
        actions=[play(0, "W+2|WDC", "O")],
    )
    assert outcomes(result) == ["wild_draw_four_restricted"]


def test_flip_wilds_on_the_dark_side_name_dark_colours_only() -> None:
    result = flip_run(
        ["R1|W B1|T2", "B5|T3", "Y5|O1"],
        "G3|P4",
        side="dark",
        actions=[play(0, "R1|W", "R"), play(0, "R1|W", "V")],
    )
    assert outcomes(result) == ["color_required", "ok"]
    assert result["state"]["color"] == "V"
    assert "V" in DARK_COLORS


def test_flip_wilds_on_the_light_side_name_light_colours_only() -> None:
    result = flip_run(
        ["W|P1 B1|T2", "B5|T3", "Y5|O1"],
        "R3|T4",
        actions=[play(0, "W|P1", "P"), play(0, "W|P1", "Y")],
    )
    assert outcomes(result) == ["color_required", "ok"]


# --- jumping in --------------------------------------------------------------------------------


def test_flip_jump_in_takes_a_copy_of_the_face_in_play_whatever_its_other_side() -> None:
    # Two cards may show the same face and differ on the other: holding either is holding
    # a copy of the top card. It is listed, as apply takes it.
    state = initial_state(
        flip_scenario(["YR|WDC R6|T4", "G7|T5 B7|T3"], "YR|TF", rules={"jumpIn": True}, turn=1)
    )
    jumps = [a for a in legal_actions(state, 0) if a.type == "play"]
    assert {a.cards for a in jumps} == {("YR|WDC",)}
    after, events = apply(state, 0, jumps[0])
    assert {"type": "jumpIn", "seat": 0} in events
    assert after.discard[-1] == "YR|WDC"


# --- scoring -----------------------------------------------------------------------------------


def test_flip_scoring_counts_the_light_faces_when_the_deal_ends_light() -> None:
    """Numbers face value; Draw One 10; Reverse, Skip, Flip 20; Wild 40; Wild Draw Two 50."""
    hand = "R5|PSE R+1|WDC RR|W RS|P+5 RF|P9 W|PF W+2|PR"
    result = flip_run(["G5|P1", hand, "B4|T1"], "G3|P4", actions=[play(0, "G5|P1")])
    state = result["state"]
    assert state["phase"] == "dealOver"
    assert state["dealScores"] == [5 + 10 + 20 + 20 + 20 + 40 + 50 + 4, 0, 0]


def test_flip_scoring_counts_the_dark_faces_when_the_deal_ends_dark() -> None:
    """Draw Five 20; Reverse, Flip 20; Skip Everyone 30; Wild 40; Wild Draw Colour 60."""
    hand = "R+1|P5 RR|P+5 RS|PR RF|PSE R5|PF R6|W R7|WDC"
    result = flip_run(["G5|P1", hand, "B4|T1"], "G3|P4", side="dark", actions=[play(0, "G5|P1")])
    state = result["state"]
    assert state["phase"] == "dealOver"
    assert state["dealScores"] == [5 + 20 + 20 + 30 + 20 + 40 + 60 + 1, 0, 0]


def test_flip_match_plays_to_500() -> None:
    assert rules_from_json(FLIP).target_score == 500


def test_flip_result_state_reports_the_side_and_all_cards() -> None:
    result = flip_run(["RF|PF R1|P1", "B5|T3"], DISCARD, draw_pile=PILE, actions=[play(0, "RF|PF")])
    state = result["state"]
    assert state["side"] == "dark"
    assert all_cards(state) == Counter(cards("RF|PF R1|P1 B5|T3") + cards(DISCARD) + cards(PILE))
