"""Unguessable ids and tokens, and how tokens are kept (hashed, never in the clear)."""

from __future__ import annotations

import hashlib
import hmac
import secrets

# No 0/O or 1/I: codes are read aloud and typed by people.
_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"


def new_room_id() -> str:
    return secrets.token_urlsafe(9)


def new_id() -> str:
    return secrets.token_hex(8)


def new_token() -> str:
    """A bearer token: 192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


def new_code() -> str:
    return "".join(secrets.choice(_CODE_ALPHABET) for _ in range(6))


def hash_token(token: str) -> str:
    # Rooms store only hashes, so a leaked store dump does not hand out seats.
    return hashlib.sha256(token.encode()).hexdigest()


def same_hash(token: str, stored: str) -> bool:
    return hmac.compare_digest(hash_token(token), stored)
