"""An ``action`` message is read without a pydantic model (app.ws.protocol.ActionFrame):
for any message of that type, the hand check and the model agree on what is accepted,
and what is accepted reads the same."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from app.errors import RoomError
from app.ws.protocol import ActionFrame, ActionMessage, parse

values = (
    st.none() | st.booleans() | st.integers(-10, 70_000) | st.floats(0, 10) | st.text(max_size=3)
)
ids = st.text(max_size=3) | st.text(min_size=99, max_size=101) | values
actions = st.dictionaries(st.sampled_from(["type", "cards", "at"]), values, max_size=2) | values
messages = st.fixed_dictionaries(
    {"type": st.just("action")},
    optional={
        "id": ids,
        "action": actions,
        "react": st.integers(-2, 60_002) | values,
        "extra": values,
    },
)


@given(messages)
@settings(max_examples=400, deadline=None)
def test_an_action_is_accepted_exactly_when_its_model_accepts_it(message: dict[str, Any]) -> None:
    try:
        model = ActionMessage.model_validate(message)
    except ValidationError:
        model = None
    text = orjson.dumps(message)
    if model is None:
        with pytest.raises(RoomError):
            parse(text)
        return
    frame = parse(text)
    assert isinstance(frame, ActionFrame)
    assert (frame.id, frame.action, frame.react) == (model.id, model.action, model.react)
    assert type(frame.react) is type(model.react)


def test_a_refused_action_says_which_field() -> None:
    with pytest.raises(RoomError) as refused:
        parse(b'{"type": "action", "id": "a1", "action": {}, "react": -1}')
    assert refused.value.code == "bad_react"
    assert refused.value.message.startswith("react:")
    assert refused.value.ref == "a1"
