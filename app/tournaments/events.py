"""A tournament's numbered events: what its socket pushes (``/ws/tournaments/{id}``).

Each change of the document appends its events here with the next ``seq``; the document
keeps the last ``KEPT`` of them, so a socket that reconnects with ``resume`` gets what it
missed from any node (the events live in the document, in the store), or a fresh snapshot
when they are gone.
"""

from __future__ import annotations

from typing import Any

KEPT = 200


def emit(doc: dict[str, Any], event: dict[str, Any], now_ms: int) -> None:
    seq = int(doc.get("seq", 0)) + 1
    doc["seq"] = seq
    kept = doc.setdefault("events", [])
    kept.append({"seq": seq, "ts": now_ms, "event": event})
    del kept[:-KEPT]


def since(doc: dict[str, Any], last_seq: int) -> list[dict[str, Any]] | None:
    """The events after ``last_seq``, or None if some of them are no longer kept."""
    kept: list[dict[str, Any]] = doc.get("events", [])
    if last_seq > int(doc.get("seq", 0)):
        return None
    missed = [e for e in kept if e["seq"] > last_seq]
    if missed and missed[0]["seq"] != last_seq + 1:
        return None
    if not missed and last_seq != int(doc.get("seq", 0)):
        return None
    return missed
