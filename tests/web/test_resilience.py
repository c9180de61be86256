"""Reloads, lost sockets and missed patches: the client keeps (or gets back) the seat's view.

Socket trouble is made with Playwright's WebSocket routing, which sits between the page
and the real server: it forwards every message, and can close the page's side of the
socket or hold back one message, as a flaky network would.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect
from web_helpers import (
    create_room,
    hand,
    join_by_code,
    my_turn,
    same_seq,
    seq,
    start,
    take_turn,
    wait_change,
)

pytestmark = pytest.mark.browser

ROOM_SOCKET = re.compile(r"/ws/rooms/")


def two_player_table(new_page, server_url, anna=None):
    anna = anna or new_page()
    ben = new_page()
    _, code = create_room(anna, server_url, "Anna", seats=2)
    join_by_code(ben, server_url, "Ben", code)
    start(anna, players=2)
    expect(ben.get_by_test_id("turn-indicator")).to_be_visible()
    return anna, ben


def mover_of(*pages):
    return next(p for p in pages if my_turn(p))


class SocketTap:
    """Routes a page's room sockets through the test: records what the page sends, and can
    cut the connection or hold back the next ``patch`` from the server."""

    def __init__(self, page):
        self.sent: list[dict] = []
        self.routes: list = []
        self.drop_next_patch = False
        self.dropped: list[int] = []
        self.hold_actions = False  # swallow actions, as a socket dying under them does
        self.cut_routes: set[int] = set()  # indexes of routes cut: nothing more passes
        page.route_web_socket(ROOM_SOCKET, self.handle)

    def handle(self, ws):
        server = ws.connect_to_server()
        index = len(self.routes)
        self.routes.append((ws, server))

        def from_page(message):
            data = json.loads(message)
            self.sent.append(data)
            if self.hold_actions and data.get("type") == "action":
                return
            # A frame the page sent as the line was cut is lost with it (sending it on
            # a closed socket would be an error in the page's console).
            if index not in self.cut_routes:
                server.send(message)

        def from_server(message):
            if index in self.cut_routes:
                return
            data = json.loads(message)
            if data.get("type") == "patch" and self.drop_next_patch:
                self.drop_next_patch = False
                self.dropped.append(data["seq"])
                return
            ws.send(message)

        ws.on_message(from_page)
        server.on_message(from_server)

    def cut(self):
        """Close the live socket on both sides, as a lost network does."""
        ws, server = self.routes[-1]
        self.cut_routes.add(len(self.routes) - 1)
        server.close(code=1000, reason="test")
        ws.close(code=1012, reason="test: network lost")


def test_reload_mid_deal_resumes_the_same_hand(new_page, server_url, shot):
    anna, ben = two_player_table(new_page, server_url)
    for _ in range(3):
        take_turn(mover_of(anna, ben))
        same_seq([anna, ben])
    before_hand, before_seq = hand(anna), seq(anna)
    anna.reload()
    expect(anna.get_by_test_id("hand")).to_be_visible()
    # The same seat and cards; the reload itself adds the seat's disconnect and connect.
    assert hand(anna) == before_hand
    assert seq(anna) >= before_seq
    expect(anna.get_by_test_id("connection")).to_have_attribute("data-state", "online")
    shot(anna, "20-after-reload")
    # And the seat still plays.
    mover = mover_of(anna, ben)
    take_turn(mover)


def test_lost_socket_reconnects_and_resumes_from_last_seq(new_page, server_url):
    anna = new_page()
    tap = SocketTap(anna)
    anna, ben = two_player_table(new_page, server_url, anna)
    wait_change(anna, seq(ben) - 1)
    last = seq(anna)
    tap.cut()
    # The page notices, retries with backoff, and asks only for what it missed.
    anna.wait_for_function("() => document.querySelector('#conn').dataset.state === 'online'")
    anna.wait_for_function(
        "n => Number(document.querySelector('.table').dataset.seq) > n", arg=last
    )
    resumes = [m for m in tap.sent if m.get("type") == "resume"]
    assert resumes and resumes[0]["lastSeq"] >= last
    assert len(tap.routes) == 2
    # Moves made after the reconnect reach both pages.
    take_turn(mover_of(anna, ben))
    same_seq([anna, ben])


def test_a_missed_patch_is_noticed_and_fetched_again(new_page, server_url):
    anna = new_page()
    tap = SocketTap(anna)
    anna, ben = two_player_table(new_page, server_url, anna)
    wait_change(anna, seq(ben) - 1)
    tap.drop_next_patch = True
    # Ben reloads: his disconnect and connect are two changes; Anna misses the first.
    ben.reload()
    expect(ben.get_by_test_id("hand")).to_be_visible()
    anna.wait_for_function(
        "n => Number(document.querySelector('.table').dataset.seq) >= n", arg=seq(ben)
    )
    assert tap.dropped, "no patch was held back"
    resumes = [m for m in tap.sent if m.get("type") == "resume"]
    assert resumes and resumes[0]["lastSeq"] == tap.dropped[0] - 1
    # The view is whole again: Ben shows online with his seven cards.
    ben_chip = anna.locator(f'[data-testid=player][data-seat="{seat_of(ben)}"]')
    expect(ben_chip.locator(".dot")).to_have_attribute("aria-label", "online")
    expect(ben_chip.get_by_test_id("card-count")).to_have_text(f"{len(hand(ben))} cards")


def seat_of(page):
    return page.locator(".table").get_attribute("data-you")


def test_an_action_lost_with_its_socket_is_sent_again_and_applied_once(new_page, server_url):
    anna = new_page()
    tap = SocketTap(anna)
    anna, ben = two_player_table(new_page, server_url, anna)
    wait_change(anna, seq(ben) - 1)
    for _ in range(10):  # let Ben move until Anna holds the turn (a Skip may keep it his)
        same_seq([anna, ben])
        if my_turn(anna):
            break
        take_turn(ben)
    if anna.get_by_test_id("turn-indicator").get_attribute("data-phase") == "chooseColor":
        take_turn(anna)
    before = len(hand(anna))
    badge = anna.get_by_test_id("pending-draw")
    drawn = int(badge.inner_text().split("+")[1]) if badge.count() else 1
    earlier = len([m for m in tap.sent if m.get("type") == "action"])  # a colour chosen
    tap.hold_actions = True
    anna.get_by_test_id("draw").click()
    anna.wait_for_timeout(200)
    assert hand(anna) and len(hand(anna)) == before  # nothing reached the server
    tap.hold_actions = False
    tap.cut()
    # After the reconnect the draw goes out again, with the same id, and counts once.
    expect(anna.get_by_test_id("hand").get_by_test_id("card")).to_have_count(before + drawn)
    ids = [m["id"] for m in tap.sent if m.get("type") == "action"][earlier:]
    assert len(ids) == 2 and ids[0] == ids[1]
    anna.wait_for_timeout(300)
    assert len(hand(anna)) == before + drawn
