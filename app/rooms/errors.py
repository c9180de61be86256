"""The error every room operation raises when it refuses: a status, a stable code, a message."""

from __future__ import annotations

from typing import Any


class RoomError(Exception):
    """A refusal with an HTTP-like ``status``, a machine-readable ``code`` and an English
    ``message``; REST answers it as ``{"code", "message"}``, the socket as an ``error``."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message}

    @classmethod
    def from_result(cls, result: dict[str, Any]) -> RoomError:
        return cls(result.get("status", 409), result["code"], result["message"])


def not_found(room_id: str) -> RoomError:
    return RoomError(404, "room_not_found", f"no room {room_id!r}")
