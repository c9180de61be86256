"""The room's side of the verifiable shuffle (engine.commitment states the construction).

The room document keeps ``shuffle``: the match ``secret`` (never shown), the ``entropy``
seated clients sent for the next deal (by player id) and, once a deal is dealt, its
``dealt`` proof: deal number, server seed, commitment and contributions, shown only
when the deal is over. Views carry :func:`shuffle_view`.
"""

from __future__ import annotations

import secrets
from typing import Any

import engine
from app.rooms.doc import PLAYING, player_by_pid
from engine.commitment import commitment, deal_seed, server_seed

_OVER_PHASES = ("dealOver", "matchOver")


def fresh_shuffle() -> dict[str, Any]:
    """A new match secret, with no contributions yet."""
    return {"secret": secrets.token_hex(32), "entropy": {}}


def _shuffle(doc: dict[str, Any]) -> dict[str, Any]:
    shuffle = doc.get("shuffle")
    if not isinstance(shuffle, dict) or "secret" not in shuffle:
        shuffle = doc["shuffle"] = {**fresh_shuffle(), **(shuffle or {})}
    return shuffle


def next_deal_number(doc: dict[str, Any], state: engine.GameState | None) -> int | None:
    """The deal contributions are open for now: the next match's first outside a match,
    the next deal between deals; None while a deal is played."""
    if doc["status"] != PLAYING or state is None:
        return 1
    if state.phase == "dealOver":
        return state.deal + 1
    return None


def deal_proof(doc: dict[str, Any], deal: int) -> tuple[str, dict[str, Any]]:
    """(the seed deal ``deal`` is shuffled with, the proof revealed when it ends)."""
    shuffle = _shuffle(doc)
    seed = server_seed(shuffle["secret"], deal)
    values = sorted(shuffle.get("entropy", {}).values())
    proof = {"deal": deal, "commitment": commitment(seed), "serverSeed": seed, "entropy": values}
    return deal_seed(seed, values), proof


def shuffle_view(doc: dict[str, Any], state: engine.GameState | None) -> dict[str, Any]:
    """What every view shows of the shuffle: the commitment of the deal being played (and,
    once it is over, its server seed and contributions), and the commitment of the next
    deal while contributions to it are open, with the seats that sent one."""
    shuffle = doc.get("shuffle")
    out: dict[str, Any] = {}
    if not isinstance(shuffle, dict) or "secret" not in shuffle:
        return out  # a room from before the shuffle was verifiable: given one when it deals
    dealt = shuffle.get("dealt")
    if state is not None and dealt and dealt.get("deal") == state.deal:
        out["deal"] = dealt["deal"]
        out["commitment"] = dealt["commitment"]
        if state.phase in _OVER_PHASES:
            out["revealed"] = {"serverSeed": dealt["serverSeed"], "entropy": dealt["entropy"]}
    upcoming = next_deal_number(doc, state)
    if upcoming is not None:
        sent = [player_by_pid(doc, pid) for pid in shuffle.get("entropy", {})]
        out["next"] = {
            "deal": upcoming,
            "commitment": commitment(server_seed(shuffle["secret"], upcoming)),
            "entropy": sorted(p["seat"] for p in sent if p is not None),
        }
    return out
