"""Server logs without secrets: a seat token in a socket's query string proves the seat,
and a quick-play ticket (``/ws/quickplay?ticket=``) the seat it will be given, so
uvicorn's request lines (access log, and the WebSocket accept/reject lines) show them
masked."""

from __future__ import annotations

import logging
import re

_TOKEN = re.compile(r"((?:token|ticket)=)[^&\s\"']+")
_LOGGERS = ("uvicorn.access", "uvicorn.error")


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


def redact_uvicorn_logs() -> None:
    """Install the filter on uvicorn's loggers (once; uvicorn configures them at start)."""
    for name in _LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(RedactTokens())
