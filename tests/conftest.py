"""Suite-wide ordering for pytest-xdist: the longest tests start first, so that no worker
is left running one of them alone at the end."""

from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).parent
# The longest modules (a minute or more each on a 2-core machine), and the browser tests,
# which run in two groups of their own (tests/web/conftest.py).
FIRST = (
    "web",
    "app/test_tables_soak.py",
    "app/test_tournament_end_to_end.py",
    "app/test_cluster_failover.py",
    "reliability",
)


def _rank(item: pytest.Item) -> int:
    path = item.path.relative_to(HERE).as_posix()
    for rank, prefix in enumerate(FIRST):
        if path == prefix or path.startswith(prefix + "/"):
            return rank
    return len(FIRST)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=_rank)  # stable: the order within each rank stays as collected
