"""Seats of a signed-in account in the browser: joining from the lobby's list, by code,
from an invitation and registering in a tournament send the account's token, so the seat
is the account's (its name, locked in the name box, and its rating); a guest joins as
before. At a rated match's end
the table's summary shows each rated seat's rating before and after, with the "?" of a
provisional rating."""

from __future__ import annotations

import json
import re
import secrets
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect
from web_helpers import ROOM_URL, Seat, open_settled_lobby, play_seats

pytestmark = pytest.mark.browser


def _sign_up(base: str, prefix: str) -> dict[str, Any]:
    name = f"{prefix}_{secrets.token_hex(3)}"
    r = httpx.post(f"{base}/api/accounts", json={"name": name, "password": "correct horse"})
    assert r.status_code == 201, r.text
    return dict(r.json())


def _room(base: str, **settings: Any) -> dict[str, Any]:
    body = {"name": f"Table {secrets.token_hex(2)}", "seats": 3, **settings}
    r = httpx.post(f"{base}/api/rooms", json=body)
    assert r.status_code == 201, r.text
    return dict(r.json())


def _seats(base: str, room_id: str) -> list[tuple[str, Any]]:
    players = httpx.get(f"{base}/api/rooms/{room_id}").json()["players"]
    return [(p["name"], p["rating"]) for p in players]


def _signed_in(page: Page, base: str, account: dict[str, Any]) -> None:
    """The browser keeps the account as the account page does after a sign-in."""
    page.goto(f"{base}/#/")
    page.evaluate("account => localStorage.setItem('uno.account', account)", json.dumps(account))
    page.reload()


NEWCOMER = {"value": 1500, "provisional": True, "games": 0}
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def _shots(page: Page, shot: Any, name: str) -> None:
    """The page on a laptop and on a phone (no sideways scrolling there)."""
    shot(page, f"{name}-1280", full_page=False)
    page.set_viewport_size(PHONE)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, f"{name}-390", full_page=False)
    page.set_viewport_size(LAPTOP)


def test_a_signed_in_browser_takes_seats_as_its_account_and_a_guest_as_before(
    new_page, server_url, shot
):
    base = server_url
    anna = _sign_up(base, "Anna")
    page: Page = new_page(viewport=LAPTOP)
    _signed_in(page, base, anna)

    # The lobby's list: the name box shows the account's name, locked.
    listed = _room(base)
    open_settled_lobby(page, base)
    name_box = page.get_by_test_id("player-name")
    expect(name_box).to_have_value(anna["name"])
    expect(name_box).not_to_be_editable()
    expect(page.locator("#player-name-help")).to_contain_text(f"Signed in as {anna['name']}")
    _shots(page, shot, "80-lobby-signed-in")
    page.locator(f'[data-testid="join-room"][data-room-id="{listed["roomId"]}"]').click()
    page.wait_for_url(ROOM_URL)
    expect(page.get_by_test_id("seats-list")).to_contain_text(anna["name"])
    assert _seats(base, listed["roomId"]) == [(anna["name"], NEWCOMER)]

    # By code from the lobby.
    coded = _room(base, private=True)
    open_settled_lobby(page, base)
    page.get_by_test_id("room-code").fill(coded["code"])
    page.get_by_test_id("join").click()
    page.wait_for_url(re.compile(f"#/room/{coded['roomId']}"))
    expect(page.get_by_test_id("seats-list")).to_contain_text(anna["name"])
    assert _seats(base, coded["roomId"]) == [(anna["name"], NEWCOMER)]

    # An invitation: "Take a seat" with the account's name, locked.
    invited = _room(base, private=True)
    page.goto(f"{base}/#/room/{invited['roomId']}?code={invited['code']}")
    seat_name = page.get_by_test_id("seat-name")
    expect(seat_name).to_have_value(anna["name"])
    expect(seat_name).not_to_be_editable()
    _shots(page, shot, "81-invitation-signed-in")
    page.get_by_test_id("take-seat").get_by_test_id("join").click()
    expect(page.get_by_test_id("seats-list")).to_contain_text(anna["name"])
    assert _seats(base, invited["roomId"]) == [(anna["name"], NEWCOMER)]

    # A guest in another browser: a name of their own, no rating.
    guest: Page = new_page()
    guest.goto(f"{base}/#/room/{invited['roomId']}?code={invited['code']}")
    expect(guest.get_by_test_id("seat-name")).to_be_editable()
    guest.get_by_test_id("seat-name").fill("Guest Gus")
    guest.get_by_test_id("take-seat").get_by_test_id("join").click()
    expect(guest.get_by_test_id("seats-list")).to_contain_text("Guest Gus")
    assert _seats(base, invited["roomId"]) == [(anna["name"], NEWCOMER), ("Guest Gus", None)]

    # A tournament's page registers the account under its name, locked too.
    made = httpx.post(
        f"{base}/api/tournaments",
        json={"name": "Club night", "rounds": 2, "turnSeconds": 20, "rated": True},
    ).json()
    page.goto(f"{base}/#/tournament/{made['tournamentId']}")
    expect(page.get_by_test_id("register-name")).to_have_value(anna["name"])
    expect(page.get_by_test_id("register-name")).not_to_be_editable()
    page.get_by_test_id("register").click()
    expect(page.get_by_test_id("my-entry")).to_have_attribute("data-player-status", "active")
    field = httpx.get(f"{base}/api/tournaments/{made['tournamentId']}").json()["players"]
    assert [(p["playerId"], p["name"], p["account"]) for p in field] == [
        (anna["playerId"], anna["name"], True)
    ]


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)], ids=["phone", "laptop"])
def test_a_rated_matchs_summary_shows_each_rated_seats_rating_change(
    new_page, server_url, shot, size
):
    base = server_url
    cleo, dan = _sign_up(base, "Cleo"), _sign_up(base, "Dan")
    room = _room(base, seats=2, rated=True, rules={"preset": "oneAndDone"})
    page: Page = new_page(viewport={"width": size[0], "height": size[1]})
    _signed_in(page, base, cleo)
    page.goto(f"{base}/#/room/{room['roomId']}")
    page.get_by_test_id("take-seat").get_by_test_id("join").click()
    expect(page.get_by_test_id("seats-list")).to_contain_text(cleo["name"])
    auth = {"Authorization": f"Bearer {dan['token']}"}
    joined = httpx.post(f"{base}/api/rooms/{room['roomId']}/join", json={"name": "x"}, headers=auth)
    assert joined.status_code == 201, joined.text
    host = {"Authorization": f"Bearer {room['hostToken']}"}
    assert httpx.post(f"{base}/api/rooms/{room['roomId']}/start", headers=host).status_code == 200
    expect(page.get_by_test_id("turn-indicator")).to_be_visible()
    # Both accounts play the match to its end, each over a socket of its own (Cleo's
    # with the seat token her browser keeps), so both are still playing: it is rated.
    mine = page.evaluate(f"JSON.parse(localStorage.getItem('uno.room.{room['roomId']}'))")
    play_seats(
        base,
        [
            Seat(room["roomId"], mine["seat"], mine["token"]),
            Seat(room["roomId"], joined.json()["seat"], joined.json()["token"]),
        ],
    )
    summary = page.get_by_test_id("summary")
    expect(summary).to_be_visible()
    block = summary.get_by_test_id("rating-changes")
    expect(block).to_have_attribute("data-state", "shown", timeout=30_000)
    changes = block.get_by_test_id("rating-change")
    expect(changes).to_have_count(2)
    rated = httpx.get(f"{base}/api/matches/{_match_id(base, cleo['name'])}/ratings").json()
    assert rated["rated"]
    for change in rated["seats"]:
        row = block.locator(f'[data-testid="rating-change"][data-seat="{change["seat"]}"]')
        name = cleo["name"] if change["seat"] == 0 else dan["name"]
        diff = change["ratingAfter"] - change["ratingBefore"]
        signed = f"+{diff}" if diff > 0 else f"−{-diff}"
        expect(row).to_contain_text(name)
        expect(row.locator(".change")).to_have_text(
            f"{change['ratingBefore']} → {change['ratingAfter']}? ({signed})"
        )
        # Why it moved: the place among the match's players.
        place = {1: "1st", 2: "2nd"}[change["place"]]
        expect(row.get_by_test_id("rating-reason")).to_contain_text(f"{place} of 2")
    winner, loser = sorted(rated["seats"], key=lambda change: change["place"])
    assert winner["ratingAfter"] > 1500 > loser["ratingAfter"]
    # The changes on the first screen, without scrolling (the table folds away on a phone).
    assert page.evaluate("window.scrollY") == 0
    b = block.bounding_box()
    assert b and b["y"] >= 0 and b["y"] + b["height"] <= size[1]
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= size[0]
    shot(page, f"82-rating-change-{size[0]}", full_page=False)


def _match_id(base: str, name: str) -> str:
    """The match just played: the newest of the account's profile."""
    recent = httpx.get(f"{base}/api/players/{name}").json()["recent"]
    return str(recent[0]["matchId"])


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)], ids=["phone", "laptop"])
def test_the_room_form_has_a_rated_switch_for_a_signed_in_host(new_page, server_url, size):
    base = server_url
    page: Page = new_page(viewport={"width": size[0], "height": size[1]})
    # A guest's form says rated play needs an account, and has no switch.
    open_settled_lobby(page, base)
    expect(page.get_by_test_id("rated-needs-account")).to_contain_text("need an account")
    expect(page.get_by_test_id("rated")).to_have_count(0)
    eve = _sign_up(base, "Eve")
    _signed_in(page, base, eve)
    open_settled_lobby(page, base)
    switch = page.get_by_test_id("rated")
    expect(switch).not_to_be_checked()
    switch.check()
    b = switch.bounding_box()
    assert b and b["x"] >= 0 and b["x"] + b["width"] <= size[0]
    page.get_by_test_id("create-room").click()
    page.wait_for_url(ROOM_URL)
    room_id = page.url.split("/room/")[1].split("?")[0]
    info = httpx.get(f"{base}/api/rooms/{room_id}").json()
    assert info["rated"] is True
    assert _seats(base, room_id)[0][0] == eve["name"]
