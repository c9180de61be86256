"""Names compared by their key (app.names): a ban, a seat's name in a room and a player's
name in a tournament are not walked past by a name that only looks the same; names are
stored trimmed and without format characters."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st
from live import Server

from app.names import clean_name, name_key

LOOK_ALIKES = [
    " Bob",
    "Bob ",
    "Bob\u200b",
    "B\u200dob",
    "B\u043eb",  # Cyrillic o
    "\uff22\uff4f\uff42",  # fullwidth
    "BOB",
    "B0b",
    "\u202eBob",  # right-to-left override
]


def _host(room: dict) -> dict[str, str]:
    return {"Authorization": f"Bearer {room['hostToken']}"}


def test_look_alikes_of_a_name_share_its_key() -> None:
    assert {name_key(n) for n in LOOK_ALIKES} == {name_key("Bob")}
    assert name_key("Bob") != name_key("Rob")
    assert name_key("Ann Lee") == name_key("Ann  Lee") != name_key("AnnLee")


def test_a_name_is_kept_trimmed_and_without_format_characters() -> None:
    assert clean_name("  Ann\u200b \t Lee\u202e ") == "Ann Lee"
    assert clean_name("\u200b\u2066") == ""
    # Letters are kept as typed: only the key folds them.
    assert clean_name("B\u043eb") == "B\u043eb"


text = st.text(st.characters(codec="utf-8"), max_size=20)


@given(text)
def test_cleaning_is_idempotent_and_keeps_the_key(name: str) -> None:
    cleaned = clean_name(name)
    assert clean_name(cleaned) == cleaned
    assert name_key(cleaned) == name_key(name)
    assert all(unicodedata.category(c) not in ("Cc", "Cf") for c in cleaned)
    assert cleaned == cleaned.strip()


@given(text, st.sampled_from(["\u200b", "\u200c", "\u2060", "\ufeff", "\u00ad", " "]))
def test_format_characters_and_spaces_around_do_not_change_the_key(name: str, extra: str) -> None:
    assert name_key(extra + name + extra) == name_key(name)


async def test_a_kicked_name_cannot_come_back_as_a_look_alike(server: Server) -> None:
    room = await server.create(seats=4)
    rid = room["roomId"]
    await server.join(rid, "Bob")
    r = await server.http.post(f"/api/rooms/{rid}/kick", json={"seat": 0}, headers=_host(room))
    assert r.status_code == 204
    for name in LOOK_ALIKES:
        r = await server.http.post(f"/api/rooms/{rid}/join", json={"name": name})
        assert r.status_code == 403 and r.json()["code"] == "banned", name
    info = (await server.http.get(f"/api/rooms/{rid}")).json()
    assert info["players"] == [] and info["bans"] == ["Bob"]
    # Lifting the ban by a look-alike lifts the one ban it falls under.
    r = await server.http.post(
        f"/api/rooms/{rid}/unban", json={"name": "B\u043eb "}, headers=_host(room)
    )
    assert r.status_code == 204
    assert (await server.join(rid, "Bob"))["seat"] == 0


async def test_a_room_seats_one_player_per_name(server: Server) -> None:
    room = await server.create(seats=4)
    rid = room["roomId"]
    await server.join(rid, "Bob")
    for name in LOOK_ALIKES:
        r = await server.http.post(f"/api/rooms/{rid}/join", json={"name": name})
        assert r.status_code == 409 and r.json()["code"] == "name_taken", name
    info = (await server.http.get(f"/api/rooms/{rid}")).json()
    assert [p["name"] for p in info["players"]] == ["Bob"]


async def test_a_seat_name_is_stored_trimmed_and_without_format_characters(
    server: Server,
) -> None:
    room = await server.create(name=" Friday\u200b  night ", seats=4)
    rid = room["roomId"]
    await server.join(rid, "\u202e Ann \u200b  Lee ")
    info = (await server.http.get(f"/api/rooms/{rid}")).json()
    assert info["name"] == "Friday night"
    assert [p["name"] for p in info["players"]] == ["Ann Lee"]
    # A name of format characters alone is no name; C1 controls are refused as C0 are.
    for name in ("\u200b\u200d", "\x96", "Ann\x85Lee"):
        r = await server.http.post(f"/api/rooms/{rid}/join", json={"name": name})
        assert r.status_code == 422, name


async def test_a_tournament_registers_one_player_per_name(server: Server) -> None:
    body = {"name": "Club night", "rounds": 2, "turnSeconds": 20}
    made = (await server.http.post("/api/tournaments", json=body)).json()
    players = f"/api/tournaments/{made['tournamentId']}/players"
    assert (await server.http.post(players, json={"name": "Bob"})).status_code == 201
    for name in LOOK_ALIKES:
        r = await server.http.post(players, json={"name": name})
        assert r.status_code == 409 and r.json()["code"] == "tournament/name_taken", name


ascii_names = st.text(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-", max_size=20
)


@given(ascii_names)
def test_case_never_parts_two_names(name: str) -> None:
    assert name_key(name) == name_key(name.upper()) == name_key(name.lower())


@given(ascii_names)
def test_capital_i_small_l_and_one_are_one_letter_whatever_the_case(name: str) -> None:
    # UTS #39 joins "I", "l" and "1", "O" and "0": the skeleton is taken before case is
    # folded, so "WiII" is "Will" and "lan" is "Ian".
    swapped = name.translate(str.maketrans("Il1O0", "l1I0O"))
    assert name_key(swapped) == name_key(name)
    assert name_key("WiII") == name_key("Will") and name_key("lan") == name_key("Ian")
