"""The top-level view diff against a maintained RFC 6902 implementation."""

from __future__ import annotations

import random

import jsonpatch
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from app.rooms.diff import diff

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.text(max_size=3),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=3), children, max_size=3)
    ),
    max_leaves=8,
)
objects = st.dictionaries(st.sampled_from(["a", "b", "c/d", "e~f", ""]), json_values)


@given(objects, objects)
@settings(max_examples=200, deadline=None)
def test_diff_turns_any_object_into_any_other(old: dict, new: dict) -> None:
    assert jsonpatch.apply_patch(old, diff(old, new)) == new


def test_diff_of_equal_views_is_empty() -> None:
    state, _ = engine.new_match(engine.rules_from_json({}), 3, "seed")
    view = engine.view_for(state, 0)
    assert diff(view, engine.view_for(state, 0)) == []


def test_diff_tells_true_from_one() -> None:
    ops = diff({"x": 1}, {"x": True})
    assert jsonpatch.apply_patch({"x": 1}, ops) == {"x": True}
    assert type(jsonpatch.apply_patch({"x": 1}, ops)["x"]) is bool


def test_diff_follows_every_view_of_random_games() -> None:
    rng = random.Random(7)
    for game in range(8):
        rules = engine.rules_from_json({"preset": "house"} if game % 2 else {})
        state, _ = engine.new_match(rules, 4, f"seed{game}")
        views = {s: engine.view_for(state, s) for s in (0, 1, 2, 3, None)}
        for _ in range(150):
            if state.phase in ("dealOver", "matchOver"):
                break
            seat = state.turn
            actions = engine.legal_actions(state, seat)
            if not actions:
                break
            state, _ = engine.apply(state, seat, rng.choice(actions))
            for s, old in views.items():
                new = engine.view_for(state, s)
                assert jsonpatch.apply_patch(old, diff(old, new)) == new
                # Only what changed travels.
                assert all(op["op"] == "replace" for op in diff(old, new))
                views[s] = new
