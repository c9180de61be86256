"""The frames the server writes itself (app.ws.transport.text_frame, bypassing the ASGI
send) are the frames the WebSocket library would write, at every length boundary."""

from __future__ import annotations

import pytest
from websockets.frames import Frame, Opcode

from app.ws.transport import text_frame


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 65535, 65536, 70000])
def test_a_text_frame_is_the_libraries_frame(size: int) -> None:
    data = b"x" * size
    expected = Frame(Opcode.TEXT, data).serialize(mask=False, extensions=[])
    assert text_frame(data) == expected
