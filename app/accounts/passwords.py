"""Passwords: how they are hashed (argon2id), and where the hashing runs.

A password is kept only as its argon2id hash (``argon2-cffi``; its cost, :class:`Cost`,
is a setting) and is never stored or logged in the clear. A hash made with another cost
than the one set now is made again at the next sign-in (:meth:`Passwords.needs_rehash`),
the only time the password is at hand.

Hashing takes tens of milliseconds of CPU on purpose. It runs on threads of its own
(``workers`` of them) with a bounded queue: once ``workers + queue`` hashings are under
way on this node, the next is refused at once (:class:`Busy`, answered ``503
account/busy`` with ``Retry-After``) instead of waiting in line. However many sign-ins
pour in, they take at most ``workers`` cores, and the event loop, which serves every
live room's socket, keeps its own.

A sign-in for a name nobody holds hashes the password it was sent, which costs what a
verification costs, so that the answer's timing does not tell which names exist.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

PASSWORD_MIN, PASSWORD_MAX = 8, 200

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Cost:
    """argon2id's parameters (these defaults are ``argon2-cffi``'s)."""

    time_cost: int = 3
    memory_kib: int = 65536
    parallelism: int = 4


class Busy(Exception):
    """Every hashing thread is busy and the queue is full: retry in a moment."""


class Passwords:
    """The password hasher of one node and the threads it runs on."""

    def __init__(self, cost: Cost, workers: int, queue: int) -> None:
        self._hasher = PasswordHasher(
            time_cost=cost.time_cost, memory_cost=cost.memory_kib, parallelism=cost.parallelism
        )
        self._pool = ThreadPoolExecutor(workers, thread_name_prefix="password-hash")
        self._room = workers + queue
        self._under_way = 0
        # Released from the hashing thread when a hashing ends (also one whose request
        # was cancelled meanwhile: its thread still runs until it is done).
        self._lock = threading.Lock()

    def _release(self, _done: object = None) -> None:
        with self._lock:
            self._under_way -= 1

    async def _run(self, work: Callable[..., T], *args: str) -> T:
        """:raises Busy: ``workers + queue`` hashings under way already."""
        with self._lock:
            if self._under_way >= self._room:
                raise Busy
            self._under_way += 1
        try:
            future = self._pool.submit(work, *args)
        except BaseException:
            self._release()
            raise
        future.add_done_callback(self._release)
        return await asyncio.wrap_future(future)

    async def hash(self, password: str) -> str:
        """:raises Busy: see :meth:`_run`."""
        return await self._run(self._hasher.hash, password)

    def _check(self, stored: str, password: str) -> bool:
        try:
            return self._hasher.verify(stored, password)
        except (VerificationError, InvalidHashError):
            return False

    async def verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` matches ``stored``; None (no such account) is always False,
        and costs as long.

        :raises Busy: see :meth:`_run`.
        """
        if stored is None:
            await self._run(self._hasher.hash, password)
            return False
        return await self._run(self._check, stored, password)

    @property
    def under_way(self) -> int:
        """Hashings running or waiting for a thread now."""
        return self._under_way

    def needs_rehash(self, stored: str) -> bool:
        """Whether ``stored`` was made with another cost than this hasher's."""
        try:
            return self._hasher.check_needs_rehash(stored)
        except InvalidHashError:
            return True

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
