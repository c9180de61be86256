"""The production deployment: docker-compose.yml and the proxy's config as files (Docker
is not run here), and what the server does at start with the Redis it is given."""

from __future__ import annotations

import logging
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import yaml
from live import in_ci, running_server
from own_redis import free_port, own_redis

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "docker-compose.yml"
CADDYFILE = ROOT / "deploy" / "Caddyfile"


def _defaults(value: Any) -> Any:
    """``value`` with compose's ``${NAME:-default}`` replaced by the default."""
    if isinstance(value, str):
        return re.sub(r"\$\{[A-Z_]+:-([^}]*)\}", r"\1", value)
    if isinstance(value, list):
        return [_defaults(v) for v in value]
    if isinstance(value, dict):
        return {k: _defaults(v) for k, v in value.items()}
    return value


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = _defaults(yaml.safe_load(COMPOSE.read_text()))
    return loaded


def _options(command: list[str]) -> dict[str, str]:
    """``--name value`` pairs of a command line."""
    return {
        command[i][2:]: command[i + 1]
        for i in range(len(command) - 1)
        if command[i].startswith("--") and not command[i + 1].startswith("--")
    }


def _apps(compose: dict[str, Any]) -> dict[str, Any]:
    return {
        name: service
        for name, service in compose["services"].items()
        if service.get("image") == "uno-server" and name not in ("migrate", "archiver")
    }


def test_compose_archives_deals_from_a_service_of_its_own_not_the_replicas(
    compose: dict[str, Any],
) -> None:
    archiver = compose["services"]["archiver"]
    assert archiver["command"] == ["python", "-m", "app.archiver"]
    assert "ports" not in archiver
    apps = _apps(compose)
    assert len(apps) == 2
    for app in apps.values():
        assert app["environment"]["UNO_ARCHIVER"] == "external"
        for name in ("UNO_REDIS_URL", "UNO_REDIS_CLUSTER", "UNO_DATABASE_URL"):
            assert archiver["environment"][name] == app["environment"][name]


def test_compose_redis_appends_every_write_to_a_file_on_a_volume(compose: dict[str, Any]) -> None:
    redis = compose["services"]["redis"]
    options = _options(redis["command"])
    assert options["appendonly"] == "yes"
    assert options["appendfsync"] == "everysec"  # the documented default
    volume = next(v for v in redis["volumes"] if v.endswith(":/data"))
    assert volume.split(":")[0] in compose["volumes"]  # a named volume, kept across restarts


def test_compose_redis_refuses_writes_when_full_instead_of_evicting(
    compose: dict[str, Any],
) -> None:
    options = _options(compose["services"]["redis"]["command"])
    assert options["maxmemory-policy"] == "noeviction"
    assert options["maxmemory"] not in ("", "0")  # without a limit the policy never acts


def test_compose_publishes_one_port_the_proxy_and_no_replica(compose: dict[str, Any]) -> None:
    services = compose["services"]
    published = {name: s["ports"] for name, s in services.items() if s.get("ports")}
    assert list(published) == ["proxy"]
    assert published["proxy"] == ["8000:80"]
    proxy = services["proxy"]
    assert proxy["image"].startswith("caddy:")
    assert "./deploy/Caddyfile:/etc/caddy/Caddyfile:ro" in proxy["volumes"]
    apps = _apps(compose)
    assert len(apps) >= 2
    for name in apps:
        assert proxy["depends_on"][name] == {"condition": "service_healthy"}
        assert "healthcheck" in apps[name]


def test_compose_replicas_trust_forwarded_headers_from_the_proxy_only(
    compose: dict[str, Any],
) -> None:
    proxy_address = compose["services"]["proxy"]["networks"]["uno"]["ipv4_address"]
    for service in _apps(compose).values():
        command = service["command"]
        assert "--proxy-headers" in command
        assert _options(command)["trusted-proxies"] == proxy_address
        origins = service["environment"]["UNO_PUBLIC_ORIGINS"]
        assert "http://localhost:8000" in origins  # the proxy's address, as browsers see it


def test_compose_cluster_profile_makes_a_six_node_cluster_the_replicas_can_use(
    compose: dict[str, Any],
) -> None:
    services = compose["services"]
    nodes = [name for name, s in services.items() if s.get("profiles") == ["cluster"]]
    redis_nodes = [name for name in nodes if re.fullmatch(r"redis-c\d", name)]
    assert len(redis_nodes) == 6
    for name in redis_nodes:
        options = _options(services[name]["command"])
        assert options["cluster-enabled"] == "yes" and options["appendonly"] == "yes"
        assert options["maxmemory-policy"] == "noeviction"
        assert services[name]["volumes"][0].split(":")[0] in compose["volumes"]
    init = services["redis-cluster-init"]
    assert "--cluster-replicas 1" in init["entrypoint"][-1]
    for service in _apps(compose).values():
        assert "UNO_REDIS_CLUSTER" in service["environment"]
        assert service["depends_on"]["redis-cluster-init"]["required"] is False


def test_caddyfile_balances_every_replica_with_health_checks_and_routes_rooms_by_id(
    compose: dict[str, Any],
) -> None:
    text = CADDYFILE.read_text()
    upstreams = re.findall(r"reverse_proxy ([^{]+)\{", text)
    replicas = {f"{name}:8000" for name in _apps(compose)}
    assert len(upstreams) == 2 and all(set(u.split()) == replicas for u in upstreams)
    assert re.search(r"^\s*health_uri /healthz$", text, re.M)
    # A room's requests to one replica, by its id; everything else in turn.
    assert re.search(r"^\s*request_header X-Uno-Room \{re\.room\.1\}$", text, re.M)
    assert re.search(r"^\s*lb_policy header X-Uno-Room$", text, re.M)
    assert re.search(r"^\s*lb_policy round_robin$", text, re.M)
    assert "cookie" not in text and "ip_hash" not in text and "client_ip" not in text
    assert re.search(r"^\s*handle @metrics \{\n\s*respond 404$", text, re.M)  # stays inside


def _caddy() -> str:
    binary = shutil.which("caddy")
    if binary is None:
        if in_ci():
            pytest.fail("CI=true but caddy is not installed (.ci/run installs it)")
        pytest.skip("caddy is not installed")
    return binary


def test_caddy_accepts_the_proxy_config(tmp_path: Path) -> None:
    done = subprocess.run(
        [_caddy(), "validate", "--adapter", "caddyfile", "--config", str(CADDYFILE)],
        capture_output=True,
        text=True,
        env={**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path)},
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "Valid configuration" in done.stdout + done.stderr


# Redis at start


def _start(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("UNO_")}
    return subprocess.run(
        [sys.executable, "-m", "app", "--port", str(free_port()), *args],
        cwd=tmp_path,
        env={**env, "PYTHONPATH": str(ROOT), "UNO_REDIS_CONNECT_TIMEOUT_SECONDS": "2"},
        capture_output=True,
        text=True,
        timeout=30,
    )


def test_a_redis_that_refuses_connections_stops_the_server_with_a_clear_error(
    tmp_path: Path,
) -> None:
    port = free_port()  # nothing listens there
    started = time.monotonic()
    done = _start(tmp_path, "--redis", f"redis://:secret@127.0.0.1:{port}/0")
    assert done.returncode != 0
    assert f"cannot reach Redis at redis://:***@127.0.0.1:{port}/0" in done.stderr
    assert "secret" not in done.stderr
    assert "Traceback" not in done.stderr
    assert time.monotonic() - started < 60  # the start-up check gives up; it never hangs


def test_a_redis_address_that_never_answers_stops_the_server_instead_of_hanging(
    tmp_path: Path,
) -> None:
    # Accepts connections (the kernel's backlog) and never replies.
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(16)
        port = silent.getsockname()[1]
        started = time.monotonic()
        done = _start(tmp_path, "--redis", f"redis://127.0.0.1:{port}/0")
    assert done.returncode != 0
    assert f"cannot reach Redis at redis://127.0.0.1:{port}/0" in done.stderr
    assert time.monotonic() - started < 60  # the start-up check gives up; it never hangs


def _store_warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "app.main" and r.levelno >= 30]


async def test_start_warns_when_redis_keeps_nothing_on_disk_and_may_evict(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="app.main")
    options = ("--save", "", "--appendonly", "no", "--maxmemory-policy", "allkeys-lru")
    with own_redis(tmp_path / "redis", *options) as url:
        async with running_server("redis", tmp_path, redis_url=url) as server:
            assert (await server.http.get("/healthz")).status_code == 200
    warnings = _store_warnings(caplog)
    assert any("keeps nothing on disk" in w and "appendonly yes" in w for w in warnings)
    assert any("may evict keys (maxmemory-policy allkeys-lru)" in w for w in warnings)


async def test_start_warns_when_redis_keeps_only_snapshots(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with own_redis(tmp_path / "redis", "--save", "60 1", "--appendonly", "no") as url:
        async with running_server("redis", tmp_path, redis_url=url):
            pass
    warnings = _store_warnings(caplog)
    assert any("only in its periodic snapshots" in w for w in warnings)
    assert not any("evict" in w for w in warnings)


async def test_start_says_nothing_about_a_redis_that_keeps_its_rooms(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    options = ("--appendonly", "yes", "--save", "", "--maxmemory-policy", "noeviction")
    with own_redis(tmp_path / "redis", *options) as url:
        async with running_server("redis", tmp_path, redis_url=url):
            pass
    assert _store_warnings(caplog) == []


async def test_start_says_so_when_redis_does_not_let_it_read_the_configuration(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="app.main")
    # As managed services do: CONFIG renamed away.
    with own_redis(tmp_path / "redis", "--save", "", "--appendonly", "no") as url:
        import redis as sync_redis

        client = sync_redis.Redis.from_url(url)
        client.execute_command("ACL", "SETUSER", "default", "-config")
        client.close()
        async with running_server("redis", tmp_path, redis_url=url):
            pass
    messages = [r.getMessage() for r in caplog.records if r.name == "app.main"]
    assert any("cannot be read: persistence not checked" in m for m in messages)
    assert _store_warnings(caplog) == []


# Client addresses behind the proxy


def _access_log_of(tmp_path: Path, forwarded_for: str, *args: str) -> str:
    """The log of a real ``python -m app`` that answered one request carrying
    ``X-Forwarded-For: forwarded_for`` from 127.0.0.1."""
    import httpx

    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("UNO_")}
    log_path = tmp_path / f"server-{port}.log"
    with log_path.open("w") as log_file:
        process = subprocess.Popen(
            [sys.executable, "-m", "app", "--port", str(port), *args],
            cwd=tmp_path,
            env={**env, "PYTHONPATH": str(ROOT)},
            stdout=log_file,
            stderr=subprocess.STDOUT,
        )
        try:
            deadline = time.monotonic() + 90
            while True:
                try:
                    httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1)
                    break
                except httpx.HTTPError:
                    assert process.poll() is None and time.monotonic() < deadline
                    time.sleep(0.1)
            r = httpx.get(
                f"http://127.0.0.1:{port}/api/rooms",
                headers={"X-Forwarded-For": forwarded_for},
                timeout=5,
            )
            assert r.status_code == 200
        finally:
            process.terminate()
            process.wait(timeout=30)
    return log_path.read_text()


def _client_of(log: str) -> str:
    line = next(line for line in log.splitlines() if '"GET /api/rooms' in line)
    return line.split()[1].rsplit(":", 1)[0]


def test_a_forwarded_address_from_an_untrusted_peer_is_ignored(tmp_path: Path) -> None:
    log = _access_log_of(
        tmp_path, "203.0.113.7", "--proxy-headers", "--trusted-proxies", "10.9.9.9"
    )
    assert _client_of(log) == "127.0.0.1"


def test_without_proxy_headers_no_forwarded_address_is_believed(tmp_path: Path) -> None:
    # Even from 127.0.0.1, which uvicorn alone would trust.
    assert _client_of(_access_log_of(tmp_path, "203.0.113.7")) == "127.0.0.1"


def test_a_forwarded_address_from_the_trusted_proxy_is_the_client(tmp_path: Path) -> None:
    log = _access_log_of(
        tmp_path, "203.0.113.7", "--proxy-headers", "--trusted-proxies", "127.0.0.1"
    )
    assert _client_of(log) == "203.0.113.7"


def test_proxy_settings_come_from_the_environment_and_flags_beat_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from app.__main__ import parse_args, settings_from

    monkeypatch.delenv("UNO_PROXY_HEADERS", raising=False)
    monkeypatch.delenv("UNO_TRUSTED_PROXIES", raising=False)
    defaults = settings_from(parse_args([]))
    assert (defaults.proxy_headers, defaults.trusted_proxies) == (False, "127.0.0.1,::1")
    monkeypatch.setenv("UNO_PROXY_HEADERS", "true")
    monkeypatch.setenv("UNO_TRUSTED_PROXIES", "172.28.0.10")
    from_env = settings_from(parse_args([]))
    assert (from_env.proxy_headers, from_env.trusted_proxies) == (True, "172.28.0.10")
    flags = settings_from(parse_args(["--no-proxy-headers", "--trusted-proxies", "10.0.0.0/8"]))
    assert (flags.proxy_headers, flags.trusted_proxies) == (False, "10.0.0.0/8")


async def test_rate_limits_count_the_forwarded_client_behind_the_trusted_proxy(
    tmp_path: Path,
) -> None:
    import httpx
    from processes import AppProcess

    node = AppProcess(
        tmp_path / "node",
        "--proxy-headers",
        "--trusted-proxies",
        "127.0.0.1",
        env={"UNO_ROOM_CREATE_RATE": "2/hour"},  # a minute could turn between calls,
    )
    try:
        await node.healthy(timeout=60)
        async with httpx.AsyncClient(base_url=node.base, timeout=10) as http:

            async def create(client: str) -> int:
                r = await http.post(
                    "/api/rooms", json={"name": "t"}, headers={"X-Forwarded-For": client}
                )
                return r.status_code

            assert [await create("203.0.113.1") for _ in range(3)] == [201, 201, 429]
            # Another client behind the same proxy has a count of its own.
            assert await create("203.0.113.2") == 201
    finally:
        node.kill()
