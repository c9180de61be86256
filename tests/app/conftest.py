"""Fixtures for the app tests: a live server per store kind."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from live import Server, running_server
from own_cluster import OwnCluster, own_cluster

STORES = ["memory", pytest.param("redis", marks=pytest.mark.redis)]


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


@pytest.fixture(scope="session")
def redis_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[OwnCluster]:
    """One local Redis Cluster (3 masters, 3 replicas) for the whole session (per xdist
    worker); tests keep to key prefixes of their own on it, as on the shared Redis."""
    with own_cluster(tmp_path_factory.mktemp("cluster")) as cluster:
        yield cluster
