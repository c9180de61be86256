"""The REST side: create, join and start rooms."""

from __future__ import annotations

from dataclasses import dataclass
from types import TracebackType
from typing import Any

import httpx


class ApiError(Exception):
    """A 4xx/5xx answer: its HTTP status, the server's ``code`` and ``message``."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Room:
    room_id: str
    code: str
    host_token: str


@dataclass(frozen=True)
class Seat:
    room_id: str
    seat: int
    token: str
    player_id: str


class UnoServer:
    """``async with UnoServer("http://127.0.0.1:8000") as server: ...``"""

    def __init__(self, base: str, *, timeout: float = 10.0) -> None:
        self.base = base.rstrip("/")
        self.ws_base = "ws" + self.base.removeprefix("http")
        self._http = httpx.AsyncClient(base_url=self.base, timeout=timeout)

    async def __aenter__(self) -> UnoServer:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, err: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    async def close(self) -> None:
        await self._http.aclose()

    async def _call(self, method: str, path: str, token: str | None = None, **kw: Any) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        response = await self._http.request(method, path, headers=headers, **kw)
        if response.status_code >= 400:
            try:
                body = response.json()
                code, message = body["code"], body["message"]
            except (ValueError, KeyError, TypeError):
                code, message = f"http_{response.status_code}", response.text
            raise ApiError(response.status_code, code, message)
        return response.json() if response.content else None

    async def protocol(self) -> dict[str, Any]:
        """``GET /api/protocol``: the version, limits and heartbeat."""
        info: dict[str, Any] = await self._call("GET", "/api/protocol")
        return info

    async def create_room(
        self,
        name: str,
        rules: dict[str, Any] | None = None,
        seats: int = 4,
        private: bool = False,
        **settings: Any,
    ) -> Room:
        body = {"name": name, "rules": rules or {}, "seats": seats, "private": private}
        data = await self._call("POST", "/api/rooms", json=body | settings)
        return Room(data["roomId"], data["code"], data["hostToken"])

    async def lobby(self) -> list[dict[str, Any]]:
        rooms: list[dict[str, Any]] = await self._call("GET", "/api/rooms")
        return rooms

    async def join(
        self, room_id: str, name: str, account_token: str | None = None, **extra: Any
    ) -> Seat:
        """``POST /api/rooms/{roomId}/join``; with an account's token the seat is the
        account's (its name and rating)."""
        body = {"name": name} | extra
        data = await self._call("POST", f"/api/rooms/{room_id}/join", account_token, json=body)
        return Seat(data["roomId"], data["seat"], data["token"], data["playerId"])

    async def start(self, room: Room) -> int:
        """Deal the first hand; the seq of the start change."""
        data = await self._call("POST", f"/api/rooms/{room.room_id}/start", room.host_token)
        return int(data["seq"])

    def session(self, seat: Seat | None, room_id: str | None = None) -> Any:
        """A :class:`~uno_client.RoomSession` for ``seat`` (None: a spectator of room_id)."""
        from uno_client.session import RoomSession

        target = seat.room_id if seat is not None else room_id
        assert target is not None
        return RoomSession(self.ws_base, target, seat.token if seat else None)
