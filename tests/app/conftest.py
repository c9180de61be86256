"""Fixtures for the app tests: a live server per store kind."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from live import Server, running_server
from own_cluster import OwnCluster, own_cluster
from schema_check import warm

STORES = ["memory", pytest.param("redis", marks=pytest.mark.redis)]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Under pytest-xdist (``--dist loadgroup``) the tests on the local Redis Cluster share
    one worker, so that the suite starts that cluster of six processes once."""
    for item in items:
        params = getattr(item, "callspec", None)
        on_cluster = params is not None and "cluster" in [
            v for v in params.params.values() if isinstance(v, str)
        ]
        if on_cluster or "redis_cluster" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group("redis_cluster"))


@pytest.fixture(scope="session", autouse=True)
def _schema_validators() -> None:
    """The clients' frame checks, ready before the first test's event loop starts."""
    warm()


@pytest.fixture(params=STORES)
def store_kind(request: pytest.FixtureRequest) -> str:
    kind: str = request.param
    return kind


@pytest.fixture
async def server(store_kind: str, tmp_path: Any) -> AsyncIterator[Server]:
    async with running_server(store_kind, tmp_path) as live:
        yield live


@pytest.fixture
async def fast_server(store_kind: str, tmp_path: Any) -> AsyncIterator[Server]:
    """A server whose rate limit lets bots play as fast as they can."""
    async with running_server(store_kind, tmp_path, rate_per_second=10_000.0) as live:
        yield live


@pytest.fixture
async def quick(store_kind: str, tmp_path: Any) -> AsyncIterator[Server]:
    """A server whose bots and timer polls are quick, so that tests wait little."""
    async with running_server(
        store_kind, tmp_path, bot_delay_ms=30, timer_poll_seconds=0.1, rate_per_second=1000.0
    ) as live:
        yield live


@pytest.fixture(scope="session")
def redis_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[OwnCluster]:
    """One local Redis Cluster (3 masters, 3 replicas) for the whole session (per xdist
    worker); tests keep to key prefixes of their own on it, as on the shared Redis."""
    with own_cluster(tmp_path_factory.mktemp("cluster")) as cluster:
        yield cluster
