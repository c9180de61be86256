"""Server settings, read from the command line, the environment (``UNO_*``) or defaults."""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Everything the server reads from outside; docs/deploy.md names the first four."""

    model_config = SettingsConfigDict(env_prefix="UNO_", extra="ignore")

    host: str = "127.0.0.1"
    port: int = 8000
    # None: the in-process room store (one server process only).
    redis_url: str | None = Field(
        default=None, validation_alias=AliasChoices("UNO_REDIS_URL", "redis_url")
    )
    # The seeds (HOST:PORT,...) of a Redis Cluster to keep rooms on (instead of redis_url).
    redis_cluster: str | None = Field(
        default=None, validation_alias=AliasChoices("UNO_REDIS_CLUSTER", "redis_cluster")
    )
    # On a Redis Cluster: a commit is published and acknowledged only once this many
    # replicas have it (WAIT), or refused as unavailable after the timeout. 0: at once.
    redis_wait_replicas: int = Field(default=0, ge=0)
    redis_wait_timeout_ms: int = Field(default=1000, ge=1)
    # How long the server waits for Redis at start (connect and first reply) before it
    # gives up and exits.
    redis_connect_timeout_seconds: float = 5.0
    # Prefix of every Redis key and channel (several deployments can share one Redis).
    redis_prefix: str = "uno"
    database_url: str = Field(
        default="sqlite+aiosqlite:///./uno.db",
        validation_alias=AliasChoices("UNO_DATABASE_URL", "database_url"),
    )
    # The origins (scheme://host[:port]) browsers load the client from, as a JSON list;
    # only these may open a WebSocket. Empty: the origin the server was started with
    # (http://host:port; each loopback name for a loopback host).
    public_origins: list[str] = []
    # More browser origins allowed to open a WebSocket (other sites); "*" allows any.
    allowed_origins: list[str] = []
    # Behind a reverse proxy: read the client's address (for rate limits and logs) and
    # scheme from X-Forwarded-For / X-Forwarded-Proto, but only on connections from
    # ``trusted_proxies`` (comma-separated addresses or networks); anyone else's are ignored.
    proxy_headers: bool = False
    trusted_proxies: str = "127.0.0.1,::1"
    # Largest WebSocket message accepted (bytes, UTF-8). A larger one is answered with the
    # error ``too_large`` and the socket is closed with 1009; the WebSocket layer itself
    # cuts off (1009, no message) frames over twice this, which it would have to buffer.
    max_message_bytes: int = 64 * 1024
    # Liveness: the server pings every socket (WebSocket ping frames, which every client
    # library answers by itself) this often, and closes one whose pong has not come within
    # the timeout with 4408.
    heartbeat_interval_seconds: float = 20.0
    heartbeat_timeout_seconds: float = 20.0
    # Per-connection token bucket: sustained messages per second and burst size.
    rate_per_second: float = 20.0
    rate_burst: int = 40
    # Sockets one seat token may hold open at once, and spectator sockets per room; more
    # are refused (close 4429).
    max_sockets_per_seat: int = 4
    max_spectators: int = 200
    # Spectator sockets one client address may hold open in one room (counted per node).
    max_spectators_per_address: int = Field(default=8, ge=1)
    # Chat and reactions, in the ``limits`` notation ("" no limit): each seat (all its
    # sockets) and each spectator address, and a room's spectators together, whose every
    # line reaches every spectator. Over either: ``chat_rate``, the line not relayed.
    chat_rate: str = "5/10 seconds"
    spectator_chat_rate: str = "20/10 seconds"
    # Spectators come and go without a change of the room; the count views show is
    # refreshed by the next change, or by a change of its own this long after it went stale.
    watchers_refresh_seconds: float = 5.0
    # Changes kept per room so a reconnecting client can resume; idle history expires.
    history_size: int = 64
    history_ttl_seconds: int = 300
    # Every key of a room expires this long after the room's last change (a room nobody
    # uses: an abandoned lobby, a table everyone left), and sooner once its match is over
    # (status "over"); the lobby and join codes are swept of expired rooms this often.
    room_ttl_seconds: int = 86_400
    finished_room_ttl_seconds: int = 3_600
    store_sweep_seconds: float = 300.0
    # The format the Redis stores write room documents in (1 or 2; both are read): 2, the
    # smaller commit, since every version that may share a Redis with this one reads it
    # (docs/architecture.md, "The room document's format").
    room_format: int = Field(default=2, ge=1, le=2)
    # The writer's lease on a room: a crashed writer's rooms move on after this.
    lease_ttl_ms: int = 5000
    # A writer with nothing to do for this long gives its room up.
    writer_idle_seconds: float = 30.0
    # How long a client waits for its command to be applied before it is told so.
    command_timeout_seconds: float = 10.0
    # How often each node looks for finished deals left in the outboxes of rooms that no
    # writer holds (and archives them); also once at start.
    outbox_drain_seconds: float = 60.0
    # Who writes finished deals to SQL: "node" (each node, in its own event loop);
    # "process" (``python -m app`` starts one ``python -m app.archiver`` beside its
    # workers, which reads the outboxes from the store: the nodes' loops never run
    # SQLAlchemy); "external" (the same, with the archive process run apart, e.g. a
    # service of its own). Both need a Redis store: with the in-process store the node
    # archives itself.
    archiver: Literal["node", "process", "external"] = "node"
    # The archive process: how often it looks for finished deals in the outboxes.
    archive_poll_seconds: float = Field(default=0.5, gt=0)
    # The room's own timers: how often each node looks for rooms whose timer is due and
    # no writer holds; a bot's pause before it acts (jittered); how long a room with no
    # connected person keeps its match, and a lobby with nobody seated stays.
    timer_poll_seconds: float = 0.5
    bot_delay_ms: int = 900
    empty_room_seconds: float = 300.0
    empty_lobby_seconds: float = 1800.0
    # An empty lobby whose host has gone (its creator sat in it and left, and nobody sits)
    # ends this soon instead.
    left_lobby_seconds: float = 60.0
    # How often each node looks after running tournaments (opens, starts and reads their
    # tables: app.tournaments.runner).
    tournament_poll_seconds: float = 0.5
    # Quick play: how long the oldest waiting player waits for a full table by rating
    # before a table starts with 3 players or with bots (docs/ratings.md).
    quickplay_fill_seconds: float = Field(default=20.0, ge=0)
    # Rooms answered by GET /api/rooms at most.
    lobby_limit: int = 100
    # How often /ws/lobby's feed reads the lobby while some lobby socket is open.
    lobby_poll_seconds: float = 0.5
    # Claim windows (fairRaces, docs/fairness.md): the longest a claim is held (ms), how
    # long a window lasts beyond the claimants' round-trip gap (ms), the most network
    # delay a connection is credited with (ms), how far above its WebSocket ping round
    # trip its app ping round trip is believed (ms), and how often each socket is pinged
    # to measure them (s).
    race_window_ms: int = Field(default=250, ge=1, le=1000)
    race_window_margin_ms: int = Field(default=25, ge=0, le=1000)
    race_delay_cap_ms: int = Field(default=250, ge=0, le=1000)
    race_ws_slack_ms: int = Field(default=15, ge=0, le=1000)
    ping_seconds: float = Field(default=1.0, gt=0)
    # REST writes (POST/PUT/PATCH/DELETE under /api/) per client address, and room
    # creations (POST /api/rooms) besides, in the notation of the ``limits`` library
    # ("120/minute;1000/hour"); "" turns a limit off. Over it: 429 rate_limited.
    rest_write_rate: str = "120/minute"
    room_create_rate: str = "20/minute"
    # Lobby rooms one client address may have open at once (POST /api/rooms past it:
    # 429 too_many_rooms), counted across nodes.
    max_open_lobbies_per_address: int = Field(default=10, ge=1)
    # Accounts made from one client address ("10/hour", the ``limits`` notation; ""
    # turns it off). Over it: 429 account/too_many_sign_ups.
    sign_up_rate: str = "10/hour"
    # Password hashing (argon2id): its cost, and the threads it runs on with the hashings
    # that may wait for one; past those, 503 account/busy. A hash made with another cost
    # is made anew at its account's next sign-in.
    argon2_time_cost: int = Field(default=3, ge=1)
    argon2_memory_kib: int = Field(default=65536, ge=8)
    argon2_parallelism: int = Field(default=4, ge=1)
    password_hash_workers: int = Field(default=1, ge=1)
    password_hash_queue: int = Field(default=8, ge=0)

    @property
    def max_frame_bytes(self) -> int:
        """What the WebSocket layer buffers at most: room to read a message that is too
        large, to answer ``too_large``, before closing."""
        return 2 * self.max_message_bytes

    @property
    def archives_elsewhere(self) -> bool:
        """Whether an archive process writes the nodes' finished deals to SQL: asked for,
        and the rooms are in a store another process can read."""
        shared = self.redis_url is not None or self.redis_cluster is not None
        return self.archiver != "node" and shared


@lru_cache
def get_settings() -> Settings:
    return Settings()
