"""REST for accounts and their sessions: sign up, sign in, sign out, and who am I.

Accounts are optional: a guest plays by link as before. An account token is sent only
in ``Authorization: Bearer`` (never in a URL), so it stays out of access logs.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response
from pydantic import BaseModel, ConfigDict, Field

from app.accounts import secrets
from app.accounts.account_names import is_name, name_key
from app.accounts.secrets import PASSWORD_MAX, PASSWORD_MIN
from app.api.errors import responses
from app.api.players import RatingOut
from app.deps import ClientAddress, CurrentAccount, Db, SignIn, bearer
from app.errors import RoomError
from app.rooms import tokens

router = APIRouter(prefix="/api", tags=["accounts"])


class Credentials(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=1000, description="3-20 of A-Za-z0-9_-, unique ignoring case")
    password: str = Field(max_length=1000, description="8-200 characters")


class SignedIn(BaseModel):
    playerId: str
    name: str
    token: str = Field(description="the account's bearer token: keep it secret")


class Me(BaseModel):
    playerId: str
    name: str
    created: str
    ratings: dict[str, RatingOut]


_BAD_TOKEN = {401: ("missing_token", "account/bad_token")}
SIGN_UP_ERRORS = responses(
    {409: ("account/name_taken",), 422: ("account/bad_name", "account/bad_password")}
)
SIGN_IN_ERRORS = responses({401: ("account/bad_credentials",), 429: ("account/too_many_failures",)})


@router.post("/accounts", status_code=201, response_model=SignedIn, responses=SIGN_UP_ERRORS)
async def sign_up(body: Credentials, db: Db) -> SignedIn:
    """Make an account and sign it in."""
    if not is_name(body.name):
        raise RoomError(422, "account/bad_name", "a name is 3-20 of A-Za-z0-9_-")
    if not PASSWORD_MIN <= len(body.password) <= PASSWORD_MAX:
        raise RoomError(
            422,
            "account/bad_password",
            f"a password is {PASSWORD_MIN}-{PASSWORD_MAX} characters",
        )
    key = name_key(body.name)
    if await db.account_by_key(key) is not None:
        raise RoomError(409, "account/name_taken", "another account has this name")
    account_id = tokens.new_id()
    hashed = await secrets.hash_password(body.password)
    if not await db.create_account(account_id, body.name, key, hashed):
        raise RoomError(409, "account/name_taken", "another account has this name")
    token = secrets.new_token()
    await db.open_session(account_id, secrets.token_hash(token))
    return SignedIn(playerId=account_id, name=body.name, token=token)


@router.post("/sessions", response_model=SignedIn, responses=SIGN_IN_ERRORS)
async def sign_in(body: Credentials, db: Db, limits: SignIn, address: ClientAddress) -> SignedIn:
    """Sign in: a new token for the account. A wrong name and a wrong password are the
    same answer, as long in coming."""
    key = name_key(body.name)
    await limits.check(key, address)
    account = await db.account_by_key(key) if is_name(body.name) else None
    stored = None if account is None else account.password_hash
    if not await secrets.verify_password(stored, body.password) or account is None:
        await limits.failed(key, address)
        raise RoomError(401, "account/bad_credentials", "wrong name or password")
    token = secrets.new_token()
    await db.open_session(account.id, secrets.token_hash(token))
    return SignedIn(playerId=account.id, name=account.name, token=token)


@router.delete("/sessions", status_code=204, responses=responses(_BAD_TOKEN))
async def sign_out(db: Db, account: CurrentAccount) -> Response:
    """End the bearer's session (its token no longer works; other sessions go on)."""
    await account()
    await db.end_session(secrets.token_hash(bearer(account.authorization)))
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
