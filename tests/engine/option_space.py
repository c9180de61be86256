"""The whole option space as hypothesis strategies, read from the options themselves
(engine.rules.OPTIONS): every option, each over its own values, so a new option is fuzzed
the day it is added."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st
from test_properties import SHEDDING_PRESETS, without_clashes

from engine.rules import OPTIONS, Option, Rules


def option_values(option: Option) -> st.SearchStrategy[Any]:
    """Every value ``option`` allows."""
    if option.kind == "bool":
        return st.booleans()
    if option.kind == "enum":
        return st.sampled_from(option.choices)
    steps = st.integers(0, (option.high - option.low) // option.step)
    values = steps.map(lambda n: option.low + n * option.step)
    return st.one_of(st.just(0), values) if option.zero_off else values


@st.composite
def any_rules(draw: st.DrawFn) -> Rules:
    """A shedding preset with any options on top (less those a clash names, and teams
    the table cannot seat)."""
    preset = draw(st.sampled_from(SHEDDING_PRESETS))
    names = draw(st.sets(st.sampled_from([o.name for o in OPTIONS])))
    options = {o.name: draw(option_values(o)) for o in OPTIONS if o.name in names}
    rules = without_clashes(preset, options)
    if 2 * rules.teams > rules.max_players:
        rules = without_clashes(preset, {**options, "teams": 0})
    return rules
