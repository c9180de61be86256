"""REST for accounts and their sessions: sign up, sign in, sign out (one session or
all), change the password, and who am I.

Accounts are optional: a guest plays by link as before. An account token is sent only
in ``Authorization: Bearer`` (never in a URL), so it stays out of access logs. A session
lives 30 days after its last use and a year at most (app.accounts.sessions); every
sign-in and sign-up says when it ends (``expiresAt``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Annotated, Any

from fastapi import APIRouter, Query, Response
from pydantic import BaseModel, ConfigDict, Field

from app.accounts.account_names import is_name, name_key
from app.accounts.passwords import PASSWORD_MAX, PASSWORD_MIN, Busy, Passwords
from app.accounts.sessions import iso
from app.api.errors import responses
from app.api.players import RatingOut
from app.db.accounts import AccountRecord
from app.deps import ClientAddress, CurrentAccount, Db, Hasher, SignIn
from app.errors import RoomError
from app.rooms import tokens
from app.sign_in import SignInLimits

router = APIRouter(prefix="/api", tags=["accounts"])


class Credentials(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=1000, description="3-20 of A-Za-z0-9_-, unique ignoring case")
    password: str = Field(max_length=1000, description="8-200 characters")


class PasswordChange(BaseModel):
    model_config = ConfigDict(extra="forbid")
    password: str = Field(max_length=1000, description="the password now")
    newPassword: str = Field(max_length=1000, description="8-200 characters")


class SignedIn(BaseModel):
    playerId: str
    name: str
    token: str = Field(description="the account's bearer token: keep it secret")
    expiresAt: str = Field(
        description="when the session ends unless used (ISO 8601, UTC): 30 days after its "
        "last use, a year after it began at most"
    )


class Me(BaseModel):
    playerId: str
    name: str
    created: str
    ratings: dict[str, RatingOut]


_BAD_TOKEN = {401: ("missing_token", "account/bad_token")}
_BUSY = {503: ("account/busy", "unavailable")}
SIGN_UP_ERRORS = responses(
    {
        409: ("account/name_taken",),
        422: ("account/bad_name", "account/bad_password"),
        429: ("account/too_many_sign_ups",),
        **_BUSY,
    }
)
SIGN_IN_ERRORS = responses(
    {401: ("account/bad_credentials",), 429: ("account/too_many_failures",), **_BUSY}
)
PASSWORD_ERRORS = responses(
    {
        401: ("missing_token", "account/bad_token", "account/bad_credentials"),
        422: ("account/bad_password",),
        429: ("account/too_many_failures",),
        **_BUSY,
    }
)


@asynccontextmanager
async def _hashing() -> AsyncIterator[None]:
    """Password hashing inside: its threads and queue full, 503 ``account/busy``."""
    try:
        yield
    except Busy:
        raise RoomError(
            503, "account/busy", "too many sign-ins at once; retry in 1 s", {"retryAfter": 1}
        ) from None


def _check_password(password: str) -> None:
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise RoomError(
            422,
            "account/bad_password",
            f"a password is {PASSWORD_MIN}-{PASSWORD_MAX} characters",
        )


async def _checked(
    db: Db, hasher: Passwords, limits: SignInLimits, key: str, address: str, password: str
) -> tuple[AccountRecord, str] | None:
    """The account with the name key ``key`` and its stored hash when ``password`` is its
    password, else None. The attempt is counted before the password is checked
    (app.sign_in), and given back unless the password was checked and wrong.

    :raises RoomError: 429 ``account/too_many_failures``, 503 ``account/busy`` or
        ``unavailable``.
    """
    attempt = await limits.attempt(key, address)
    wrong = False
    try:
        found = await db.password_of(key)
        async with _hashing():
            right = await hasher.verify(None if found is None else found[1], password)
        wrong = not right
    finally:
        if not wrong:
            await limits.give_back(attempt)
    return found if right else None


@router.post("/accounts", status_code=201, response_model=SignedIn, responses=SIGN_UP_ERRORS)
async def sign_up(
    body: Credentials, db: Db, hasher: Hasher, limits: SignIn, address: ClientAddress
) -> SignedIn:
    """Make an account and sign it in."""
    if not is_name(body.name):
        raise RoomError(422, "account/bad_name", "a name is 3-20 of A-Za-z0-9_-")
    _check_password(body.password)
    key = name_key(body.name)
    if await db.account_by_key(key) is not None:
        raise RoomError(409, "account/name_taken", "another account has this name")
    await limits.sign_up(address)
    account_id = tokens.new_id()
    async with _hashing():
        hashed = await hasher.hash(body.password)
    if not await db.create_account(account_id, body.name, key, hashed):
        raise RoomError(409, "account/name_taken", "another account has this name")
    return await _signed_in(db, account_id, body.name)


async def _signed_in(db: Db, account_id: str, name: str) -> SignedIn:
    token = tokens.new_token()
    expires = await db.open_session(account_id, tokens.hash_token(token))
    return SignedIn(playerId=account_id, name=name, token=token, expiresAt=iso(expires))


@router.post("/sessions", response_model=SignedIn, responses=SIGN_IN_ERRORS)
async def sign_in(
    body: Credentials, db: Db, hasher: Hasher, limits: SignIn, address: ClientAddress
) -> SignedIn:
    """Sign in: a new token for the account. A wrong name and a wrong password are the
    same answer, as long in coming."""
    key = name_key(body.name)
    found = await _checked(db, hasher, limits, key, address, body.password)
    if found is None or not is_name(body.name):
        raise RoomError(401, "account/bad_credentials", "wrong name or password")
    account, stored = found
    if hasher.needs_rehash(stored):
        await _rehash(db, hasher, account.id, stored, body.password)
    return await _signed_in(db, account.id, account.name)


async def _rehash(db: Db, hasher: Passwords, account_id: str, stored: str, password: str) -> None:
    """The password hashed at today's cost; hashing busy, at a later sign-in."""
    try:
        await db.set_password(account_id, stored, await hasher.hash(password))
    except Busy:
        pass


@router.delete("/sessions", status_code=204, responses=responses(_BAD_TOKEN))
async def sign_out(
    db: Db,
    account: CurrentAccount,
    every: Annotated[
        bool, Query(alias="all", description="end every session of the account")
    ] = False,
) -> Response:
    """End the bearer's session (its token no longer works; other sessions go on), or
    with ``all=true`` every session of the account."""
    found, token_hash = await account.session()
    if every:
        await db.end_sessions(found.account.id)
    else:
        await db.end_session(token_hash)
    return Response(status_code=204)


@router.post("/me/password", status_code=204, responses=PASSWORD_ERRORS)
async def change_password(
    body: PasswordChange,
    db: Db,
    hasher: Hasher,
    limits: SignIn,
    address: ClientAddress,
    account: CurrentAccount,
) -> Response:
    """Change the bearer's password, given the one it has now; every other session of the
    account ends (the bearer's goes on)."""
    found, token_hash = await account.session()
    _check_password(body.newPassword)
    key = name_key(found.account.name)
    checked = await _checked(db, hasher, limits, key, address, body.password)
    if checked is None:
        raise RoomError(401, "account/bad_credentials", "wrong password")
    async with _hashing():
        hashed = await hasher.hash(body.newPassword)
    if not await db.change_password(found.account.id, checked[1], hashed, token_hash):
        raise RoomError(401, "account/bad_credentials", "the password changed meanwhile")
    return Response(status_code=204)


@router.get("/me", response_model=Me, responses=responses(_BAD_TOKEN))
async def me(db: Db, account: CurrentAccount) -> dict[str, Any]:
    """The bearer's account and its ratings."""
    found = await account()
    return {
        "playerId": found.id,
        "name": found.name,
        "created": found.created.isoformat().replace("+00:00", "Z"),
        "ratings": await db.ratings_of(found.id),
    }
