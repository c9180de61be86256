"""The verifiable shuffle: how a deal's seed is committed to, derived and revealed.

Stated once, for the server that deals and for ``python -m engine.verify`` that checks:

    server seed of deal k   S_k  = HMAC-SHA256(key = match secret, msg = "uno-deal:{k}")
    commitment of deal k    C_k  = SHA-256(S_k)                     published before deal k
    contributions           E_k  = the hex strings seated clients sent for deal k
    deal seed               D_k  = HMAC-SHA256(key = S_k, msg = "\\n".join(sorted(E_k)))

All values are lowercase hex; HMAC keys and SHA-256 inputs are the bytes the hex spells
(the message is the UTF-8 of the joined strings). Every shuffle of deal k (the deal, and
any reshuffle of the discards) is the engine's seeded shuffle of ``D_k`` (``state.seed``).
At the end of deal k the server reveals ``S_k`` and ``E_k``: anyone can check ``C_k`` and
recompute ``D_k`` and the deal, while the match secret, and so every later ``S_j``, stays
out of reach (HMAC is one-way).
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import replace
from typing import overload

from engine.game_state import GameState
from engine.state import State

CONTRIBUTION_MAX = 64  # hex characters in one client's contribution (256 bits)


def server_seed(secret: str, deal: int) -> str:
    """``S_k``: one deal's server seed, from the match secret."""
    return hmac.new(bytes.fromhex(secret), f"uno-deal:{deal}".encode(), hashlib.sha256).hexdigest()


def commitment(seed: str) -> str:
    """``C_k``: what the server publishes about ``S_k`` before the deal."""
    return hashlib.sha256(bytes.fromhex(seed)).hexdigest()


def deal_seed(seed: str, contributions: list[str]) -> str:
    """``D_k``: the seed the deal is shuffled with."""
    message = "\n".join(sorted(contributions)).encode()
    return hmac.new(bytes.fromhex(seed), message, hashlib.sha256).hexdigest()


def is_contribution(value: object) -> bool:
    """A client's contribution: 1 to 64 lowercase hex characters."""
    return (
        isinstance(value, str)
        and 0 < len(value) <= CONTRIBUTION_MAX
        and all(c in "0123456789abcdef" for c in value)
    )


@overload
def reseed(state: State, seed: str) -> State: ...
@overload
def reseed(state: GameState, seed: str) -> GameState: ...
def reseed(state: GameState, seed: str) -> GameState:
    """``state`` (any game's) with its shuffles seeded from ``seed`` from now on: the next
    deal is shuffled from it alone."""
    if type(state) is State:
        new = state.copy()
        new.seed = seed
        new.shuffles = 0
        return new
    return replace(state, seed=seed, shuffles=0)
