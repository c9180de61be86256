"""Which waiting players sit down together: tables of 4 (2 for UNO Duo) by rating.

The oldest ticket of a pool is seated first, with the waiting players closest to it in
rating whose gap to it both accept, and never two of one account or of one name (names
compared by their key, app.names: ``Sam`` and ``sam`` sit at different tables). A ticket
accepts a gap of :data:`GAP_START` rating points, widened by :data:`GAP_STEP` every 5 s of
waiting. A table of 4 with all seats but one taken by people waits :data:`LAST_SEAT_MS`
more for the last one (from the latest of them joining the queue), then a ``normal`` bot
takes it. Once the oldest has waited the fill time (``UNO_QUICKPLAY_FILL_SECONDS``), bots
take the free seats of its table, however few are near. Guests wait at 1500.

The tickets given are those whose socket is open (app.quickplay.matcher): a ticket
nobody holds is seated nowhere.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from app.accounts.ratings import Pool
from app.names import name_key

GAP_START, GAP_STEP, WIDEN_MS = 100, 50, 5000
LAST_SEAT_MS = 5000
# Keyed by every pool and only those (tests/app/test_quickplay_tables.py).
TABLE_SIZE: dict[Pool, int] = {"classic": 4, "duo": 2, "flip": 4, "party": 4}
POOL_RULES: dict[Pool, dict[str, str]] = {
    "classic": {"preset": "classic", "matchMode": "oneAndDone"},
    "duo": {"preset": "duo", "matchMode": "oneAndDone"},
    "flip": {"preset": "flip", "matchMode": "oneAndDone"},
    "party": {"preset": "rommy", "matchMode": "oneAndDone"},
}
BOT_LEVEL = "normal"

Ticket = dict[str, Any]


def gap(waited_ms: int) -> int:
    """The rating gap a ticket accepts after waiting ``waited_ms``."""
    return GAP_START + GAP_STEP * (max(0, waited_ms) // WIDEN_MS)


@dataclass(frozen=True, slots=True)
class Proposal:
    pool: Pool
    tickets: list[Ticket]  # seat order
    bots: int


def _waiting(tickets: list[Ticket], pool: Pool) -> list[Ticket]:
    return sorted(
        (t for t in tickets if t["pool"] == pool and t["state"] == "queued"),
        key=lambda t: (t["at"], t["ticket"]),
    )


def _table(
    first: Ticket, waiting: list[Ticket], taken: set[str], size: int, now: int
) -> list[Ticket]:
    """``first`` and the nearest others that may sit with it (at most ``size`` in all)."""
    near = sorted(
        (
            t
            for t in waiting
            if t["ticket"] not in taken
            and t is not first
            and abs(t["value"] - first["value"]) <= min(gap(now - first["at"]), gap(now - t["at"]))
        ),
        key=lambda t: (abs(t["value"] - first["value"]), t["at"]),
    )
    table = [first]
    names, pids = {name_key(first["name"])}, {first["pid"]}
    for other in near:
        if len(table) == size:
            break
        key = name_key(other["name"])
        if key in names or other["pid"] in pids:
            continue
        table.append(other)
        names.add(key)
        pids.add(other["pid"])
    return table


def _tables(
    tickets: list[Ticket], pool: Pool, now: int, seated: Callable[[list[Ticket]], bool]
) -> None:
    """Offer the pool's tables in the making to ``seated``, oldest first; a table it
    seats (answers True) takes its tickets from the later ones."""
    size = TABLE_SIZE[pool]
    waiting = _waiting(tickets, pool)
    taken: set[str] = set()
    for first in waiting:
        if first["ticket"] in taken:
            continue
        table = _table(first, waiting, taken, size, now)
        if seated(table):
            taken.update(t["ticket"] for t in table)


def fill_in_ms(table: list[Ticket], size: int, now: int, fill_ms: int) -> int:
    """How long until this table is seated (0: now), bots in its free seats."""
    if len(table) >= size:
        return 0
    by_fill = fill_ms - (now - int(table[0]["at"]))
    if size > 2 and len(table) == size - 1:
        by_last = LAST_SEAT_MS - (now - max(int(t["at"]) for t in table))
        return max(0, min(by_fill, by_last))
    return max(0, by_fill)


def form(tickets: list[Ticket], now_ms: int, fill_ms: int) -> list[Proposal]:
    """The tables to seat now from the queued ``tickets`` (each seated once at most)."""
    out: list[Proposal] = []
    for pool, size in TABLE_SIZE.items():

        def seated(table: list[Ticket], pool: Pool = pool, size: int = size) -> bool:
            if fill_in_ms(table, size, now_ms, fill_ms) > 0:
                return False
            out.append(Proposal(pool, table, size - len(table)))
            return True

        _tables(tickets, pool, now_ms, seated)
    return out


def outlook(tickets: list[Ticket], ticket: Ticket, now_ms: int, fill_ms: int) -> tuple[int, int]:
    """For the ``queued`` push: the players waiting in ``ticket``'s pool (it included),
    and the ms before its table is seated, bots in the free seats, as things stand."""
    pool, size = ticket["pool"], TABLE_SIZE[ticket["pool"]]
    others = [t for t in tickets if t["ticket"] != ticket["ticket"]]
    pooled = [ticket, *(t for t in others if t["pool"] == pool and t["state"] == "queued")]
    found = [max(0, fill_ms - (now_ms - ticket["at"]))]

    def seated(table: list[Ticket]) -> bool:
        if any(t is ticket for t in table):
            found[0] = fill_in_ms(table, size, now_ms, fill_ms)
        return True  # as if seated: the later tables form without it

    _tables(pooled, pool, now_ms, seated)
    return len(pooled), found[0]
