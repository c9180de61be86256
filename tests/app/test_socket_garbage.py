"""Opening a WebSocket leaves nothing for the cycle collector: uvicorn's HTTP protocol of
an upgraded socket goes as soon as the upgrade is done (app.ws.transport.HttpProtocol).
Left in a reference cycle, each socket opened would add to the collector's pauses, which
every room on the node waits through."""

from __future__ import annotations

import gc
from typing import Any

from live import running_server
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol


async def test_sockets_opened_leave_no_http_protocol_to_the_cycle_collector(
    tmp_path: Any,
) -> None:
    async with running_server("memory", tmp_path) as server:
        room = await server.create(rules={}, seats=4)
        tokens = [(await server.join(room["roomId"], f"p{i}"))["token"] for i in range(4)]
        gc.collect()
        gc.set_debug(gc.DEBUG_SAVEALL)  # what the collector finds is kept, to look at
        try:
            clients = [await server.connect(room["roomId"], token) for token in tokens]
            gc.collect()
            left = [o for o in gc.garbage if isinstance(o, HttpToolsProtocol)]
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
        assert left == []
        for client in clients:
            await client.close()
