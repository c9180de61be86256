"""The REST side: every route of the server's API that a client calls (docs/protocol.md),
named as uno-client (clients/js) names them, in Python's style: ``joinRoom`` is
``join_room``, ``matchRatings`` is ``match_ratings``. What carries a token comes back as
a small frozen dataclass; what only informs comes back as the server's JSON.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from types import TracebackType
from typing import Any
from urllib.parse import quote

import httpx
import websockets


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
    """A seat at a room's table: its token opens the seat's socket (``server.session``).
    ``player_id`` is None for a seat quick play found (its socket names no player)."""

    room_id: str
    seat: int
    token: str
    player_id: str | None = None


@dataclass(frozen=True)
class Account:
    """A signed-in account: its ``token`` is its bearer (sign-in lasts until sign-out)."""

    player_id: str
    name: str
    token: str


@dataclass(frozen=True)
class Tournament:
    tournament_id: str
    host_token: str


@dataclass(frozen=True)
class Entrant:
    """A tournament's registered player: its ``token`` checks in, withdraws and finds
    the player's seat each round."""

    tournament_id: str
    player_id: str
    token: str


def _path(*parts: str | int) -> str:
    return "/".join(quote(str(p), safe="") for p in parts)


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

    async def request(self, method: str, path: str, token: str | None = None, **kw: Any) -> Any:
        """One REST call: the answer's JSON (None for an empty one); a refusal raises
        :class:`ApiError` with the server's code. ``token`` goes as the bearer."""
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

    async def _get(self, path: str, token: str | None = None, **kw: Any) -> dict[str, Any]:
        found: dict[str, Any] = await self.request("GET", path, token, **kw)
        return found

    # ---- rooms ----------------------------------------------------------------------

    async def protocol(self) -> dict[str, Any]:
        """``GET /api/protocol``: the version, limits and heartbeat."""
        return await self._get("/api/protocol")

    async def list_rooms(self, status: str | None = None) -> list[dict[str, Any]]:
        """``GET /api/rooms``: the public rooms open to join (``"playing"``: those
        being played)."""
        params = {"status": status} if status else None
        rooms: list[dict[str, Any]] = await self.request("GET", "/api/rooms", params=params)
        return rooms

    async def lobby(self) -> list[dict[str, Any]]:
        """The public rooms open to join (:meth:`list_rooms`)."""
        return await self.list_rooms()

    async def get_room(self, room_id: str) -> dict[str, Any]:
        """``GET /api/rooms/{roomId}``: its seats, rules and status."""
        return await self._get(f"/api/rooms/{_path(room_id)}")

    async def create_room(
        self,
        name: str,
        rules: dict[str, Any] | None = None,
        seats: int = 4,
        private: bool = False,
        **settings: Any,
    ) -> Room:
        """``POST /api/rooms`` (``settings``: any other room setting, ``rated=True``...)."""
        body = {"name": name, "rules": rules or {}, "seats": seats, "private": private}
        data = await self.request("POST", "/api/rooms", json=body | settings)
        return Room(data["roomId"], data["code"], data["hostToken"])

    async def join_room(
        self, room_id: str, name: str, account_token: str | None = None, **extra: Any
    ) -> Seat:
        """``POST /api/rooms/{roomId}/join``; with an account's token the seat is the
        account's (its name and rating)."""
        body = {"name": name} | extra
        path = f"/api/rooms/{_path(room_id)}/join"
        return _seat(await self.request("POST", path, account_token, json=body))

    join = join_room  # the name bots written before the rest of the API used

    async def join_by_code(
        self, code: str, name: str, account_token: str | None = None, **extra: Any
    ) -> Seat:
        """``POST /api/rooms/join``: join the room that has ``code`` (as :meth:`join_room`)."""
        body = {"name": name, "code": code} | extra
        return _seat(await self.request("POST", "/api/rooms/join", account_token, json=body))

    async def start_room(self, room_id: str, host_token: str) -> int:
        """``POST /api/rooms/{roomId}/start``: deal the first hand; the seq of the start."""
        data = await self.request("POST", f"/api/rooms/{_path(room_id)}/start", host_token)
        return int(data["seq"])

    async def start(self, room: Room) -> int:
        """:meth:`start_room` with the room's own host token."""
        return await self.start_room(room.room_id, room.host_token)

    async def leave_room(self, seat: Seat) -> None:
        """``POST /api/rooms/{roomId}/leave``: give the seat up (during a match a bot plays
        it on)."""
        await self.request("POST", f"/api/rooms/{_path(seat.room_id)}/leave", seat.token)

    async def add_bot(self, room: Room, level: str = "normal") -> int:
        """``POST /api/rooms/{roomId}/bots`` (host, outside a match): seat a bot of
        ``level`` (``easy``, ``normal``, ``hard``) in the lowest free seat; that seat."""
        path = f"/api/rooms/{_path(room.room_id)}/bots"
        data = await self.request("POST", path, room.host_token, json={"level": level})
        return int(data["seat"])

    async def room_events(self, room_id: str, token: str | None = None) -> dict[str, Any]:
        """``GET /api/rooms/{roomId}/events``: the current deal's events (a seat's
        ``token`` shows its own draws)."""
        return await self._get(f"/api/rooms/{_path(room_id)}/events", token)

    async def room_by_code(self, code: str) -> dict[str, Any]:
        """``GET /api/rooms/code/{code}``: the room that has this join code, as
        :meth:`get_room` shows it (whether its match has begun, before joining)."""
        return await self._get(f"/api/rooms/code/{_path(code)}")

    async def change_settings(self, room: Room, **changes: Any) -> dict[str, Any]:
        """``PATCH /api/rooms/{roomId}`` (host, outside a match): change ``name``,
        ``rules``, ``seats``, ``private``, ``spectators`` or a timer; the room."""
        path = f"/api/rooms/{_path(room.room_id)}"
        found: dict[str, Any] = await self.request("PATCH", path, room.host_token, json=changes)
        return found

    async def kick(self, room: Room, seat: int) -> None:
        """``POST /api/rooms/{roomId}/kick`` (host): the seat's player leaves and their
        name is banned from the room."""
        path = f"/api/rooms/{_path(room.room_id)}/kick"
        await self.request("POST", path, room.host_token, json={"seat": seat})

    async def mute_seat(self, room: Room, seat: int, muted: bool = True) -> None:
        """``POST /api/rooms/{roomId}/mute`` (host, any time): mute (``muted=False``:
        unmute) the seat's chat and reactions."""
        path = f"/api/rooms/{_path(room.room_id)}/mute"
        await self.request("POST", path, room.host_token, json={"seat": seat, "muted": muted})

    async def back_to_seat(self, seat: Seat) -> None:
        """``POST /api/rooms/{roomId}/back``: "I'm back", the autopilot gives the away
        seat back (``not_away`` when it is not away)."""
        await self.request("POST", f"/api/rooms/{_path(seat.room_id)}/back", seat.token)

    async def claim_win(self, seat: Seat) -> None:
        """``POST /api/rooms/{roomId}/claim``: two seats, the other away or left; the
        match ends with this seat its winner."""
        await self.request("POST", f"/api/rooms/{_path(seat.room_id)}/claim", seat.token)

    def session(self, seat: Seat | None, room_id: str | None = None) -> Any:
        """A :class:`~uno_client.RoomSession` for ``seat`` (None: a spectator of room_id)."""
        from uno_client.session import RoomSession

        target = seat.room_id if seat is not None else room_id
        assert target is not None
        return RoomSession(self.ws_base, target, seat.token if seat else None)

    # ---- reference --------------------------------------------------------------------

    async def rules(self) -> dict[str, Any]:
        """``GET /api/rules``: every rule option and preset, and the lists the server
        decides (``ratingPools``, ``botLevels``, ``matchEndOptions``)."""
        return await self._get("/api/rules")

    async def cards(self) -> dict[str, Any]:
        """``GET /api/cards``: every deck's card codes with colour, rank, name and count."""
        return await self._get("/api/cards")

    async def drinks(self) -> dict[str, Any]:
        """``GET /api/drinks``: the beverage table of the drinking rules."""
        return await self._get("/api/drinks")

    # ---- tournaments ----------------------------------------------------------------

    async def create_tournament(
        self, name: str, account_token: str | None = None, **settings: Any
    ) -> Tournament:
        """``POST /api/tournaments`` (``settings``: ``rounds`` and ``turnSeconds``, which
        it needs, and ``rules``, ``tableSize``...). With an account's token the account
        hosts it too: its token works as the host token."""
        body = {"name": name} | settings
        data = await self.request("POST", "/api/tournaments", account_token, json=body)
        return Tournament(data["tournamentId"], data["hostToken"])

    async def list_tournaments(self) -> list[dict[str, Any]]:
        """``GET /api/tournaments``."""
        found: list[dict[str, Any]] = await self.request("GET", "/api/tournaments")
        return found

    async def get_tournament(self, tournament_id: str) -> dict[str, Any]:
        """``GET /api/tournaments/{id}``: its status, players and every round's tables."""
        return await self._get(f"/api/tournaments/{_path(tournament_id)}")

    async def standings(self, tournament_id: str) -> dict[str, Any]:
        """``GET /api/tournaments/{id}/standings``: ``{tieBreaks, rows}``."""
        return await self._get(f"/api/tournaments/{_path(tournament_id)}/standings")

    async def join_tournament(
        self, tournament_id: str, name: str, account_token: str | None = None
    ) -> Entrant:
        """``POST /api/tournaments/{id}/players``: register ``name`` (with an account's
        token, the account registers: its id and name)."""
        path = f"/api/tournaments/{_path(tournament_id)}/players"
        data = await self.request("POST", path, account_token, json={"name": name})
        return Entrant(tournament_id, data["playerId"], data["token"])

    async def check_in(self, entrant: Entrant) -> dict[str, Any]:
        """``POST /api/tournaments/{id}/check-in`` once the host opened check-in."""
        path = f"/api/tournaments/{_path(entrant.tournament_id)}/check-in"
        found: dict[str, Any] = await self.request("POST", path, entrant.token)
        return found

    async def withdraw(self, entrant: Entrant) -> dict[str, Any]:
        """``POST /api/tournaments/{id}/withdraw``: leave it (a bot plays a running table
        on); kept in the standings as withdrawn."""
        path = f"/api/tournaments/{_path(entrant.tournament_id)}/withdraw"
        found: dict[str, Any] = await self.request("POST", path, entrant.token)
        return found

    async def tournament_seat(self, entrant: Entrant) -> Seat:
        """``GET /api/tournaments/{id}/seat``: this round's seat (its room and token);
        ``tournament/not_seated`` while the player has none."""
        path = f"/api/tournaments/{_path(entrant.tournament_id)}/seat"
        data = await self._get(path, entrant.token)
        return Seat(data["roomId"], data["seat"], data["token"], entrant.player_id)

    # ---- a tournament's host console: each with its host token, the tournament after --

    async def open_check_in(self, tournament: Tournament) -> dict[str, Any]:
        """``POST /api/tournaments/{id}/check-in/open``: who does not check in is dropped
        at the start."""
        return await self._host(tournament, "check-in/open")

    async def start_tournament(self, tournament: Tournament) -> dict[str, Any]:
        """``POST /api/tournaments/{id}/start``: seat round 1."""
        return await self._host(tournament, "start")

    async def next_round(self, tournament: Tournament, round: int | None = None) -> dict[str, Any]:
        """``POST /api/tournaments/{id}/rounds``: seat the next round (``round``: the one
        meant, so that a second call for it is refused)."""
        return await self._host(tournament, "rounds", None if round is None else {"round": round})

    async def pause_tournament(self, tournament: Tournament) -> dict[str, Any]:
        """``POST /api/tournaments/{id}/pause``: every table's clocks stop."""
        return await self._host(tournament, "pause")

    async def resume_tournament(self, tournament: Tournament) -> dict[str, Any]:
        """``POST /api/tournaments/{id}/resume``: the tables go on."""
        return await self._host(tournament, "resume")

    async def reseat(
        self, tournament: Tournament, player_id: str, with_player_id: str
    ) -> dict[str, Any]:
        """``POST /api/tournaments/{id}/reseat``: two players of this round change tables."""
        body = {"playerId": player_id, "withPlayerId": with_player_id}
        return await self._host(tournament, "reseat", body)

    async def disqualify(
        self, tournament: Tournament, player_id: str, reason: str
    ) -> dict[str, Any]:
        """``POST /api/tournaments/{id}/players/{playerId}/disqualify``, with the public
        reason."""
        action = f"players/{_path(player_id)}/disqualify"
        return await self._host(tournament, action, {"reason": reason})

    async def reinstate(self, tournament: Tournament, player_id: str) -> dict[str, Any]:
        """``POST /api/tournaments/{id}/players/{playerId}/reinstate``: a withdrawn player
        plays again from the next round."""
        return await self._host(tournament, f"players/{_path(player_id)}/reinstate")

    async def correct_result(
        self, tournament: Tournament, table_id: str, result: list[dict[str, Any]], reason: str
    ) -> dict[str, Any]:
        """``PUT /api/tournaments/{id}/tables/{tableId}/result``: replace a table's result,
        ``[{playerId, place, leftInHand?, dealsWon?}]``, with the reason the audit log
        shows."""
        path = f"/api/tournaments/{_path(tournament.tournament_id, 'tables', table_id, 'result')}"
        body = {"result": result, "reason": reason}
        found: dict[str, Any] = await self.request("PUT", path, tournament.host_token, json=body)
        return found

    async def end_tournament(self, tournament: Tournament) -> dict[str, Any]:
        """``POST /api/tournaments/{id}/end``: end now; the standings are final."""
        return await self._host(tournament, "end")

    async def _host(
        self, tournament: Tournament, action: str, body: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        path = f"/api/tournaments/{_path(tournament.tournament_id)}/{action}"
        found: dict[str, Any] = await self.request("POST", path, tournament.host_token, json=body)
        return found

    # ---- accounts, ratings and quick play -------------------------------------------
    # An account token goes out only in the Authorization header, never in a URL.

    async def sign_up(self, name: str, password: str) -> Account:
        """``POST /api/accounts``: a new account, signed in."""
        body = {"name": name, "password": password}
        return _account(await self.request("POST", "/api/accounts", json=body))

    async def sign_in(self, name: str, password: str) -> Account:
        """``POST /api/sessions``."""
        body = {"name": name, "password": password}
        return _account(await self.request("POST", "/api/sessions", json=body))

    async def sign_out(self, account: Account) -> None:
        """``DELETE /api/sessions``: the account's token is refused from now on."""
        await self.request("DELETE", "/api/sessions", account.token)

    async def me(self, account: Account) -> dict[str, Any]:
        """``GET /api/me``: the account's own profile."""
        return await self._get("/api/me", account.token)

    async def player(self, name: str) -> dict[str, Any]:
        """``GET /api/players/{name}``: a player's public profile (ratings, stats, the
        recent matches)."""
        return await self._get(f"/api/players/{_path(name)}")

    async def leaderboard(self, pool: str = "classic", limit: int | None = None) -> dict[str, Any]:
        """``GET /api/leaderboard``: ``{pool, players}``."""
        params: dict[str, Any] = {"pool": pool} | ({"limit": limit} if limit else {})
        return await self._get("/api/leaderboard", params=params)

    async def match_ratings(self, match_id: str) -> dict[str, Any]:
        """``GET /api/matches/{matchId}/ratings``: each rated seat's change (``rated``
        false until the match is stored and rated, or when it is not rated)."""
        return await self._get(f"/api/matches/{_path(match_id)}/ratings")

    async def quickplay(
        self, pool: str, name: str | None = None, account: Account | None = None
    ) -> str:
        """``POST /api/quickplay``: queue for a rated deal of ``pool`` as ``account`` or as
        a guest called ``name``; the ticket (:meth:`quickplay_seat` waits for its table)."""
        body = {"pool": pool} | ({"name": name} if name is not None else {})
        token = account.token if account else None
        data = await self.request("POST", "/api/quickplay", token, json=body)
        return str(data["ticket"])

    async def leave_queue(self, ticket: str) -> None:
        """``DELETE /api/quickplay/{ticket}``: leave the queue."""
        await self.request("DELETE", f"/api/quickplay/{_path(ticket)}")

    async def quickplay_seat(self, ticket: str) -> Seat:
        """Wait on the ticket's socket (``/ws/quickplay?ticket=``) for its table: the seat
        found. The open socket keeps the ticket in the queue; a ticket the server does not
        know raises :class:`ApiError` (``quickplay/no_ticket``)."""
        url = f"{self.ws_base}/ws/quickplay?ticket={quote(ticket, safe='')}"
        async with websockets.connect(url, subprotocols=["uno.v1"]) as ws:  # type: ignore[list-item]
            async for raw in ws:
                message = json.loads(raw)
                if message.get("type") == "matched":
                    return _seat(message)
        raise ApiError(404, "quickplay/no_ticket", f"no ticket {ticket!r} in the queue")

    # ---- history --------------------------------------------------------------------

    async def player_matches(
        self, player_id: str, limit: int = 50, offset: int = 0
    ) -> dict[str, Any]:
        """``GET /api/players/{playerId}/matches``: finished matches, newest first."""
        params = {"limit": limit, "offset": offset}
        return await self._get(f"/api/players/{_path(player_id)}/matches", params=params)

    async def match(self, match_id: str) -> dict[str, Any]:
        """``GET /api/matches/{matchId}``: a match with its players and every recorded deal."""
        return await self._get(f"/api/matches/{_path(match_id)}")

    async def replay(self, match_id: str, deal: int) -> dict[str, Any]:
        """``GET /api/matches/{matchId}/deals/{n}/replay`` (once the match is over): the
        deal's start state, its actions and the state they lead to."""
        return await self._get(f"/api/matches/{_path(match_id, 'deals', deal, 'replay')}")

    async def frames(self, match_id: str, deal: int) -> dict[str, Any]:
        """``GET /api/matches/{matchId}/deals/{n}/frames`` (once the match is over): the
        deal frame by frame, ``{matchId, deal, deals, players, frames: [{index, seq, seat,
        action, events, view}]}`` (``view["hands"]``: every seat's hand)."""
        return await self._get(f"/api/matches/{_path(match_id, 'deals', deal, 'frames')}")


def _seat(data: dict[str, Any]) -> Seat:
    return Seat(data["roomId"], data["seat"], data["token"], data.get("playerId"))


def _account(data: dict[str, Any]) -> Account:
    return Account(data["playerId"], data["name"], data["token"])
