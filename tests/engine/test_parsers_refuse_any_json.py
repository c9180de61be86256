"""Whatever JSON a client sends, the engine's parsers answer with an EngineError, never
another exception (an object or list where a string is expected made lookups fail)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import EngineError, parse_action, rules_from_json
from engine.actions import ACTION_TYPES
from engine.rules import OPTIONS, Rules, with_options

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)
field_names = st.sampled_from(["type", "cards", "color", "target", "uno", "at", "preset"])
known_names = st.sampled_from(sorted(ACTION_TYPES))
option_names = st.sampled_from([o.name for o in OPTIONS] + ["preset"])


def _only_engine_errors(call: Any, *args: Any) -> None:
    try:
        call(*args)
    except EngineError:
        pass


@pytest.mark.parametrize("value", [{}, [1], [], {"a": 1}])
def test_an_object_or_list_as_action_type_is_an_unknown_action(value: Any) -> None:
    with pytest.raises(EngineError) as refused:
        parse_action({"type": value})
    assert refused.value.code == "unknown_action"


@pytest.mark.parametrize("value", [{}, [1], []])
def test_an_object_or_list_as_preset_is_an_unknown_preset(value: Any) -> None:
    with pytest.raises(EngineError) as refused:
        rules_from_json({"preset": value})
    assert refused.value.code == "rules/unknown_preset"


@pytest.mark.parametrize("name", ["target", "at"])
def test_numbers_too_large_for_any_serialiser_are_refused(name: str) -> None:
    with pytest.raises(EngineError) as refused:
        parse_action({"type": "play", "cards": ["R1"], name: 2**64})
    assert refused.value.code == f"bad_{name}"


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(field_names, json_values, max_size=5), known_names)
def test_any_action_object_parses_or_is_refused_with_a_code(
    data: dict[str, Any], kind: str
) -> None:
    _only_engine_errors(parse_action, data)
    _only_engine_errors(parse_action, {**data, "type": kind})


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(option_names, json_values, max_size=4))
def test_any_rules_object_parses_or_is_refused_with_a_code(data: dict[str, Any]) -> None:
    _only_engine_errors(rules_from_json, data)
    _only_engine_errors(with_options, Rules(), {k: v for k, v in data.items() if k != "preset"})


@given(json_values)
def test_any_json_value_as_an_action_or_rules_is_refused_with_a_code(value: Any) -> None:
    _only_engine_errors(parse_action, value)
    _only_engine_errors(rules_from_json, value)
