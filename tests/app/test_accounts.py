"""Accounts and sessions against a live server: sign up, sign in, sign out, /api/me, and
the refusals (each with its code, each changing nothing)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from live import Server, running_server

from app.accounts.account_names import name_key
from app.rooms import tokens


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def _sign_up(server: Server, name: str, password: str = "correct horse") -> dict[str, Any]:
    r = await server.http.post("/api/accounts", json={"name": name, "password": password})
    assert r.status_code == 201, r.text
    return dict(r.json())


@pytest.fixture
async def memory_server(tmp_path: Any) -> Any:
    async with running_server("memory", tmp_path) as live:
        yield live


async def test_sign_up_signs_in_and_me_answers_with_the_profile(memory_server: Server) -> None:
    made = await _sign_up(memory_server, "Anna_B")
    assert made["name"] == "Anna_B" and made["playerId"] and len(made["token"]) >= 32
    r = await memory_server.http.get("/api/me", headers=_auth(made["token"]))
    assert r.status_code == 200, r.text
    me = r.json()
    assert me["playerId"] == made["playerId"] and me["name"] == "Anna_B"
    assert set(me["ratings"]) == {"classic", "duo", "flip", "party"}
    assert me["ratings"]["classic"] == {"value": 1500, "provisional": True, "games": 0}


async def test_a_name_is_taken_ignoring_case(memory_server: Server) -> None:
    await _sign_up(memory_server, "Anna")
    r = await memory_server.http.post(
        "/api/accounts", json={"name": "aNNA", "password": "another one"}
    )
    assert r.status_code == 409 and r.json()["code"] == "account/name_taken"
    # The first account's password still signs in; the second's does not.
    ok = await memory_server.http.post(
        "/api/sessions", json={"name": "anna", "password": "correct horse"}
    )
    assert ok.status_code == 200 and ok.json()["name"] == "Anna"


@pytest.mark.parametrize(
    ("first", "second"),
    [("Bern_1", "Bem_1"), ("Bob", "B0b"), ("Will", "WiII"), ("Ian", "lan"), ("ian", "LAN")],
)
async def test_a_look_alike_of_a_name_is_taken(
    memory_server: Server, first: str, second: str
) -> None:
    # Compared as every name is (app.names.name_key): "rn" reads as "m", "0" as "O", and
    # capital I as small l whatever the case.
    await _sign_up(memory_server, first)
    r = await memory_server.http.post(
        "/api/accounts", json={"name": second, "password": "another one"}
    )
    assert r.status_code == 409 and r.json()["code"] == "account/name_taken"


@pytest.mark.parametrize(
    ("name", "password", "code"),
    [
        ("ab", "long enough", "account/bad_name"),
        ("a" * 21, "long enough", "account/bad_name"),
        ("an na", "long enough", "account/bad_name"),
        ("Ånna", "long enough", "account/bad_name"),
        ("anna", "short", "account/bad_password"),
        ("anna", "x" * 201, "account/bad_password"),
    ],
)
async def test_bad_names_and_passwords_are_refused_with_their_code(
    memory_server: Server, name: str, password: str, code: str
) -> None:
    r = await memory_server.http.post("/api/accounts", json={"name": name, "password": password})
    assert r.status_code == 422 and r.json()["code"] == code
    # Nothing was made: the name is still free.
    assert (await memory_server.http.get(f"/api/players/{name[:20]}")).status_code in (404, 422)


async def test_a_wrong_name_and_a_wrong_password_get_the_same_answer(
    memory_server: Server,
) -> None:
    await _sign_up(memory_server, "Ben")
    wrong_password = await memory_server.http.post(
        "/api/sessions", json={"name": "Ben", "password": "not the password"}
    )
    no_such_name = await memory_server.http.post(
        "/api/sessions", json={"name": "Nobody", "password": "not the password"}
    )
    assert wrong_password.status_code == no_such_name.status_code == 401
    assert wrong_password.json() == no_such_name.json()
    assert wrong_password.json()["code"] == "account/bad_credentials"


async def test_signing_out_ends_that_token_only(memory_server: Server) -> None:
    first = (await _sign_up(memory_server, "Cleo"))["token"]
    r = await memory_server.http.post(
        "/api/sessions", json={"name": "cleo", "password": "correct horse"}
    )
    second = r.json()["token"]
    assert second != first
    out = await memory_server.http.delete("/api/sessions", headers=_auth(first))
    assert out.status_code == 204
    gone = await memory_server.http.get("/api/me", headers=_auth(first))
    assert gone.status_code == 401 and gone.json()["code"] == "account/bad_token"
    again = await memory_server.http.delete("/api/sessions", headers=_auth(first))
    assert again.status_code == 401 and again.json()["code"] == "account/bad_token"
    assert (await memory_server.http.get("/api/me", headers=_auth(second))).status_code == 200
    bare = await memory_server.http.get("/api/me")
    assert bare.status_code == 401 and bare.json()["code"] == "missing_token"


async def test_more_than_five_failures_a_minute_for_a_name_are_refused(
    store_kind: str, tmp_path: Any
) -> None:
    async with running_server(store_kind, tmp_path) as server:
        await _sign_up(server, "Dora")
        for _ in range(5):
            r = await server.http.post(
                "/api/sessions", json={"name": "DORA", "password": "guessing wrong"}
            )
            assert r.status_code == 401
        # Past the limit even the right password waits (the name compared ignoring case).
        r = await server.http.post(
            "/api/sessions", json={"name": "dora", "password": "correct horse"}
        )
        assert r.status_code == 429 and r.json()["code"] == "account/too_many_failures"
        # From another address: Dora's name is still held, another name is not; the
        # address that failed is held whatever name it tries.
        other = httpx.AsyncClient(
            base_url=server.base, transport=httpx.AsyncHTTPTransport(local_address="127.0.0.2")
        )
        async with other:
            await _sign_up(server, "Emil")
            dora = {"name": "Dora", "password": "correct horse"}
            assert (await other.post("/api/sessions", json=dora)).status_code == 429
            emil = {"name": "Emil", "password": "correct horse"}
            assert (await other.post("/api/sessions", json=emil)).status_code == 200
        held = await server.http.post(
            "/api/sessions", json={"name": "Emil", "password": "correct horse"}
        )
        assert held.status_code == 429


async def test_failures_from_one_address_are_limited_across_names(memory_server: Server) -> None:
    for i in range(5):
        r = await memory_server.http.post(
            "/api/sessions", json={"name": f"guess{i}", "password": "whatever1"}
        )
        assert r.status_code == 401
    r = await memory_server.http.post(
        "/api/sessions", json={"name": "guess9", "password": "whatever1"}
    )
    assert r.status_code == 429 and r.json()["code"] == "account/too_many_failures"


def _ends_in_30_days(expires_at: str) -> bool:
    end = datetime.fromisoformat(expires_at.replace("Z", "+00:00"))
    return expires_at.endswith("Z") and timedelta(days=29) < end - datetime.now(UTC) <= timedelta(
        days=30
    )


async def test_sign_up_and_sign_in_say_when_the_session_ends(memory_server: Server) -> None:
    made = await _sign_up(memory_server, "Kira")
    r = await memory_server.http.post(
        "/api/sessions", json={"name": "kira", "password": "correct horse"}
    )
    assert r.status_code == 200
    assert _ends_in_30_days(made["expiresAt"]) and _ends_in_30_days(r.json()["expiresAt"])


async def test_signing_out_everywhere_ends_every_session_of_the_account(
    memory_server: Server,
) -> None:
    first = (await _sign_up(memory_server, "Lena"))["token"]
    other = (await _sign_up(memory_server, "Mads"))["token"]
    more = [
        (
            await memory_server.http.post(
                "/api/sessions", json={"name": "Lena", "password": "correct horse"}
            )
        ).json()["token"]
        for _ in range(2)
    ]
    out = await memory_server.http.delete("/api/sessions?all=true", headers=_auth(more[0]))
    assert out.status_code == 204
    for token in (first, *more):
        gone = await memory_server.http.get("/api/me", headers=_auth(token))
        assert gone.status_code == 401 and gone.json()["code"] == "account/bad_token"
    assert (await memory_server.http.get("/api/me", headers=_auth(other))).status_code == 200


async def test_a_password_change_ends_every_other_session(store_kind: str, tmp_path: Any) -> None:
    async with running_server(store_kind, tmp_path) as server:
        kept = (await _sign_up(server, "Nora"))["token"]
        ended = (
            await server.http.post(
                "/api/sessions", json={"name": "Nora", "password": "correct horse"}
            )
        ).json()["token"]
        change = "/api/me/password"
        wrong = await server.http.post(
            change,
            json={"password": "not the one", "newPassword": "battery staple"},
            headers=_auth(kept),
        )
        assert wrong.status_code == 401 and wrong.json()["code"] == "account/bad_credentials"
        short = await server.http.post(
            change, json={"password": "correct horse", "newPassword": "short"}, headers=_auth(kept)
        )
        assert short.status_code == 422 and short.json()["code"] == "account/bad_password"
        bare = await server.http.post(
            change, json={"password": "correct horse", "newPassword": "battery staple"}
        )
        assert bare.status_code == 401 and bare.json()["code"] == "missing_token"
        done = await server.http.post(
            change,
            json={"password": "correct horse", "newPassword": "battery staple"},
            headers=_auth(kept),
        )
        assert done.status_code == 204
        assert (await server.http.get("/api/me", headers=_auth(kept))).status_code == 200
        assert (await server.http.get("/api/me", headers=_auth(ended))).status_code == 401
        old = {"name": "Nora", "password": "correct horse"}
        assert (await server.http.post("/api/sessions", json=old)).status_code == 401
        new = {"name": "Nora", "password": "battery staple"}
        assert (await server.http.post("/api/sessions", json=new)).status_code == 200


async def test_a_hash_made_at_another_cost_is_made_anew_at_sign_in(tmp_path: Any) -> None:
    database = f"sqlite+aiosqlite:///{tmp_path}/accounts.db"
    async with running_server("memory", tmp_path, database_url=database) as before:
        await _sign_up(before, "Olav")
        found = await before.app.state.db.password_of(name_key("Olav"))
        assert "m=1024,t=1,p=1" in found[1]
    costlier = {"argon2_time_cost": 2, "argon2_memory_kib": 2048, "argon2_parallelism": 1}
    async with running_server("memory", tmp_path, database_url=database, **costlier) as after:
        body = {"name": "Olav", "password": "correct horse"}
        assert (await after.http.post("/api/sessions", json=body)).status_code == 200
        found = await after.app.state.db.password_of(name_key("Olav"))
        assert "m=2048,t=2,p=1" in found[1]
        # The new hash holds the same password.
        assert (await after.http.post("/api/sessions", json=body)).status_code == 200


async def test_the_password_hash_is_in_no_account_record_read_for_a_token(
    memory_server: Server,
) -> None:
    made = await _sign_up(memory_server, "Pia")
    found = await memory_server.app.state.db.session_by_token(tokens.hash_token(made["token"]))
    assert found is not None and not hasattr(found.account, "password_hash")
    assert (
        "hash" not in (await memory_server.http.get("/api/me", headers=_auth(made["token"]))).text
    )
