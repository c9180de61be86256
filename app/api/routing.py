"""405 for a method a path does not serve, with the ``Allow`` header naming those it does.

The router alone answers 405 only where no route takes the request at all, and two kinds
of routes take requests they should not: the browser client mounted at ``/`` takes every
path (a ``GET`` of ``/api/rooms/{roomId}/start`` became the client's 404), and a path with
a parameter takes the fixed path beside it (``GET /api/rooms/join`` was read as the room
named "join"). So before routing, a request whose path ``/openapi.json`` lists is answered
405 unless the document lists its method for that path; a fixed path is matched before
the patterns (as the router matches the routes that share a method). The ``Allow``
header names the methods the document lists, so that the two always agree.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson
from starlette.types import ASGIApp, Receive, Scope, Send

METHODS = frozenset({"GET", "PUT", "POST", "DELETE", "PATCH", "OPTIONS", "HEAD", "TRACE"})


@dataclass(frozen=True, slots=True)
class PathMethods:
    pattern: re.Pattern[str]
    fixed: bool  # no parameter in the path
    methods: frozenset[str]


def path_table(document: dict[str, Any]) -> list[PathMethods]:
    """Each path of an OpenAPI document, as a pattern, with the methods it lists."""
    table = []
    for path, operations in document.get("paths", {}).items():
        parts = re.split(r"(\{[^}]+\})", path)
        pattern = "".join("[^/]+" if p.startswith("{") else re.escape(p) for p in parts)
        methods = frozenset(m.upper() for m in operations if m.upper() in METHODS)
        table.append(PathMethods(re.compile(pattern), "{" not in path, methods))
    return table


def allowed_methods(table: list[PathMethods], path: str) -> frozenset[str] | None:
    """The methods served at ``path`` (the fixed paths' if one matches, else the
    patterns'); None if the document lists no such path."""
    matching = [entry for entry in table if entry.pattern.fullmatch(path)]
    fixed = [entry for entry in matching if entry.fixed]
    chosen = fixed or matching
    if not chosen:
        return None
    return frozenset().union(*(entry.methods for entry in chosen))


class MethodNotAllowed:
    """Answers ``405 method_not_allowed`` (with ``Allow``) before routing; the table is
    made from the app's OpenAPI document at the first request."""

    def __init__(self, app: ASGIApp, document: Callable[[], dict[str, Any]]) -> None:
        self.app = app
        self.document = document
        self._table: list[PathMethods] | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            if self._table is None:
                self._table = path_table(self.document())
            allowed = allowed_methods(self._table, scope["path"])
            if allowed is not None and scope["method"] not in allowed:
                await _not_allowed(send, scope["method"], allowed)
                return
        await self.app(scope, receive, send)


async def _not_allowed(send: Send, method: str, allowed: frozenset[str]) -> None:
    allow = ", ".join(sorted(allowed))
    body = orjson.dumps(
        {"code": "method_not_allowed", "message": f"{method} is not served here; allowed: {allow}"}
    )
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"allow", allow.encode()),
    ]
    await send({"type": "http.response.start", "status": 405, "headers": headers})
    await send({"type": "http.response.body", "body": body})
