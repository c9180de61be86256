"""The type checker holds the app to the engine's types: an action is an ``engine.Action``
whose ``type`` is one of the engine's names (a misspelled one, or a dict in the wire form,
is a type error), and a state is read through ``engine.GameState`` (an attribute only some
games have is a type error: the engine's helpers answer for it). Checked by running mypy,
strict as the project's configuration, on code that gets each wrong."""

from __future__ import annotations

from pathlib import Path

from mypy import api

WRONG = """
import engine
from app.rooms import commands

state, _ = engine.new_match(engine.rules_from_json({}), 2, "seed")
engine.Action("plya")
engine.apply(state, 0, {"type": "draw"})
commands.Action(pid="p", ref="a1", action={"type": "draw"})
state.hands
"""

RIGHT = """
import engine
from app.rooms import commands

state, _ = engine.new_match(engine.rules_from_json({}), 2, "seed")
action = engine.Action("draw")
after, events = engine.apply(state, state.turn, action)
command = commands.Action(pid="p", ref="a1", action=engine.parse_action({"type": "draw"}))
hands = engine.hands_of(after)
moves: int = after.moves
"""


def _errors(source: str, tmp_path: Path) -> dict[int, str]:
    path = tmp_path / "snippet.py"
    path.write_text(source)
    out, err, _ = api.run(
        ["--strict", "--no-incremental", "--cache-dir", str(tmp_path / "cache"), str(path)]
    )
    assert not err
    found: dict[int, str] = {}
    for line in out.splitlines():
        if line.startswith(str(path)) and ": error:" in line:
            number = int(line.split(":")[1])
            found[number] = found.get(number, "") + line
    return found


def test_the_type_checker_refuses_a_misspelled_action_a_dict_and_a_game_specific_field(
    tmp_path: Path,
) -> None:
    errors = _errors(WRONG, tmp_path)
    lines = WRONG.splitlines()

    def error_at(code: str) -> str:
        return errors.get(lines.index(code) + 1, "")  # mypy counts lines from 1

    assert "plya" in error_at('engine.Action("plya")')
    assert '"apply"' in error_at('engine.apply(state, 0, {"type": "draw"})')
    assert '"action"' in error_at('commands.Action(pid="p", ref="a1", action={"type": "draw"})')
    assert '"GameState" has no attribute "hands"' in error_at("state.hands")
    assert len(errors) == 4


def test_the_same_code_typed_right_passes(tmp_path: Path) -> None:
    assert _errors(RIGHT, tmp_path) == {}
