"""The scenario runner refuses a card that is not in the game's deck (exit 2, naming the
card), in every game and on either UNO Flip side; a card of another deck used to be
played as something it is not, or crash the runner (exit 1) on Flip's dark side."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.scenario import main

ROOT = Path(__file__).resolve().parents[2]


def _flip(side: str, hand: list[str], **setup: Any) -> dict[str, Any]:
    color = "Y" if side == "light" else "V"
    return {
        "rules": {"preset": "flip"},
        "players": 2,
        "setup": {
            "hands": [hand, ["G3|O4"]],
            "discard": ["Y5|V6"],
            "side": side,
            "color": color,
            "drawPile": ["R9|T9"],
            **setup,
        },
        "actions": [{"seat": 1, "type": "draw"}],
    }


def _classic(**setup: Any) -> dict[str, Any]:
    base = {"hands": [["R1"], ["G2"]], "discard": ["Y5"], "drawPile": ["R9"]}
    return {"players": 2, "setup": {**base, **setup}}


FOREIGN: list[tuple[str, dict[str, Any], str]] = [
    ("classic-card-in-a-flip-hand-light", _flip("light", ["R7", "B2|P3"]), "R7"),
    ("classic-card-in-a-flip-hand-dark", _flip("dark", ["R7", "B2|P3"]), "R7"),
    (
        "classic-card-in-a-flip-draw-pile-dark",
        _flip("dark", ["B2|P3"], drawPile=["G4"]),
        "G4",
    ),
    (
        "classic-top-card-in-flip",
        _flip("dark", ["B2|P3"], discard=["W+4"]),
        "W+4",
    ),
    ("flip-card-in-a-classic-hand", _classic(hands=[["R1|T2"], ["G2"]]), "R1|T2"),
    ("flip-card-in-a-classic-discard", _classic(discard=["G1|P1"]), "G1|P1"),
    ("wild-draw-eight-not-in-play", _classic(hands=[["W+8"], ["G2"]]), "W+8"),
    ("duo-card-in-classic", _classic(drawPile=["WSH"]), "WSH"),
    (
        "flip-card-in-a-classic-deck",
        {"players": 2, "deck": ["R1|T2"] + ["R1"] * 20},
        "R1|T2",
    ),
    (
        "flip-card-in-rommy",
        {"rules": {"preset": "rommy"}, "players": 2, "deck": ["R1|T2"]},
        "R1|T2",
    ),
    (
        "flip-card-in-a-rommy-meld",
        {
            "rules": {"preset": "rommy"},
            "players": 2,
            "setup": {"hands": [["R1"], ["R2"]], "melds": [{"cards": ["R3", "R4|T4"]}]},
        },
        "R4|T4",
    ),
    (
        "flip-card-in-bottle",
        {"rules": {"preset": "bottle"}, "players": 2, "setup": {"drawPile": ["G7|O2"]}},
        "G7|O2",
    ),
]


@pytest.mark.parametrize(("name", "body", "card"), FOREIGN, ids=[f[0] for f in FOREIGN])
def test_a_card_not_in_the_deck_exits_2_naming_it(
    name: str, body: dict[str, Any], card: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(body), encoding="utf-8")
    assert main([str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert f"{card!r}" in err and "not in this game's deck" in err


def test_wild_draw_eight_is_in_the_deck_when_the_rules_add_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body = {**_classic(hands=[["W+8"], ["G2"]]), "rules": {"wildDrawEight": 2}}
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(body), encoding="utf-8")
    assert main([str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["state"]["hands"][0] == ["W+8"]


def test_flip_cards_on_the_dark_side_still_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(_flip("dark", ["B2|P3"])), encoding="utf-8")
    assert main([str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["results"][0]["ok"] is True


def test_the_command_exits_2_not_1_on_the_dark_side() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "engine.scenario", "-"],
        input=json.dumps(_flip("dark", ["R7"])),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=30,
    )
    assert done.returncode == 2, done.stderr
    assert done.stdout == "" and "'R7'" in done.stderr
