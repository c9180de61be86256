"""Server logs without secrets and without noise: a seat token in a socket's query string
proves the seat, and a quick-play ticket (``/ws/quickplay?ticket=``) the seat it will be
given, so uvicorn's request lines (access log, and the WebSocket accept/reject lines) show
them masked; the client's own files (a page load asks for thirty of them) are logged only
at debug, so the access log reads as the API's calls."""

from __future__ import annotations

import logging
import re

_TOKEN = re.compile(r"((?:token|ticket)=)[^&\s\"']+")
_LOGGERS = ("uvicorn.access", "uvicorn.error")
# The browser client's files: the pages, their scripts, styles and images (served by
# StaticFiles at /, /uno-client/ and /vendor/), never an API route or a socket.
_STATIC = re.compile(
    r"^/(?!api/|ws/)(?:uno-client/|vendor/|[\w./-]*\.(?:html|js|css|svg|png|ico|map)(?:\?|$)|(?:\?|$))"
)


def redact(text: str) -> str:
    """``text`` with every ``token=`` and ``ticket=`` value replaced by ``***``."""
    return _TOKEN.sub(r"\1***", text)


class RedactTokens(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if record.args:
            args = record.args if isinstance(record.args, tuple) else (record.args,)
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in args)
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        return True


def is_static(path: str) -> bool:
    """Whether a request path asks for one of the browser client's files."""
    return _STATIC.match(path) is not None


class StaticAtDebug(logging.Filter):
    """uvicorn's access line for a static file becomes a debug line: shown only when the
    server runs with ``--log-level debug``."""

    def filter(self, record: logging.LogRecord) -> bool:
        # uvicorn's access record: (client, method, path, http version, status).
        args = record.args
        if not (isinstance(args, tuple) and len(args) == 5 and isinstance(args[2], str)):
            return True
        if not is_static(args[2]):
            return True
        record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        return logging.getLogger(record.name).isEnabledFor(logging.DEBUG)


def redact_uvicorn_logs() -> None:
    """Install the filters on uvicorn's loggers (once; uvicorn configures them at start)."""
    for name in _LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(RedactTokens())
    access = logging.getLogger("uvicorn.access")
    if not any(isinstance(f, StaticAtDebug) for f in access.filters):
        access.addFilter(StaticAtDebug())
