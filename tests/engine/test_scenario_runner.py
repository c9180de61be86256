"""The scenario runner (docs/engine-api.md): ``python -m engine.scenario FILE`` and
``engine.scenario.run``; exit 0 for any well-formed scenario, 2 for a malformed one."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from uno_helpers import cards, draw, play, scenario

from engine.scenario import MalformedScenario, run

ROOT = Path(__file__).resolve().parents[2]

CONTRACT_STATE_KEYS = {
    "phase",
    "turn",
    "direction",
    "top",
    "color",
    "hands",
    "drawPile",
    "pendingDraw",
    "deal",
    "dealScores",
    "totals",
    "winner",
    "matchOver",
    "drinks",
}

GOOD = scenario(
    ["R1 G2", "G2 W", "B3"],
    "Y5",
    rules={"stacking": True},
    color="Y",
    draw="R9 G9",
    actions=[draw(0), play(1, "W", "G")],
)


def run_cli(
    *args: str, stdin: str | None = None, timeout: float = 30
) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "engine.scenario", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=timeout,
    )


def test_cli_runs_a_scenario_file_and_exits_0(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_text(json.dumps(GOOD))
    done = run_cli(str(path))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert [r["ok"] for r in result["results"]] == [True, True]
    assert CONTRACT_STATE_KEYS <= set(result["state"])
    state = result["state"]
    assert (state["phase"], state["turn"], state["top"], state["color"]) == ("playing", 2, "W", "G")
    assert state["hands"] == [["R1", "G2", "R9"], ["G2"], ["B3"]]
    assert (state["drawPile"], state["pendingDraw"], state["deal"]) == (1, 0, 1)
    assert (state["dealScores"], state["winner"], state["matchOver"]) == (None, None, False)
    assert result == run(GOOD)


def test_cli_reads_standard_input_with_dash() -> None:
    done = run_cli("-", stdin=json.dumps(GOOD))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == run(GOOD)


def test_cli_exits_0_when_actions_are_refused() -> None:
    refused = {**GOOD, "actions": [play(2, "B3"), {"seat": 0, "type": "juggle"}]}
    done = run_cli("-", stdin=json.dumps(refused))
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)["results"]
    assert [r["error"]["code"] for r in results] == ["not_your_turn", "unknown_action"]
    assert all(r["ok"] is False and r["error"]["message"] for r in results)


def test_cli_seeded_deal_without_deck_or_setup_is_reproducible() -> None:
    seeded = {"rules": {"preset": "classic"}, "players": 4, "seed": "abc", "actions": []}
    first = run_cli("-", stdin=json.dumps(seeded))
    second = run_cli("-", stdin=json.dumps(seeded))
    assert first.returncode == second.returncode == 0
    assert first.stdout == second.stdout
    hands = json.loads(first.stdout)["state"]["hands"]
    assert len(hands) == 4 and all(len(h) in (7, 9) for h in hands)


def test_setup_turn_defaults_to_the_seat_left_of_the_dealer() -> None:
    position = scenario(["R1", "G2", "B3"], "Y5", dealer=1, turn=None)
    assert run(position)["state"]["turn"] == 2


MALFORMED: list[tuple[str, Any, str]] = [
    ("not-json", "{players: 2", "JSON"),
    ("not-an-object", [1, 2], "object"),
    ("unknown-option", {**GOOD, "rules": {"preset": "classic", "stackng": True}}, "stackng"),
    ("out-of-range-option", {**GOOD, "rules": {"targetScore": 50}}, "targetScore"),
    ("bad-option-value", {**GOOD, "rules": {"scoringMode": "most"}}, "scoringMode"),
    ("unknown-preset", {**GOOD, "rules": {"preset": "nope"}}, "nope"),
    ("one-player", {**GOOD, "players": 1, "setup": None}, "players"),
    ("eleven-players", {**GOOD, "players": 11}, "players"),
    ("players-not-a-number", {**GOOD, "players": "3"}, "players"),
    ("bad-dealer", {**GOOD, "dealer": 3}, "dealer"),
    ("hands-count", {**GOOD, "players": 4}, "hands"),
    ("unknown-card", scenario(["R1 Q7", "G2", "B3"], "Y5"), "Q7"),
    ("empty-discard", {**GOOD, "setup": {**GOOD["setup"], "discard": []}}, "discard"),
    ("wild-top-without-colour", scenario(["R1", "G2", "B3"], "W"), "color"),
    ("bad-direction", {**GOOD, "setup": {**GOOD["setup"], "direction": 2}}, "direction"),
    ("short-deck", {"players": 2, "deck": cards("R1 R2 R3")}, "deck"),
    ("actions-not-a-list", {**GOOD, "actions": {"seat": 0}}, "actions"),
]


@pytest.mark.parametrize(("name", "body", "said"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_cli_exits_2_with_a_message_on_malformed_input(name: str, body: Any, said: str) -> None:
    text = body if isinstance(body, str) else json.dumps(body)
    done = run_cli("-", stdin=text)
    assert done.returncode == 2
    assert done.stdout == ""
    assert said in done.stderr


@pytest.mark.parametrize(("name", "body", "said"), MALFORMED[1:], ids=[m[0] for m in MALFORMED[1:]])
def test_run_raises_malformed_scenario_in_process(name: str, body: Any, said: str) -> None:
    with pytest.raises(MalformedScenario) as err:
        run(body)
    assert said in str(err.value)


def test_cli_exits_2_on_a_missing_file_or_missing_argument(tmp_path: Path) -> None:
    done = run_cli(str(tmp_path / "nope.json"))
    assert done.returncode == 2 and done.stderr
    done = run_cli()
    assert done.returncode == 2 and "usage" in done.stderr


@pytest.mark.parametrize(
    ("first", "rules"),
    [("W+4", {"firstCardWildDrawFour": "bury"}), ("W", {"firstCardWild": "reshuffle"})],
)
def test_cli_does_not_hang_when_only_a_sent_back_first_card_remains(
    first: str, rules: dict[str, Any]
) -> None:
    deck = cards("R1 R2 R3 R4 R5 R6 R7 G1 G2 G3 G4 G5 G6 G7") + [first]
    body = {"rules": rules, "players": 2, "dealer": 0, "deck": deck, "actions": []}
    try:
        done = run_cli("-", stdin=json.dumps(body), timeout=4)
    except subprocess.TimeoutExpired:
        pytest.fail("the scenario runner did not finish within 4 s")
    assert done.returncode in (0, 2)
