"""Which waiting players sit down together: tables of 4 (2 for UNO Duo) by rating.

The oldest ticket of a pool is seated first, with the waiting players closest to it in
rating whose gap to it both accept. A ticket accepts a gap of :data:`GAP_START` rating
points, widened by :data:`GAP_STEP` every 5 s of waiting. Once the oldest has waited the
fill time (``UNO_QUICKPLAY_FILL_SECONDS``), its table may start with 3 players, or with
``normal`` bots in the free seats when fewer are near. Guests wait at 1500.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

GAP_START, GAP_STEP, WIDEN_MS = 100, 50, 5000
TABLE_SIZE = {"classic": 4, "duo": 2, "flip": 4, "party": 4}
POOL_RULES = {
    "classic": {"preset": "classic", "matchMode": "oneAndDone"},
    "duo": {"preset": "duo", "matchMode": "oneAndDone"},
    "flip": {"preset": "flip", "matchMode": "oneAndDone"},
    "party": {"preset": "rommy", "matchMode": "oneAndDone"},
}
BOT_LEVEL = "normal"


def gap(waited_ms: int) -> int:
    """The rating gap a ticket accepts after waiting ``waited_ms``."""
    return GAP_START + GAP_STEP * (max(0, waited_ms) // WIDEN_MS)


@dataclass(frozen=True, slots=True)
class Proposal:
    pool: str
    tickets: list[dict[str, Any]]  # seat order
    bots: int


def form(tickets: list[dict[str, Any]], now_ms: int, fill_ms: int) -> list[Proposal]:
    """The tables to seat now from the queued ``tickets`` (each seated once at most)."""
    out: list[Proposal] = []
    for pool, size in TABLE_SIZE.items():
        waiting = sorted(
            (t for t in tickets if t["pool"] == pool and t["state"] == "queued"),
            key=lambda t: (t["at"], t["ticket"]),
        )
        seated: set[str] = set()
        for first in waiting:
            if first["ticket"] in seated:
                continue
            waited = now_ms - first["at"]
            near = sorted(
                (
                    t
                    for t in waiting
                    if t["ticket"] not in seated
                    and t is not first
                    and abs(t["value"] - first["value"]) <= min(gap(waited), gap(now_ms - t["at"]))
                ),
                key=lambda t: (abs(t["value"] - first["value"]), t["at"]),
            )
            if len(near) >= size - 1:
                table, bots = [first, *near[: size - 1]], 0
            elif waited >= fill_ms:
                table = [first, *near]
                bots = 0 if len(table) >= 3 else size - len(table)
            else:
                continue
            seated.update(t["ticket"] for t in table)
            out.append(Proposal(pool, table, bots))
    return out
