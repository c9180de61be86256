"""The app factory: routers, error format, and the lifespan that opens and closes
the room store, the SQL database and this node's room service."""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Literal

import orjson
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response

from app import compiled
from app.api import (
    accounts,
    cards,
    history,
    players,
    protocol,
    quickplay,
    reference,
    rooms,
    scoresheets,
    tournament_archive,
    tournament_host,
    tournaments,
)
from app.api.errors import ErrorOut, validation_body
from app.api.routing import MethodNotAllowed
from app.db import Database
from app.errors import RoomError, store_full, store_unavailable
from app.limits import RateLimitMiddleware, RestLimits, SpectatorSockets, document_429
from app.logs import redact_uvicorn_logs
from app.metrics import CONTENT_TYPE as METRICS_TYPE
from app.metrics import Metrics
from app.open_rooms import OpenLobbies
from app.pinger import Pinger
from app.quickplay.matcher import Matcher
from app.quickplay.queue import queue_beside
from app.rooms.autoplay import RoomTimes
from app.rooms.races import RaceSettings
from app.rooms.service import RoomService
from app.settings import Settings, get_settings
from app.sign_in import passwords_for, sign_in_limits_for
from app.store import OUTAGE, RoomStore, open_room_store
from app.store.base import StoreFull
from app.tournaments.runner import TournamentRunner
from app.tournaments.service import TournamentService
from app.tournaments.store import tournaments_beside
from app.ws import endpoint, lobby, tournament_feed
from app.ws import quickplay as quickplay_socket

log = logging.getLogger(__name__)

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
# The browser client's protocol client: the uno-client package and its one dependency,
# served as they are (no bundler); web/index.html maps their names to these paths.
JS_CLIENT_DIR = Path(__file__).resolve().parent.parent / "clients" / "js"
JS_CLIENT_MOUNTS = {
    "/uno-client": JS_CLIENT_DIR / "src",
    "/vendor/fast-json-patch": JS_CLIENT_DIR / "vendor" / "fast-json-patch",
}


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    settings: Settings = app.state.settings
    redact_uvicorn_logs()  # after uvicorn configured its loggers
    loop = type(asyncio.get_running_loop())
    log.info("event loop: %s.%s", loop.__module__, loop.__qualname__)
    log.info("hot path: %s", compiled.state)
    store = await open_room_store(settings)
    await _warn_about(store)
    db = await Database.connect(settings.database_url)
    rest_limits = RestLimits(
        settings.rest_write_rate,
        settings.room_create_rate,
        settings.redis_url,
        prefix=settings.redis_prefix,
        redis_cluster=settings.redis_cluster,
    )
    service = RoomService(
        store,
        db,
        lease_ttl_ms=settings.lease_ttl_ms,
        writer_idle_seconds=settings.writer_idle_seconds,
        command_timeout_seconds=settings.command_timeout_seconds,
        outbox_drain_seconds=settings.outbox_drain_seconds,
        metrics=app.state.metrics,
        watchers_refresh_seconds=settings.watchers_refresh_seconds,
        races=RaceSettings(
            window_ms=settings.race_window_ms,
            margin_ms=settings.race_window_margin_ms,
            delay_cap_ms=settings.race_delay_cap_ms,
            ws_slack_ms=settings.race_ws_slack_ms,
        ),
        timer_poll_seconds=settings.timer_poll_seconds,
        times=RoomTimes(
            bot_delay_ms=settings.bot_delay_ms,
            empty_room_ms=int(settings.empty_room_seconds * 1000),
            empty_lobby_ms=int(settings.empty_lobby_seconds * 1000),
            left_lobby_ms=int(settings.left_lobby_seconds * 1000),
        ),
        archive_elsewhere=settings.archives_elsewhere,
    )
    app.state.metrics.watch(service.gauges)
    await service.start()
    # Everything alive now (modules, routes, pydantic and SQLAlchemy metadata: hundreds of
    # thousands of objects) lives as long as the process. Left to the garbage collector,
    # every full collection scans it all: pauses of 100-250 ms under load, the whole p99
    # latency at 200 rooms. Frozen, the collector skips it. The youngest generation is
    # collected less often too (defaults: 700, 10, 10): every action allocates views that
    # live until the next action, and collecting often promoted them to the old
    # generation, which then filled up and was scanned whole every few seconds.
    _tune_gc()
    app.state.store = store
    app.state.db = db
    app.state.rooms = service
    app.state.tournaments = TournamentService(tournaments_beside(store))
    app.state.tournament_runner = TournamentRunner(
        app.state.tournaments, service, db, settings.tournament_poll_seconds
    )
    app.state.tournament_runner.start()
    app.state.rest_limits = rest_limits
    app.state.spectator_sockets = SpectatorSockets()
    app.state.sign_in = sign_in_limits_for(rest_limits, settings)
    app.state.passwords = passwords_for(settings)
    app.state.open_lobbies = OpenLobbies(rest_limits, settings.empty_lobby_seconds)
    app.state.quickplay_queue = queue_beside(store)
    app.state.matcher = Matcher(
        app.state.quickplay_queue, service, db, fill_seconds=settings.quickplay_fill_seconds
    )
    app.state.matcher.start()
    app.state.ready = True
    try:
        yield
    finally:
        app.state.ready = False
        await app.state.matcher.close()
        await app.state.tournament_runner.close()
        # Sockets are closed by the server first (1012); writers then finish what their
        # logs hold, so no accepted command is lost, and only then the stores close.
        await service.close()
        await store.close()
        await db.close()
        await rest_limits.close()
        app.state.passwords.close()


async def _warn_about(store: RoomStore) -> None:
    """A production store that can lose acknowledged changes is said so in the log."""
    warnings = await store.config_warnings()
    if warnings is None:
        log.info("the room store's configuration cannot be read: persistence not checked")
    for warning in warnings or ():
        log.warning("%s", warning)


_gc_tuned = False


def _tune_gc() -> None:
    """Once per process (tests start many apps in one)."""
    global _gc_tuned
    if not _gc_tuned:
        _gc_tuned = True
        gc.collect()
        gc.freeze()
        gc.set_threshold(10_000, 5, 100)


class Health(BaseModel):
    status: Literal["ok"]
    node: str = Field(description="this node's id (one of the servers behind a balancer)")


class JSONBody(Response):
    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        return orjson.dumps(content)


def _error(status: int, code: str, message: str, **extra: Any) -> JSONBody:
    return JSONBody({"code": code, "message": message, **extra}, status_code=status)


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    app = FastAPI(
        title="UNO server",
        version="0.1.0",
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.state.ready = False
    app.state.metrics = Metrics()
    # The node's round-trip pings: one timer for all the sockets it measures.
    app.state.pinger = Pinger(settings.ping_seconds)
    app.add_middleware(RateLimitMiddleware, state=app.state)
    # The document is read at the first request, once every route is in.
    app.add_middleware(MethodNotAllowed, document=lambda: app.openapi())

    @app.exception_handler(RoomError)
    async def room_error(request: Request, exc: RoomError) -> JSONBody:
        # With what the refusal adds (a full room's code: the roomId to watch instead).
        answer = _error(exc.status, exc.code, exc.message, **exc.detail)
        if "retryAfter" in exc.detail:
            answer.headers["Retry-After"] = str(exc.detail["retryAfter"])
        return answer

    @app.exception_handler(StoreFull)
    async def full(request: Request, exc: StoreFull) -> JSONBody:
        error = store_full()
        return _error(error.status, error.code, error.message)

    async def outage(request: Request, exc: Exception) -> JSONBody:
        # The store is down or restarting: a clear answer, not a 500 with a traceback.
        log.warning("%s %s: the store cannot be reached: %r", request.method, request.url.path, exc)
        error = store_unavailable()
        return _error(error.status, error.code, error.message)

    for kind in OUTAGE:
        app.add_exception_handler(kind, outage)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONBody:
        return JSONBody(validation_body(exc.errors()), status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONBody:
        detail = exc.detail
        if isinstance(detail, dict) and "code" in detail:
            return _error(exc.status_code, detail["code"], str(detail.get("message", "")))
        if exc.status_code == 400:
            # The framework's own 400 is a body it could not read (not UTF-8, not JSON):
            # a request that does not validate, answered like every other one.
            body = validation_body([{"loc": ["body"], "msg": str(detail)}])
            return JSONBody(body, status_code=422)
        code = {404: "not_found", 405: "method_not_allowed"}.get(
            exc.status_code, f"http_{exc.status_code}"
        )
        response = _error(exc.status_code, code, str(detail))
        response.headers.update(exc.headers or {})  # a 405's Allow
        return response

    @app.get(
        "/healthz",
        tags=["ops"],
        response_model=Health,
        responses={
            503: {
                "model": ErrorOut,
                "description": "Not ready (`not_ready`: starting or stopping) or the store"
                " cannot be reached (`unavailable`)",
            }
        },
    )
    async def healthz(request: Request) -> JSONBody:
        """200 once the server accepts rooms (store reachable), else 503."""
        if not request.app.state.ready:
            return _error(503, "not_ready", "the server is not ready")
        if not await request.app.state.store.ping():
            error = store_unavailable()
            return _error(error.status, error.code, error.message)
        return JSONBody({"status": "ok", "node": request.app.state.rooms.node})

    @app.get("/metrics", tags=["ops"], include_in_schema=False)
    async def metrics(request: Request) -> Response:
        """This node's metrics in Prometheus's text format (docs/deploy.md)."""
        return Response(request.app.state.metrics.render(), media_type=METRICS_TYPE)

    app.include_router(rooms.router)
    app.include_router(reference.router)
    app.include_router(protocol.router)
    app.include_router(cards.router)
    app.include_router(history.router)
    app.include_router(scoresheets.router)
    app.include_router(tournaments.router)
    app.include_router(tournament_host.router)
    app.include_router(tournament_archive.router)
    app.include_router(accounts.router)
    app.include_router(players.router)
    app.include_router(quickplay.router)
    app.include_router(endpoint.router)
    app.include_router(lobby.router)
    app.include_router(tournament_feed.router)
    app.include_router(quickplay_socket.router)
    plain_openapi = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = document_429(plain_openapi())
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    for path, directory in JS_CLIENT_MOUNTS.items():
        if directory.is_dir():
            app.mount(path, StaticFiles(directory=directory), name=path.strip("/"))
    if WEB_DIR.is_dir():
        # Last: the client at / must not shadow the API.
        app.mount("/", StaticFiles(directory=WEB_DIR, html=True), name="web")
    return app
