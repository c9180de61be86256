"""Teams (engine/teams.py, docs/rules.md "House rules"): partners opposite, a team's
scores added up, a team wins when one partner goes out, no partner sees another's cards."""

from __future__ import annotations

import pytest
from uno_helpers import play, position

from engine import InvalidAction, InvalidRules, apply, new_match, rules_from_json, view_for
from engine.teams import team_of


def test_partners_sit_opposite() -> None:
    pairs = rules_from_json({"teams": 2})
    assert [team_of(pairs, 4, s) for s in range(4)] == [0, 1, 0, 1]
    threes = rules_from_json({"teams": 3})
    assert [team_of(threes, 6, s) for s in range(6)] == [0, 1, 0, 1, 0, 1]


@pytest.mark.parametrize(("teams", "players"), [(2, 3), (2, 5), (3, 4), (3, 3), (2, 2)])
def test_teams_the_table_cannot_make_up_are_refused_naming_teams(teams: int, players: int) -> None:
    with pytest.raises(InvalidAction) as err:
        new_match(rules_from_json({"teams": teams}), players, "seed")
    assert err.value.code == "rules/clash" and f"teams {teams}" in err.value.message


def test_teams_clash_with_knockout() -> None:
    with pytest.raises(InvalidRules) as err:
        rules_from_json({"teams": 2, "matchMode": "knockout"})
    assert "teams" in err.value.message and "knockout" in err.value.message


def test_a_partner_going_out_wins_the_deal_and_scores_only_the_opponents_hands() -> None:
    state = position(["R5", "G1 G2", "Y9 Y8", "B3"], "R7", rules={"teams": 2})
    state, _ = apply(state, 0, play(0, "R5"))
    assert state.phase == "dealOver" and state.winner == 0
    assert state.deal_scores == (1 + 2 + 3, 0, 0, 0)  # seat 2's Y9 Y8 count nothing
    view = view_for(state, 2)
    assert view["teams"] == {"of": [0, 1, 0, 1], "totals": [6, 0]}


def test_own_hand_counts_the_winning_team_scores_nothing() -> None:
    state = position(
        ["R5", "G1 G2", "Y9 Y8", "B3"], "R7", rules={"teams": 2, "scoringMode": "ownHandCounts"}
    )
    state, _ = apply(state, 0, play(0, "R5"))
    assert state.deal_scores == (0, 3, 0, 3)


def test_the_match_ends_when_a_teams_added_scores_reach_the_target() -> None:
    state = position(
        ["R5", "G1 G2", "Y9 Y8", "B3"], "R7", rules={"teams": 2}, totals=[60, 0, 40, 0]
    )
    state = state.__class__.from_json(
        {**state.to_json(), "rules": {**state.rules.to_json(), "targetScore": 100}}
    )
    state, _ = apply(state, 0, play(0, "R5"))
    assert state.phase == "matchOver" and state.winner == 0


def test_partners_cannot_see_each_others_cards() -> None:
    state, _ = new_match(rules_from_json({"teams": 2}), 4, "teams")
    for seat in range(4):
        view = view_for(state, seat)
        assert view["hand"] == list(state.hands[seat])
        assert view["reveal"] is None and view.get("shownHands") is None
