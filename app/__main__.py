"""``python -m app``: run the server: one process, or with ``--workers N`` (or an archive
process, ``--archiver process``) a supervisor of that many server processes sharing one
port (``SO_REUSEPORT``: the kernel spreads the connections), each a node of its own, and
of the archive process (``python -m app.archiver``). A child that dies is started again;
SIGTERM or SIGINT stops them all, the server processes first."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import socket
import subprocess
import sys
import time

import uvicorn

from app.main import create_app
from app.settings import Settings
from app.ws.transport import uvicorn_options


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m app", description="Run the UNO server.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument(
        "--redis",
        default=os.environ.get("UNO_REDIS_URL"),
        help="Redis URL for the room store (env UNO_REDIS_URL; none: in-process store)",
    )
    parser.add_argument(
        "--redis-cluster",
        default=os.environ.get("UNO_REDIS_CLUSTER"),
        metavar="HOST:PORT[,HOST:PORT...]",
        help="seeds of a Redis Cluster for the room store (env UNO_REDIS_CLUSTER); "
        "instead of --redis",
    )
    parser.add_argument(
        "--database",
        default=os.environ.get("UNO_DATABASE_URL"),
        help="SQLAlchemy async URL (env UNO_DATABASE_URL; none: ./uno.db SQLite)",
    )
    parser.add_argument(
        "--proxy-headers",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="behind a reverse proxy: take client addresses from X-Forwarded-For, on "
        "connections from --trusted-proxies only (env UNO_PROXY_HEADERS; default off)",
    )
    parser.add_argument(
        "--trusted-proxies",
        default=None,
        help="comma-separated addresses or networks whose X-Forwarded-* headers are "
        "believed (env UNO_TRUSTED_PROXIES; default 127.0.0.1,::1)",
    )
    parser.add_argument(
        "--public-origin",
        action="append",
        default=None,
        metavar="ORIGIN",
        help="an origin (scheme://host[:port]) browsers load the client from; only these may "
        "open a socket; repeatable (env UNO_PUBLIC_ORIGINS, a JSON list; default: "
        "http://HOST:PORT the server is started on)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=int(os.environ.get("UNO_WORKERS", "1")),
        help="server processes on the one port, each a node (env UNO_WORKERS; default 1); "
        "more than one needs --redis or --redis-cluster",
    )
    parser.add_argument(
        "--archiver",
        choices=("node", "process", "external"),
        default=None,
        help="who writes finished deals to SQL: each node (default), an archive process "
        "started beside the server processes, or one run apart (env UNO_ARCHIVER; the "
        "last two need a Redis store)",
    )
    # A server process started by the supervisor: binds its port with SO_REUSEPORT.
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--log-level", default="info")
    args = parser.parse_args(argv)
    if args.workers < 1:
        parser.error("--workers must be at least 1")
    return args


def settings_from(args: argparse.Namespace) -> Settings:
    overrides: dict[str, object] = {"host": args.host, "port": args.port}
    overrides["redis_url"] = args.redis or None
    overrides["redis_cluster"] = args.redis_cluster or None
    if args.database:
        overrides["database_url"] = args.database
    if args.proxy_headers is not None:
        overrides["proxy_headers"] = args.proxy_headers
    if args.trusted_proxies is not None:
        overrides["trusted_proxies"] = args.trusted_proxies
    if args.public_origin:
        overrides["public_origins"] = args.public_origin
    if args.archiver:
        overrides["archiver"] = args.archiver
    return Settings(**overrides)  # type: ignore[arg-type]


def check_store(settings: Settings) -> None:
    """Exit with a clear message now if the Redis (or Redis Cluster) given cannot be
    reached (instead of a traceback from the server's startup, or a hang on an address that
    never answers)."""
    if settings.redis_url is None and settings.redis_cluster is None:
        return
    from app.store.base import RoomStore, StoreUnreachable
    from app.store.redis import RedisStore
    from app.store.redis_cluster import RedisClusterStore

    async def reach() -> None:
        timeout = settings.redis_connect_timeout_seconds
        store: RoomStore
        if settings.redis_cluster is not None:
            store = await RedisClusterStore.connect(settings.redis_cluster, timeout)
        else:
            store = await RedisStore.connect(settings.redis_url, timeout)  # type: ignore[arg-type]
        await store.close()

    try:
        asyncio.run(reach())
    except StoreUnreachable as err:
        sys.exit(f"python -m app: {err}")


def serve(settings: Settings, log_level: str, reuse_port: bool) -> None:
    """Run one server process (a node) until it is told to stop."""
    config = uvicorn.Config(
        create_app(settings),
        host=settings.host,
        port=settings.port,
        log_level=log_level,
        **uvicorn_options(settings),
        # uvicorn would believe X-Forwarded-For from 127.0.0.1 unless told otherwise; the
        # server does only when asked to, and only from the proxies named.
        proxy_headers=settings.proxy_headers,
        forwarded_allow_ips=settings.trusted_proxies,
    )
    server = uvicorn.Server(config)
    server.run(sockets=[shared_socket(settings.host, settings.port)] if reuse_port else None)
    if not server.started:
        sys.exit(3)  # as uvicorn.run: the start failed (the reason is in the log)


def shared_socket(host: str, port: int) -> socket.socket:
    """A socket bound to host:port that other processes may bind as well (SO_REUSEPORT):
    the kernel hands each new connection to one of them."""
    family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind(address)
    sock.set_inheritable(False)
    return sock


def migrate(settings: Settings) -> None:
    """Bring the SQL schema up to date once, before the processes that share it start."""
    from app.db import Database

    async def run() -> None:
        db = await Database.connect(settings.database_url)
        await db.close()

    asyncio.run(run())


class Supervisor:
    """The server processes and the archive process: started, started again when one
    dies, stopped on SIGTERM or SIGINT."""

    def __init__(self, commands: dict[str, list[str]]) -> None:
        self._commands = commands
        self._children: dict[str, subprocess.Popen[bytes]] = {}
        self._stopping = False

    def run(self) -> int:
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, self._stop)
        for name in self._commands:
            self._start(name)
        while not self._stopping:
            for name, child in list(self._children.items()):
                if child.poll() is not None and not self._stopping:
                    log.warning("%s exited (%s); starting it again", name, child.returncode)
                    time.sleep(1)  # a child that cannot start is not restarted in a spin
                    self._start(name)
            time.sleep(0.2)
        # The server processes first (they finish their writers' logs), the archive last.
        names = sorted(self._children, key=lambda n: n == "archiver")
        for group in ([n for n in names if n != "archiver"], ["archiver"]):
            for name in group:
                if name in self._children and self._children[name].poll() is None:
                    self._children[name].send_signal(signal.SIGTERM)
            for name in group:
                stopping = self._children.get(name)
                if stopping is None:
                    continue
                try:
                    stopping.wait(45)
                except subprocess.TimeoutExpired:
                    stopping.kill()
                    stopping.wait()
        return 0

    def _start(self, name: str) -> None:
        self._children[name] = subprocess.Popen(self._commands[name])

    def _stop(self, signum: int, frame: object) -> None:
        self._stopping = True


log = logging.getLogger("app")


def child_commands(
    argv: list[str], settings: Settings, workers: int, archive: bool
) -> dict[str, list[str]]:
    """The command line of each process the supervisor runs."""
    commands = {
        f"worker {i + 1}": [sys.executable, "-m", "app", *argv, "--workers", "1", "--worker"]
        for i in range(workers)
    }
    if archive:
        store = (
            ["--redis-cluster", settings.redis_cluster]
            if settings.redis_cluster is not None
            else ["--redis", settings.redis_url or ""]
        )
        commands["archiver"] = [
            sys.executable,
            "-m",
            "app.archiver",
            *store,
            "--database",
            settings.database_url,
        ]
    return commands


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    settings = settings_from(args)
    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s %(name)s %(message)s")
    shared = settings.redis_url is not None or settings.redis_cluster is not None
    if args.workers > 1 and not shared:
        sys.exit(
            "python -m app: --workers needs --redis or --redis-cluster (the in-process store "
            "belongs to one process)"
        )
    check_store(settings)
    archive = settings.archiver == "process" and settings.archives_elsewhere
    if args.worker or (args.workers == 1 and not archive):
        serve(settings, args.log_level, reuse_port=args.worker)
        return
    migrate(settings)
    sys.exit(Supervisor(child_commands(argv, settings, args.workers, archive)).run())


if __name__ == "__main__":
    main()
