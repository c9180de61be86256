"""The confusables table (app/confusables.py) is what tools/make_confusables.py makes of
its pinned source, and the script refuses any other file."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "make_confusables", ROOT / "tools" / "make_confusables.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_table_is_what_the_script_makes_of_its_pinned_source() -> None:
    script = _script()
    made = script.render(script.source(script.PINNED_COPY))
    assert made == (ROOT / "app" / "confusables.py").read_text(encoding="utf-8")


def test_the_script_refuses_a_source_of_another_hash(tmp_path: Path) -> None:
    script = _script()
    other = tmp_path / "confusables.txt"
    other.write_text("# Version: 99.0.0\n0031 ;\t006C ;\tMA\n", encoding="utf-8")
    with pytest.raises(ValueError, match="sha256"):
        script.source(other)
