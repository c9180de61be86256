"""The app's one refusal type: every room operation, REST route and socket message that
refuses (rooms, accounts, quick play, tournaments alike) raises a :class:`RoomError` (a
status, a stable code, a message; on a socket, the ``ref`` of the message it answers).
The engine's refusals become one through :meth:`RoomError.from_engine`, and only there."""

from __future__ import annotations

from typing import Any

from engine.errors import EngineError


class RoomError(Exception):
    """A refusal with an HTTP-like ``status``, a machine-readable ``code`` and an English
    ``message``; REST answers it as ``{"code", "message"}``, the socket as an ``error``."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        detail: dict[str, Any] | None = None,
        ref: str | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        # Extra fields of the answer (``won``: the change a lost race went to).
        self.detail = detail or {}
        # The id of the socket message refused, when the refusal can name it.
        self.ref = ref

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, **self.detail}

    @classmethod
    def from_engine(
        cls, err: EngineError, status: int, detail: dict[str, Any] | None = None, about: str = ""
    ) -> RoomError:
        """The engine's refusal ``err`` with its code unchanged, answered with ``status``
        (what it means where it was asked: a bad request, a conflict, bad rules); ``about``
        says what the engine was asked, after its message."""
        message = f"{err.message}: {about}" if about else err.message
        return cls(status, err.code, message, detail)

    @classmethod
    def from_result(cls, result: dict[str, Any]) -> RoomError:
        detail = {k: result[k] for k in DETAIL_KEYS if k in result}
        return cls(result.get("status", 409), result["code"], result["message"], detail)


# The fields a refusal may carry beside its code and message.
DETAIL_KEYS = ("won", "race", "min", "max")


def not_found(room_id: str) -> RoomError:
    return RoomError(404, "room_not_found", f"no room {room_id!r}")


def store_unavailable() -> RoomError:
    """The store cannot be reached (down or restarting): the request may succeed later."""
    return RoomError(503, "unavailable", "the room store cannot be reached; retry later")


def store_full() -> RoomError:
    """Redis is at its memory limit and refuses writes (``maxmemory-policy noeviction``):
    nothing was written; the same request may succeed later."""
    return RoomError(503, "unavailable", "the room store is full; retry later")
