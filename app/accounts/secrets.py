"""Passwords and account tokens, and how each is kept.

Passwords are hashed with argon2id (``argon2-cffi``'s defaults: 64 MiB, 3 passes) and
never stored or logged in the clear. Hashing takes tens of milliseconds of CPU on purpose,
so it runs in a worker thread, off the event loop. A sign-in for a name nobody holds
verifies the password against a fixed dummy hash, so that an unknown name costs the same
time as a wrong password and the answer's timing does not tell which names exist.

Account tokens are 192 random bits; only their sha256 is stored (a leaked table hands out
no session), and a token ends when its row is deleted.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

PASSWORD_MIN, PASSWORD_MAX = 8, 200

_hasher = PasswordHasher()
# A hash of a password nobody can send (longer than PASSWORD_MAX), made once.
_DUMMY = _hasher.hash("x" * (PASSWORD_MAX + 1))


def new_token() -> str:
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


async def hash_password(password: str) -> str:
    return await asyncio.to_thread(_hasher.hash, password)


def _verify(stored: str, password: str) -> bool:
    try:
        return _hasher.verify(stored, password)
    except (VerificationError, InvalidHashError):
        return False


async def verify_password(stored: str | None, password: str) -> bool:
    """Whether ``password`` matches ``stored``; None (no such account) verifies against
    the dummy hash, as long, and is always False."""
    if stored is None:
        await asyncio.to_thread(_verify, _DUMMY, password)
        return False
    return await asyncio.to_thread(_verify, stored, password)
