"""The app's handle on its SQL database: one async engine, migrated on connect.

:class:`Database` is what the rest of the app uses; each method runs in its own
transaction. The SQL lives in :mod:`app.db.games`, :mod:`app.db.scoresheets` and
:mod:`app.db.tournaments`.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import replace
from datetime import datetime
from typing import Any

from sqlalchemy import event
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from app.db import accounts, games, migrate, ratings, scoresheets, tournaments
from app.db.accounts import AccountRecord, NameTaken, SessionRecord
from app.db.base import utcnow
from app.db.records import DealReplay, MatchRecord, PlayerMatch, ScoresheetRecord
from app.db.scoresheets import DealCheck, RulesChange
from app.deal_record import DealRecord

_UNRATED = {"place": None, "ratingBefore": None, "ratingAfter": None}
# How often a scoresheet write that lost a race on SQLite is tried again.
_WRITE_ATTEMPTS = 10


class Database:
    """The SQL store: players, rooms, played deals and their history, scoresheets."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.sessions = async_sessionmaker(engine, expire_on_commit=False)
        # SQLite takes one writer at a time. Left to SQLite, waiting writers sit in its
        # busy handler, which gives up after busy_timeout; while the event loop is busy
        # (many rooms ending deals at once) the holder cannot finish its transaction in
        # time and the others fail with "database is locked". Queuing the writers here
        # makes them wait on the loop instead, with no time limit, and nothing is lost.
        self._write_lock = asyncio.Lock() if engine.dialect.name == "sqlite" else None

    @classmethod
    async def connect(
        cls,
        url: str,
        *,
        run_migrations: bool = True,
        echo: bool = False,
        sqlite_busy_timeout_ms: int = 5000,
    ) -> Database:
        """Open ``url`` (an SQLAlchemy async URL) and migrate it to the newest schema.

        A fresh SQLite file is created and migrated, so the embedded default needs no
        setup step.
        """
        engine = create_async_engine(url, echo=echo, pool_pre_ping=not url.startswith("sqlite"))
        if engine.dialect.name == "sqlite":
            event.listen(engine.sync_engine, "connect", _sqlite_pragmas(sqlite_busy_timeout_ms))
        try:
            if run_migrations:
                await migrate.upgrade(engine)
        except BaseException:
            await engine.dispose()
            raise
        return cls(engine)

    async def close(self) -> None:
        await self.engine.dispose()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[AsyncSession]:
        """A session whose work commits on success and rolls back on any error."""
        if self._write_lock is None:
            async with self.sessions() as session, session.begin():
                yield session
            return
        async with self._write_lock, self.sessions() as session, session.begin():
            yield session

    # Played games -------------------------------------------------------------------

    async def record_room(
        self, room_id: str, name: str, rules: dict[str, Any], seats: int, private: bool
    ) -> None:
        """Store a room, or update its name and settings if it is already stored."""
        async with self.transaction() as session:
            await games.record_room(
                session,
                room_id=room_id,
                name=name,
                rules=rules,
                seats=seats,
                private=private,
                now=utcnow(),
            )

    async def record_player(self, player_id: str, name: str) -> None:
        """Store a guest player, or update the name of one already stored."""
        async with self.transaction() as session:
            await games.record_player(session, player_id=player_id, name=name, now=utcnow())

    async def record_deal(self, room_id: str, deal: DealRecord) -> None:
        """Store a finished deal of room ``room_id``: start state, action log, per-seat
        scores and totals.

        The first deal of a match also creates the match; ``match_over`` closes it with
        ``winner`` as the match winner. Idempotent: the same room/match/deal number again
        stores nothing (the first write stands), also when the two calls race.
        """
        try:
            async with self.transaction() as session:
                now = utcnow()
                stored = await games.record_deal(session, room_id=room_id, deal=deal, now=now)
                if stored and deal.match_over and deal.rated:
                    # In the same transaction: the match is rated exactly when its end is
                    # stored (app.db.ratings).
                    await ratings.rate_match(session, deal, now)
        except IntegrityError:
            # Two writers raced on the same deal and the other committed first (its
            # key check ran before ours could see it). The deal is stored: a no-op.
            async with self.sessions() as session:
                if await games.deal_replay(session, deal.match_id, deal.deal_number) is None:
                    raise

    async def record_deals(self, deals: Sequence[tuple[str, DealRecord]]) -> None:
        """Store many finished deals (room id, deal) in one transaction, each as
        :meth:`record_deal` would (those stored before stay as they are; a match is rated
        when its end is stored, after the matches ended before it in ``deals``).

        All or nothing: on any error none is stored, and the caller stores them one at a
        time (which also settles two writers racing: see :meth:`record_deal`).
        """
        async with self.transaction() as session:
            now = utcnow()
            for deal in await games.record_deals(session, deals, now):
                if deal.match_over and deal.rated:
                    await ratings.rate_match(session, deal, now)

    async def player_exists(self, player_id: str) -> bool:
        async with self.sessions() as session:
            return await games.player_exists(session, player_id)

    async def player_matches(
        self, player_id: str, *, limit: int = 50, offset: int = 0
    ) -> list[PlayerMatch]:
        """The player's finished matches, most recently finished first."""
        async with self.sessions() as session:
            return await games.player_matches(session, player_id, limit=limit, offset=offset)

    async def match(self, match_id: str) -> MatchRecord | None:
        """A match with its seats and deals, or None if there is no such match."""
        async with self.sessions() as session:
            return await games.match(session, match_id)

    async def deal_replay(self, match_id: str, deal_number: int) -> DealReplay | None:
        """A finished deal's start state and action log, or None if it is not stored."""
        async with self.sessions() as session:
            return await games.deal_replay(session, match_id, deal_number)

    # Accounts and ratings -----------------------------------------------------------

    async def create_account(
        self, account_id: str, name: str, key: str, password_hash: str
    ) -> bool:
        """A new account; False if its name's key is taken (nothing written)."""
        try:
            async with self.transaction() as session:
                await accounts.create(
                    session,
                    account_id=account_id,
                    name=name,
                    key=key,
                    password_hash=password_hash,
                    now=utcnow(),
                )
        except (NameTaken, IntegrityError):
            # IntegrityError: two sign-ups with the same key raced, the other committed.
            return False
        return True

    async def account_by_key(self, key: str) -> AccountRecord | None:
        async with self.sessions() as session:
            return await accounts.by_key(session, key)

    async def password_of(self, key: str) -> tuple[AccountRecord, str] | None:
        """The account with this name key and its password's hash (for a sign-in only)."""
        async with self.sessions() as session:
            return await accounts.password_of(session, key)

    async def set_password(self, account_id: str, old_hash: str, new_hash: str) -> bool:
        """Replace the hash unless it changed since ``old_hash`` was read (False)."""
        async with self.transaction() as session:
            return await accounts.set_password(session, account_id, old_hash, new_hash)

    async def change_password(
        self, account_id: str, old_hash: str, new_hash: str, keep: str
    ) -> bool:
        """Replace the hash (unless it changed since read: False) and end every session of
        the account but ``keep`` (a token hash), in one transaction."""
        async with self.transaction() as session:
            if not await accounts.set_password(session, account_id, old_hash, new_hash):
                return False
            await accounts.end_sessions(session, account_id, keep)
            return True

    async def session_by_token(self, token_hash: str) -> SessionRecord | None:
        """The live session with this token, its use written; None: no such session, or
        it expired (and is deleted)."""
        now = utcnow()
        async with self.sessions() as session:
            found = await accounts.session_of(session, token_hash)
        if found is None:
            return None
        if found.expires() <= now:
            await self.end_session(token_hash)
            return None
        if not found.stale(now):
            return found
        async with self.transaction() as session:
            await accounts.mark_used(session, token_hash, now)
        return replace(found, last_used=now)

    async def open_session(self, account_id: str, token_hash: str) -> datetime:
        """A new session of the account; when it expires unless used."""
        async with self.transaction() as session:
            return await accounts.open_session(session, account_id, token_hash, utcnow())

    async def end_session(self, token_hash: str) -> bool:
        async with self.transaction() as session:
            return await accounts.end_session(session, token_hash)

    async def end_sessions(self, account_id: str) -> int:
        """End every session of the account; how many ended."""
        async with self.transaction() as session:
            return await accounts.end_sessions(session, account_id)

    async def ratings_of(self, account_id: str) -> dict[str, dict[str, Any]]:
        async with self.sessions() as session:
            return await ratings.ratings_of(session, account_id)

    async def rating_in(self, account_id: str, pool: str) -> dict[str, Any]:
        async with self.sessions() as session:
            return await ratings.rating_in(session, account_id, pool)

    async def rating_changes(self, match_id: str) -> dict[int, dict[str, Any]]:
        """A rated match's changes by seat (empty: not rated, or not yet)."""
        async with self.sessions() as session:
            return await ratings.changes(session, match_id)

    async def profile(self, key: str, recent: int = 20) -> dict[str, Any] | None:
        """``{name, ratings, stats, recent}`` of the account with this name key, or None."""
        async with self.sessions() as session:
            account = await accounts.by_key(session, key)
            if account is None:
                return None
            pid = account.id
            matches = await games.player_matches(session, pid, limit=recent, offset=0)
            rated = await ratings.changes_of(session, pid, [m.match_id for m in matches])
            stats = await games.player_stats(session, pid)
            stats["placings"] = await ratings.placings_of(session, pid)
            return {
                "name": account.name,
                "ratings": await ratings.ratings_of(session, pid),
                "stats": stats,
                "recent": [{**m.to_json(), **rated.get(m.match_id, _UNRATED)} for m in matches],
            }

    async def leaderboard(self, pool: str, limit: int) -> list[dict[str, Any]]:
        async with self.sessions() as session:
            return await ratings.leaderboard(session, pool, limit)

    # Scoresheets --------------------------------------------------------------------

    async def archive_tournament(
        self,
        tournament_id: str,
        shown: dict[str, Any],
        standings: list[dict[str, Any]],
        points: dict[tuple[str, str], float],
        *,
        replace: bool = False,
    ) -> None:
        """Keep a finished tournament (a second call for it writes nothing, unless
        ``replace``: then it is written anew if ``shown`` is newer than what is kept)."""
        async with self.transaction() as session:
            if replace and not await tournaments.forget_older(
                session, tournament_id, int(shown.get("seq", 0))
            ):
                return
            await tournaments.archive(session, tournament_id, shown, standings, points)

    async def archived_tournament(self, tournament_id: str) -> dict[str, Any] | None:
        """``{tournament, standings, results, audit}`` of an archived tournament, or None."""
        async with self.sessions() as session:
            shown = await tournaments.summary(session, tournament_id)
            if shown is None:
                return None
            return {
                "tournament": shown,
                "standings": await tournaments.standings(session, tournament_id),
                "results": await tournaments.results(session, tournament_id),
                "audit": await tournaments.audit(session, tournament_id),
            }

    async def create_scoresheet(
        self, *, name: str, players: list[str], rules: dict[str, Any]
    ) -> ScoresheetRecord:
        async with self.transaction() as session:
            return await scoresheets.create(
                session, name=name, players=players, rules=rules, now=utcnow()
            )

    async def scoresheet(self, scoresheet_id: str) -> ScoresheetRecord | None:
        async with self.sessions() as session:
            return await scoresheets.get(session, scoresheet_id)

    async def add_scoresheet_deal(
        self, scoresheet_id: str, entries: list[int], check: DealCheck
    ) -> ScoresheetRecord | None:
        """Append a deal's entries if ``check`` accepts them; None: no such scoresheet.

        ``check(sheet, entries, number)`` runs inside the transaction, against the
        scoresheet as stored; whatever it raises propagates and nothing is written.
        """
        for attempt in range(_WRITE_ATTEMPTS):
            try:
                async with self.transaction() as session:
                    return await scoresheets.add_deal(
                        session, scoresheet_id, entries, check, utcnow()
                    )
            except IntegrityError:
                if attempt == _WRITE_ATTEMPTS - 1:
                    raise
        raise AssertionError("unreachable")

    async def change_scoresheet_rules(
        self, scoresheet_id: str, change: RulesChange
    ) -> ScoresheetRecord | None:
        """Replace the rules with ``change(sheet)``; None: no such scoresheet."""
        async with self.transaction() as session:
            return await scoresheets.change_rules(session, scoresheet_id, change, utcnow())


def _sqlite_pragmas(busy_timeout_ms: int) -> Callable[[Any, Any], None]:
    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        # SQLite leaves foreign keys (and so ON DELETE CASCADE) off unless asked, per
        # connection.
        cursor.execute("PRAGMA foreign_keys=ON")
        # Another process's writer (a migration, a second server on the same file) is
        # waited for instead of failing at once with "database is locked".
        cursor.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
        # Readers (history pages) then never wait for the writer recording a deal.
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.close()

    return on_connect
