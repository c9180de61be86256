"""Suite-wide ordering for pytest-xdist: the longest tests start first, so that no worker
is left running one of them alone at the end. The browser tests stay last (in three groups
of their own, tests/web/conftest.py): while Playwright's sync API is open its event loop
runs, so no asyncio test may come after them on a worker."""

from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).parent
# The longest modules: a minute or more each on a 2-core machine.
FIRST = (
    "clients",  # the JavaScript client's test files, each a minute or so of its own
    "app/test_tables_soak.py",
    "app/test_tournament_end_to_end.py",
    "app/test_cluster_failover.py",
    "app/test_openapi_conformance.py",
    "reliability",
)


def _rank(item: pytest.Item) -> int:
    path = item.path.relative_to(HERE).as_posix()
    if path.startswith("web/"):
        return len(FIRST) + 1
    for rank, prefix in enumerate(FIRST):
        if path == prefix or path.startswith(prefix + "/"):
            return rank
    return len(FIRST)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=_rank)  # stable: the order within each rank stays as collected
