"""Quick play's tables per rating pool: every pool has its table size and its rules, and
a table's rules rate in the pool it was formed for."""

from __future__ import annotations

from app.accounts.ratings import POOLS, pool_of
from app.quickplay.tables import POOL_RULES, TABLE_SIZE


def test_every_pool_and_only_the_pools_have_a_table_size_and_rules() -> None:
    assert set(TABLE_SIZE) == set(POOLS)
    assert set(POOL_RULES) == set(POOLS)


def test_a_pools_table_rules_rate_in_that_pool() -> None:
    assert {pool: pool_of(rules) for pool, rules in POOL_RULES.items()} == {p: p for p in POOLS}
