"""The scoresheet: the seed's two worked tables both ways, entry rules, match modes, runner."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.rules import Rules, rules_from_json
from engine.scoresheet import (
    ScoresheetError,
    add_deal,
    entry_cap,
    entry_problems,
    main,
    standings,
)

PLAYERS = ["Anna", "Ben", "Cara", "Dan"]

# Seed scoring-and-house-rules.da, first table (winnerCollects, target 500).
TABLE_1 = [
    [87, 0, 0, 0],
    [0, 0, 132, 0],
    [154, 0, 0, 0],
    [0, 96, 0, 0],
    [175, 0, 0, 0],
    [118, 0, 0, 0],
]

# Same seed, second table (ownHandCounts, target 500).
TABLE_2 = [
    [0, 34, 51, 22],
    [19, 60, 0, 45],
    [0, 88, 27, 63],
    [41, 76, 30, 0],
    [0, 95, 38, 70],
    [25, 92, 0, 55],
    [0, 87, 44, 66],
]

WINNER_COLLECTS = rules_from_json({"targetScore": 500, "scoringMode": "winnerCollects"})
OWN_HAND = rules_from_json({"scoringMode": "ownHandCounts"})


def rows(result: Any) -> list[tuple[str, int, int]]:
    return [(s["player"], s["total"], s["place"]) for s in result["standings"]]


# --- the seed's tables -----------------------------------------------------------------


def test_standings_seed_table_1_winner_collects_anna_wins() -> None:
    result = standings(WINNER_COLLECTS, PLAYERS, TABLE_1)
    assert result == {
        "totals": [534, 96, 132, 0],
        "standings": [
            {"player": "Anna", "total": 534, "place": 1},
            {"player": "Cara", "total": 132, "place": 2},
            {"player": "Ben", "total": 96, "place": 3},
            {"player": "Dan", "total": 0, "place": 4},
        ],
        "winner": "Anna",
        "finished": True,
        "warnings": [],
    }


def test_standings_seed_table_1_not_finished_after_deal_5() -> None:
    result = standings(WINNER_COLLECTS, PLAYERS, TABLE_1[:5])
    assert result["totals"][0] == 416
    assert result["finished"] is False
    assert result["winner"] is None
    assert rows(result)[0] == ("Anna", 416, 1)


def test_standings_seed_table_1_own_hand_counts_anna_reaches_target_and_is_last() -> None:
    result = standings(OWN_HAND, PLAYERS, TABLE_1)
    assert result["finished"] is True
    assert result["winner"] == "Dan"
    assert rows(result) == [("Dan", 0, 1), ("Ben", 96, 2), ("Cara", 132, 3), ("Anna", 534, 4)]
    assert result["warnings"] == []  # three zeros a deal is fine under ownHandCounts


def test_standings_own_hand_counts_lowest_total_wins() -> None:
    result = standings(OWN_HAND, PLAYERS, TABLE_2)
    assert result["totals"] == [85, 532, 190, 321]
    assert rows(result) == [("Anna", 85, 1), ("Cara", 190, 2), ("Dan", 321, 3), ("Ben", 532, 4)]
    assert result["winner"] == "Anna"
    assert result["finished"] is True
    assert result["warnings"] == []


def test_standings_seed_table_2_not_finished_after_deal_6() -> None:
    result = standings(OWN_HAND, PLAYERS, TABLE_2[:6])
    assert result["totals"][1] == 445
    assert result["finished"] is False
    assert result["winner"] is None


def test_standings_seed_table_2_read_as_winner_collects_ben_wins_anna_last() -> None:
    result = standings(WINNER_COLLECTS, PLAYERS, TABLE_2)
    assert rows(result) == [("Ben", 532, 1), ("Dan", 321, 2), ("Cara", 190, 3), ("Anna", 85, 4)]
    assert result["winner"] == "Ben"
    assert result["finished"] is True
    # Every deal breaks "one non-zero entry": a warning naming it, and totals still computed.
    assert len(result["warnings"]) == 7
    for number, warning in enumerate(result["warnings"], start=1):
        assert warning.startswith(f"deal {number}: ")
        assert "winnerCollects" in warning
    assert "Ben, Cara and Dan all have non-zero entries" in result["warnings"][0]


def test_standings_entries_are_never_changed_by_reading() -> None:
    deals = [list(deal) for deal in TABLE_2]
    standings(WINNER_COLLECTS, PLAYERS, deals)
    assert deals == TABLE_2


# --- places, ties, the end of the match ------------------------------------------------


def test_standings_equal_totals_share_a_place() -> None:
    result = standings(Rules(), PLAYERS, [[100, 0, 0, 0], [0, 50, 0, 0], [0, 0, 50, 0]])
    assert rows(result) == [("Anna", 100, 1), ("Ben", 50, 2), ("Cara", 50, 2), ("Dan", 0, 4)]


def test_standings_empty_sheet_everyone_shares_first_and_nothing_is_finished() -> None:
    result = standings(Rules(), PLAYERS, [])
    assert result["totals"] == [0, 0, 0, 0]
    assert [s["place"] for s in result["standings"]] == [1, 1, 1, 1]
    assert result["finished"] is False
    assert result["winner"] is None
    assert result["warnings"] == []


def test_standings_shared_first_place_at_the_end_has_no_winner() -> None:
    rules = Rules(round_limit=2)
    result = standings(rules, ["Anna", "Ben", "Cara"], [[60, 0, 0], [0, 60, 0]])
    assert result["finished"] is True
    assert result["winner"] is None
    assert rows(result)[:2] == [("Anna", 60, 1), ("Ben", 60, 1)]
    assert result["warnings"] == [
        "shared first place: Anna and Ben both have 60, so there is no single winner"
    ]


def test_standings_round_limit_finishes_and_best_total_wins() -> None:
    rules = rules_from_json({"roundLimit": 3, "scoringMode": "ownHandCounts"})
    deals = [[0, 30, 12], [25, 0, 8], [0, 40, 10], [0, 5, 5]]
    assert standings(rules, ["Anna", "Ben", "Cara"], deals[:2])["finished"] is False
    result = standings(rules, ["Anna", "Ben", "Cara"], deals)
    assert result["finished"] is True
    assert result["winner"] == "Anna"
    assert rows(result) == [("Anna", 25, 1), ("Cara", 30, 2), ("Ben", 70, 3)]
    assert result["warnings"] == [
        "deal 4 was entered after the match finished (after deal 3) and is not counted"
    ]


def test_standings_round_limit_winner_is_lowest_total() -> None:
    rules = rules_from_json({"roundLimit": 2, "scoringMode": "ownHandCounts"})
    result = standings(rules, ["Anna", "Ben", "Cara"], [[0, 30, 12], [25, 0, 8]])
    assert result["totals"] == [25, 30, 20]
    assert result["finished"] is True
    assert result["winner"] == "Cara"
    assert rows(result) == [("Cara", 20, 1), ("Anna", 25, 2), ("Ben", 30, 3)]


def test_standings_target_finishes_before_round_limit() -> None:
    rules = rules_from_json({"roundLimit": 10, "targetScore": 100})
    result = standings(rules, ["Anna", "Ben"], [[60, 0], [0, 120]])
    assert result["finished"] is True
    assert result["winner"] == "Ben"


def test_standings_deal_after_the_finish_is_warned_and_not_counted() -> None:
    result = standings(WINNER_COLLECTS, PLAYERS, [*TABLE_1, [0, 0, 0, 700]])
    assert result["totals"] == [534, 96, 132, 0]
    assert result["winner"] == "Anna"
    assert result["warnings"] == [
        "deal 7 was entered after the match finished (after deal 6) and is not counted"
    ]


def test_standings_option_change_recomputes_the_finish() -> None:
    # The same sheet under a lower target ends earlier; later deals become warnings.
    rules = rules_from_json({"targetScore": 200})
    result = standings(rules, PLAYERS, TABLE_1)
    assert result["totals"] == [241, 0, 132, 0]
    assert result["winner"] == "Anna"
    assert [w.split(" ")[1] for w in result["warnings"]] == ["4", "5", "6"]


# --- entry rules -----------------------------------------------------------------------


def test_entry_problems_valid_deals_have_none() -> None:
    assert entry_problems(WINNER_COLLECTS, [87, 0, 0, 0], 1, PLAYERS) == []
    assert entry_problems(WINNER_COLLECTS, [0, 0, 0, 0], 1, PLAYERS) == []  # all zero is fine
    assert entry_problems(OWN_HAND, [0, 34, 51, 22], 1, PLAYERS) == []
    assert entry_problems(OWN_HAND, [0, 0, 0, 0], 1, PLAYERS) == []


def test_entry_problems_winner_collects_two_scorers_names_deal_and_players() -> None:
    problems = entry_problems(WINNER_COLLECTS, [87, 0, 12, 0], 3, PLAYERS)
    assert problems == [
        "deal 3: Anna and Cara both have non-zero entries; under winnerCollects only the player"
        " who went out scores, so at most one entry may be non-zero"
    ]


def test_entry_problems_own_hand_counts_needs_a_zero() -> None:
    problems = entry_problems(OWN_HAND, [5, 34, 51, 22], 2, PLAYERS)
    assert len(problems) == 1
    assert problems[0].startswith("deal 2: no entry is 0; under ownHandCounts")


def test_entry_problems_negative_and_ill_typed_entries_name_the_player() -> None:
    problems = entry_problems(WINNER_COLLECTS, [-5, "87", True, 1.5], 4, PLAYERS)  # type: ignore[list-item]
    assert problems == [
        "deal 4, Anna: entry -5 is negative; points only go up",
        "deal 4, Ben: entry '87' is not a whole number",
        "deal 4, Cara: entry True is not a whole number",
        "deal 4, Dan: entry 1.5 is not a whole number",
    ]


def test_entry_problems_without_names_calls_players_by_number() -> None:
    assert entry_problems(Rules(), [0, -1], 1) == [
        "deal 1, player 2: entry -1 is negative; points only go up"
    ]


def test_entry_problems_cap_is_1240_per_deck() -> None:
    assert entry_cap(Rules()) == 1240
    assert entry_problems(Rules(), [1240, 0], 1) == []
    assert entry_problems(Rules(), [1241, 0], 1) == [
        "deal 1, player 1: entry 1241 is more than 1240, the value of one whole deck"
    ]
    two_decks = rules_from_json({"decks": 2})
    assert entry_cap(two_decks) == 2480
    assert entry_problems(two_decks, [2480, 0], 1) == []
    assert entry_problems(two_decks, [2481, 0], 1) != []


def test_entry_cap_follows_a_deck_worth_more_than_1240() -> None:
    # flatTen: 76 number cards x 10; 24 actions x 50; 8 wilds x 100.
    rules = rules_from_json(
        {"numberCards": "flatTen", "actionValue": 50, "wildValue": 100, "wildDrawFourValue": 100}
    )
    assert entry_cap(rules) == 760 + 1200 + 800
    assert entry_cap(rules_from_json({"actionValue": 0, "wildValue": 0})) == 1240


def test_standings_bad_entries_are_warnings_and_still_counted() -> None:
    result = standings(Rules(), ["Anna", "Ben"], [[-10, 0], [2000, 0]])
    assert result["totals"] == [1990, 0]
    assert result["warnings"] == [
        "deal 1, Anna: entry -10 is negative; points only go up",
        "deal 2, Anna: entry 2000 is more than 1240, the value of one whole deck",
    ]


@pytest.mark.parametrize(
    ("players", "deals", "code"),
    [
        (["Anna", "Ben"], [[10, 0, 0]], "scoresheet/wrong_length"),
        (["Anna", "Ben"], [[10, "0"]], "scoresheet/bad_entry"),
        (["Anna", "Ben"], [[10, None]], "scoresheet/bad_entry"),
        (["Anna", "Anna"], [], "scoresheet/bad_players"),
        (["Anna"], [], "scoresheet/bad_players"),
        (["Anna", ""], [], "scoresheet/bad_players"),
    ],
)
def test_standings_unreadable_sheet_raises(players: Any, deals: Any, code: str) -> None:
    with pytest.raises(ScoresheetError) as caught:
        standings(Rules(), players, deals)
    assert caught.value.code == code


# --- add_deal --------------------------------------------------------------------------


def test_add_deal_appends_without_changing_the_input() -> None:
    deals = [[87, 0, 0, 0]]
    new = add_deal(WINNER_COLLECTS, PLAYERS, deals, [0, 0, 132, 0])
    assert new == [[87, 0, 0, 0], [0, 0, 132, 0]]
    assert deals == [[87, 0, 0, 0]]


def test_add_deal_wrong_length_is_refused() -> None:
    with pytest.raises(ScoresheetError) as caught:
        add_deal(WINNER_COLLECTS, PLAYERS, [], [87, 0, 0])
    assert caught.value.code == "scoresheet/wrong_length"
    assert caught.value.message == "deal 1 has 3 entries for 4 players"


def test_add_deal_breaking_the_entry_rules_is_refused() -> None:
    with pytest.raises(ScoresheetError) as caught:
        add_deal(WINNER_COLLECTS, PLAYERS, TABLE_1[:2], [10, 20, 0, 0])
    assert caught.value.code == "scoresheet/bad_entry"
    assert caught.value.message.startswith("deal 3: Anna and Ben both have non-zero entries")
    with pytest.raises(ScoresheetError) as caught:
        add_deal(OWN_HAND, PLAYERS, [], [1, 2, 3, -4])
    assert caught.value.code == "scoresheet/bad_entry"
    assert (
        caught.value.to_json()["message"] == "deal 1, Dan: entry -4 is negative; points only go up"
    )


def test_add_deal_after_the_finish_is_refused() -> None:
    with pytest.raises(ScoresheetError) as caught:
        add_deal(WINNER_COLLECTS, PLAYERS, TABLE_1, [10, 0, 0, 0])
    assert caught.value.code == "scoresheet/finished"


# --- knockout and one-and-done ---------------------------------------------------------

KNOCKOUT = rules_from_json({"preset": "knockout", "targetScore": 100})


def test_standings_knockout_last_player_standing_wins() -> None:
    deals = [[0, 60, 40], [30, 50, 0], [0, 0, 80]]
    after_two = standings(KNOCKOUT, ["Anna", "Ben", "Cara"], deals[:2])
    assert after_two["finished"] is False  # Ben is out, two are left
    assert rows(after_two) == [("Anna", 30, 1), ("Cara", 40, 2), ("Ben", 110, 3)]
    result = standings(KNOCKOUT, ["Anna", "Ben", "Cara"], deals)
    assert result["finished"] is True
    assert result["winner"] == "Anna"
    # Cara went out later than Ben, so she places above him although her total is higher.
    assert rows(result) == [("Anna", 30, 1), ("Cara", 120, 2), ("Ben", 110, 3)]
    assert result["warnings"] == []


def test_standings_knockout_reaching_the_target_exactly_knocks_out() -> None:
    result = standings(KNOCKOUT, ["Anna", "Ben"], [[0, 100]])
    assert result["finished"] is True
    assert result["winner"] == "Anna"


def test_standings_knockout_entry_for_a_knocked_out_player_is_a_warning() -> None:
    deals = [[0, 120, 10], [0, 5, 20]]
    result = standings(KNOCKOUT, ["Anna", "Ben", "Cara"], deals)
    assert result["totals"] == [0, 125, 30]
    assert result["warnings"] == [
        "deal 2, Ben: knocked out after deal 1, so the entry should be 0, not 5"
    ]


def test_standings_knockout_zero_rule_applies_to_players_still_in() -> None:
    # Ben's 0 does not count: he is out; Anna and Cara both have points.
    result = standings(KNOCKOUT, ["Anna", "Ben", "Cara"], [[0, 120, 10], [10, 0, 20]])
    assert result["warnings"] == [
        "deal 2: no entry is 0; under ownHandCounts the player who went out scores 0"
        " (Anna and Cara both have points)"
    ]


def test_standings_knockout_everyone_out_in_the_last_deal_lowest_of_them_wins() -> None:
    # Only possible with a broken deal (the player who went out scores 0 and stays in),
    # but the sheet must still have an answer: the best of those knocked out last.
    deals = [[0, 110, 50], [0, 0, 0], [120, 0, 60]]
    result = standings(KNOCKOUT, ["Anna", "Ben", "Cara"], deals)
    assert result["finished"] is True
    assert result["winner"] == "Cara"  # 110 beats Anna's 120; both went out in deal 3
    assert rows(result) == [("Cara", 110, 1), ("Anna", 120, 2), ("Ben", 110, 3)]
    assert result["warnings"] == [
        "deal 3: no entry is 0; under ownHandCounts the player who went out scores 0"
        " (Anna and Cara both have points)"
    ]


def test_standings_knockout_with_winner_collects_is_read_as_own_hand_counts() -> None:
    rules = rules_from_json({"matchMode": "knockout", "targetScore": 100})
    result = standings(rules, ["Anna", "Ben"], [[0, 100]])
    assert result["winner"] == "Anna"
    assert result["warnings"][0].startswith("matchMode knockout is played with scoringMode")


def test_standings_knockout_round_limit_lowest_player_still_in_wins() -> None:
    rules = rules_from_json({"preset": "knockout", "roundLimit": 2})
    result = standings(rules, ["Anna", "Ben", "Cara"], [[0, 40, 10], [30, 0, 5]])
    assert result["finished"] is True
    assert result["winner"] == "Cara"


def test_standings_one_and_done_winner_collects_best_entry_wins() -> None:
    rules = rules_from_json({"preset": "oneAndDone"})
    result = standings(rules, PLAYERS, [[0, 0, 64, 0], [90, 0, 0, 0]])
    assert result["finished"] is True
    assert result["winner"] == "Cara"
    assert result["totals"] == [0, 0, 64, 0]
    assert result["warnings"] == [
        "deal 2 was entered after the match finished (after deal 1) and is not counted"
    ]


def test_standings_one_and_done_own_hand_counts_the_zero_wins() -> None:
    rules = rules_from_json({"preset": "oneAndDone", "scoringMode": "ownHandCounts"})
    result = standings(rules, PLAYERS, [[12, 0, 64, 30]])
    assert result["finished"] is True
    assert result["winner"] == "Ben"
    assert standings(rules, PLAYERS, [])["finished"] is False


def test_standings_one_and_done_all_zero_has_no_winner() -> None:
    rules = rules_from_json({"preset": "oneAndDone"})
    result = standings(rules, PLAYERS, [[0, 0, 0, 0]])
    assert result["finished"] is True
    assert result["winner"] is None
    assert result["warnings"][0].startswith("shared first place: Anna, Ben, Cara and Dan all")


# --- the runner ------------------------------------------------------------------------


def run(stdin: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine.scoresheet", *(args or ("-",))],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def sheet(rules: dict[str, Any], deals: list[list[int]]) -> str:
    return json.dumps({"rules": rules, "players": PLAYERS, "deals": deals})


def test_runner_reads_a_file_and_prints_the_result(tmp_path: Path) -> None:
    path = tmp_path / "sheet.json"
    path.write_text(sheet({"preset": "classic", "targetScore": 500}, TABLE_1))
    done = run("", str(path))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == standings(WINNER_COLLECTS, PLAYERS, TABLE_1)


def test_runner_reads_stdin_and_reports_warnings_with_exit_0() -> None:
    done = run(sheet({"scoringMode": "winnerCollects"}, TABLE_2))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["winner"] == "Ben"
    assert len(result["warnings"]) == 7


@pytest.mark.parametrize(
    ("stdin", "fragment"),
    [
        ("{not json", "scoresheet/bad_json"),
        ("[1, 2]", "scoresheet/bad_input"),
        (json.dumps({"rules": {}, "deals": []}), "'players'"),
        (json.dumps({"rules": {}, "players": PLAYERS}), "'deals'"),
        (json.dumps({"rules": [], "players": PLAYERS, "deals": []}), "'rules'"),
        (json.dumps({"rules": {}, "players": PLAYERS, "deals": [5]}), "'deals'"),
        (sheet({"scoringmode": "ownHandCounts"}, []), "rules/unknown_option"),
        (sheet({"targetScore": 123}, []), "rules/bad_value"),
        (sheet({"preset": "nope"}, []), "rules/unknown_preset"),
        (sheet({}, [[87, 0, 0]]), "scoresheet/wrong_length"),
        (sheet({}, [[87, 0, 0, "0"]]), "scoresheet/bad_entry"),  # type: ignore[list-item]
        (sheet({}, [[87.5, 0, 0, 0]]), "scoresheet/bad_entry"),  # type: ignore[list-item]
        (json.dumps({"players": ["Anna", "Anna"], "deals": []}), "scoresheet/bad_players"),
    ],
)
def test_runner_malformed_input_exits_2(stdin: str, fragment: str) -> None:
    done = run(stdin)
    assert done.returncode == 2
    assert done.stdout == ""
    assert fragment in done.stderr


def test_runner_missing_file_and_bad_arguments_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["/nonexistent/sheet.json"]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert main([]) == 2
    assert "usage" in capsys.readouterr().err


def test_runner_main_in_process(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "sheet.json"
    path.write_text(sheet({"scoringMode": "ownHandCounts"}, TABLE_2))
    assert main([str(path)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["winner"] == "Anna"
    assert result["finished"] is True
