"""A finished match watched again: from the profile's recent matches to the replay page on a
phone, stepping with the buttons and the keys; from the match's summary at its table to the
replay on a laptop in Danish, the last step's scores, the shuffle verified and the slider."""

from __future__ import annotations

import asyncio
import json
import re
import secrets
import sys
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

CLIENT = Path(__file__).resolve().parents[2] / "clients" / "python"
sys.path.insert(0, str(CLIENT))

from uno_client import UnoServer  # noqa: E402
from web_helpers import play_seat  # noqa: E402

pytestmark = pytest.mark.browser


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        found: dict[str, Any] = json.loads(response.read())
        return found


def _get(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(url, timeout=10) as response:
        found: dict[str, Any] = json.loads(response.read())
        return found


async def _a_finished_match(base: str, account_token: str) -> tuple[str, str]:
    async with UnoServer(base) as server:
        room = await server.create_room("Replay night", {"preset": "oneAndDone"}, 2)
        seats = [
            await server.join(room.room_id, "ignored", account_token),
            await server.join(room.room_id, "Bo"),
        ]
        await server.start(room)
        views = await asyncio.gather(*(play_seat(server, s) for s in seats))
        return room.room_id, views[0]["room"]["matchId"]


def _stored(base: str, match_id: str) -> None:
    """Wait for the archive to store the match (a moment after its end)."""
    for _ in range(200):
        try:
            with urllib.request.urlopen(f"{base}/api/matches/{match_id}/deals/1/frames") as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.1)
    raise AssertionError("the match was never stored")


@pytest.fixture(scope="module")
def finished(server_url: str) -> tuple[str, str, str]:
    """A signed-up player's finished one-deal match: (the player's name, its room's id,
    the match id)."""
    name = f"Rea_{secrets.token_hex(3)}"
    token = _post(f"{server_url}/api/accounts", {"name": name, "password": "a long password"})
    # Playwright's sync API keeps an event loop of its own: the match is played on another.
    with ThreadPoolExecutor(1) as pool:
        played = pool.submit(asyncio.run, _a_finished_match(server_url, token["token"]))
        room_id, match_id = played.result()
    _stored(server_url, match_id)
    return name, room_id, match_id


def _steps(page: Page) -> tuple[int, int]:
    text = page.get_by_test_id("replay-step").inner_text()
    found = re.fullmatch(r"(\d+) / (\d+)", text)
    assert found, text
    return int(found[1]), int(found[2])


def test_a_profile_links_the_replay_which_steps_on_a_phone(new_page, server_url, finished, axe):
    name, _, match_id = finished
    page: Page = new_page(viewport={"width": 390, "height": 844})
    page.goto(f"{server_url}/player.html?name={name}")
    page.get_by_test_id("recent-replay").first.click()
    page.wait_for_url(f"**/replay.html?match={match_id}&deal=1")
    expect(page.get_by_test_id("replay-step")).to_have_text(re.compile(r"^1 / \d+$"))
    assert _steps(page)[1] > 2
    expect(page.get_by_test_id("replay-hand")).to_have_count(2)
    # Every hand face up, as dealt: seven cards each, and two more for the seat that a
    # first card turned up as a Draw Two made draw (the shuffle is the match's own).
    dealt = _get(f"{server_url}/api/matches/{match_id}/deals/1/frames")["frames"][0]
    assert sorted(len(hand) for hand in dealt["view"]["hands"])[0] == 7
    for seat, hand in enumerate(dealt["view"]["hands"]):
        cards = page.locator(f'[data-testid="replay-hand"][data-seat="{seat}"] .card')
        expect(cards).to_have_count(len(hand))
    expect(page.get_by_test_id("replay-action")).to_have_text("The cards are dealt.")
    expect(page.get_by_test_id("replay-prev")).to_be_disabled()

    page.get_by_test_id("replay-next").click()
    expect(page.get_by_test_id("replay-step")).to_have_text(re.compile(r"^2 / "))
    expect(page.get_by_test_id("replay-action")).not_to_have_text("The cards are dealt.")
    page.keyboard.press("ArrowRight")
    expect(page.get_by_test_id("replay-step")).to_have_text(re.compile(r"^3 / "))
    page.get_by_test_id("replay-prev").click()
    expect(page.get_by_test_id("replay-step")).to_have_text(re.compile(r"^2 / "))
    # No page wider than the phone.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert axe(page) == []


def test_the_last_step_shows_the_scores_and_the_shuffle_in_danish_on_a_laptop(
    new_page, server_url, finished
):
    _, room_id, match_id = finished
    page: Page = new_page("da", viewport={"width": 1280, "height": 800})
    # The match's summary at its table links the deal's replay.
    page.goto(f"{server_url}/#/room/{room_id}")
    page.get_by_test_id("summary-replay").click()
    expect(page.get_by_test_id("replay-step")).to_have_text(re.compile(r"^1 / \d+$"))
    _, total = _steps(page)
    page.keyboard.press("End")
    expect(page.get_by_test_id("replay-step")).to_have_text(f"{total} / {total}")
    expect(page.get_by_test_id("replay-next")).to_be_disabled()
    expect(page.get_by_test_id("replay-scores")).to_contain_text("Spillets point")
    # One hand is empty at the end: its player went out.
    counts = [h.locator(".card").count() for h in page.get_by_test_id("replay-hand").all()]
    assert sorted(counts)[0] == 0 and len(counts) == 2
    expect(page.get_by_test_id("replay-shuffle")).to_have_attribute("data-state", "verified")
    expect(page.get_by_test_id("replay-shuffle")).to_contain_text("Blandingen er kontrolleret")
    page.get_by_test_id("replay-slider").fill("0")
    expect(page.get_by_test_id("replay-step")).to_have_text(f"1 / {total}")
    expect(page.get_by_test_id("replay-action")).to_have_text("Kortene gives.")
