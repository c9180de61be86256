"""What a player does in the browser, written once for every browser test.

Everything goes through the page as a person would (click, type) and the stable
``data-testid`` hooks; nothing reaches into the client's JavaScript state.
"""

from __future__ import annotations

import asyncio
import re
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from playwright.sync_api import Locator, Page, expect

# uno-client for Python plays seats over sockets beside the browser.
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients" / "python"))

from uno_client import ActionRefused, Seat, UnoServer, complete  # noqa: E402

ROOM_URL = re.compile(r"#/room/")


def create_room(
    page: Page,
    base: str,
    player: str,
    *,
    preset: str = "classic",
    seats: int = 2,
    private: bool = False,
    options: dict[str, Any] | None = None,
) -> tuple[str, str]:
    """Create a room from the lobby as ``player``; returns (room id, room code)."""
    open_settled_lobby(page, base)
    page.get_by_test_id("player-name").fill(player)
    page.get_by_test_id("seats").fill(str(seats))
    page.get_by_test_id("preset").select_option(preset)
    if private:
        page.get_by_test_id("private").check()
    if options:
        for name, value in options.items():
            control = show_rule(page, name)
            if isinstance(value, bool):
                control.set_checked(value)
            elif isinstance(value, int):
                control.fill(str(value))
            else:
                control.select_option(value)
    page.get_by_test_id("create-room").click()
    page.wait_for_url(ROOM_URL)
    code = page.get_by_test_id("room-code").inner_text().strip()
    room_id = page.url.split("#/room/")[1].split("?")[0]
    return room_id, code


def show_rule(page: Page, name: str) -> Locator:
    """An option's control in the rules editor, on view: "More rules" opened and the
    section that holds it unfolded (the common house rules need neither)."""
    control = page.locator(f"#rule-{name}")
    if control.is_visible():
        return control
    editor = page.locator(f'[data-testid="rules-editor"]:has(#rule-{name})')
    if not editor.evaluate("details => details.open"):
        editor.locator("summary").first.click()
    toggle = page.locator(f'.rule-section:has(#rule-{name}) [data-testid="rule-section"]')
    if toggle.get_attribute("aria-expanded") != "true":
        toggle.click()
    return control


def join_by_code(page: Page, base: str, player: str, code: str) -> str:
    """Join with a code from the lobby; returns the room id."""
    open_settled_lobby(page, base)
    page.get_by_test_id("player-name").fill(player)
    page.get_by_test_id("room-code").fill(code)
    page.get_by_test_id("join").click()
    page.wait_for_url(ROOM_URL)
    return page.url.split("#/room/")[1].split("?")[0]


def join_from_list(page: Page, base: str, player: str, room_id: str) -> None:
    """Join a public room by its entry in the lobby's list."""
    open_settled_lobby(page, base)
    page.get_by_test_id("player-name").fill(player)
    page.locator(f'[data-testid="join-room"][data-room-id="{room_id}"]').click()
    page.wait_for_url(ROOM_URL)


def start(host: Page, players: int) -> None:
    """The host starts once ``players`` seats show as taken."""
    expect(host.locator(".seat:not(.empty)")).to_have_count(players)
    host.get_by_test_id("start").click()
    expect(host.get_by_test_id("turn-indicator")).to_be_visible()


def seq(page: Page) -> int:
    value = page.locator(".table").get_attribute("data-seq")
    return int(value or 0)


def hand(page: Page) -> list[str]:
    return (
        page.get_by_test_id("hand")
        .get_by_test_id("card")
        .evaluate_all("els => els.map(e => e.dataset.card)")
    )


def phase(page: Page) -> str:
    return page.get_by_test_id("turn-indicator").get_attribute("data-phase") or ""


def my_turn(page: Page) -> bool:
    return page.get_by_test_id("turn-indicator").get_attribute("data-mine") == "true"


def enabled(page: Page, testid: str) -> bool:
    button = page.get_by_test_id(testid)
    return button.count() > 0 and button.first.get_attribute("data-enabled") == "true"


def wait_change(page: Page, before: int, timeout: float = 10_000) -> None:
    """Wait until the table shows a later ``seq`` than ``before``."""
    page.wait_for_function(
        "before => Number(document.querySelector('.table')?.dataset.seq || 0) > before",
        arg=before,
        timeout=timeout,
    )


def same_seq(pages: list[Page], timeout: float = 10.0) -> int:
    """Wait until every page shows the same latest change; returns its seq."""
    deadline = time.monotonic() + timeout
    while True:
        seqs = [seq(p) for p in pages]
        if len(set(seqs)) == 1:
            return seqs[0]
        if time.monotonic() > deadline:
            raise AssertionError(f"the pages disagree on the latest change: {seqs}")
        pages[0].wait_for_timeout(50)


def take_turn(page: Page) -> str:
    """One move of a simple, always-finishing strategy; returns what it did.

    Play the first playable card (a wild names the first colour offered, a seven swaps with
    the first seat offered); else pass after a draw, else draw.
    Called only when it is this page's turn (or it must name a colour / answer a Wild
    Draw Four); waits until the move shows on this page.
    """
    before = seq(page)
    did = ""
    if page.get_by_test_id("challenge").count():
        page.get_by_test_id("draw").click()  # take the penalty: no bluff-hunting here
        did = "take"
    elif page.locator(".prompt [data-testid^=color-]").count():
        page.locator(".prompt [data-testid^=color-]").first.click()
        did = "color"
    else:
        if enabled(page, "uno"):
            page.get_by_test_id("uno").click()
            wait_change(page, before)
            before = seq(page)
        playable = page.locator('[data-testid=card][data-playable="true"]')
        if playable.count():
            card = playable.first.get_attribute("data-card") or ""
            playable.first.click()
            picker = page.locator("dialog.picker")
            if picker.count():
                if picker.locator("[data-testid^=color-]").count():
                    picker.locator("[data-testid^=color-]").first.click()
                elif picker.locator("[data-testid^=target-]").count():
                    picker.locator("[data-testid^=target-]").first.click()
                else:  # multi-play: add nothing
                    picker.get_by_test_id("play-selected").click()
            did = f"play {card}"
        elif enabled(page, "pass"):
            page.get_by_test_id("pass").click()
            did = "pass"
        else:
            page.get_by_test_id("draw").click()
            did = "draw"
    wait_change(page, before)
    return did


def play_until_deal_over(pages: list[Page], max_moves: int = 600) -> int:
    """Let each page move when the table says it is its turn, until the deal ends."""
    moves = 0
    while moves < max_moves:
        if phase(pages[0]) in ("dealOver", "matchOver"):
            return moves
        live = ("playing", "chooseColor")
        mover = next((p for p in pages if my_turn(p) and phase(p) in live), None)
        if mover is None:
            # Someone's view is behind: let the pages catch up with each other.
            pages[0].wait_for_timeout(50)
            continue
        take_turn(mover)
        moves += 1
        # Every page must show the same change before the next move is chosen.
        target = seq(mover)
        for p in pages:
            if p is not mover:
                wait_change(p, target - 1)
    raise AssertionError(f"the deal did not end within {max_moves} moves")


def open_settled_lobby(page: Page, base: str) -> Page:
    """Open the lobby and wait until it has rendered for the last time on its own: it
    re-renders once the rules catalogue arrives, which would replace anything a test
    rendered into the page before that."""
    page.goto(f"{base}/#/")
    expect(page.get_by_test_id("rules-editor")).to_be_attached()
    expect(page.get_by_test_id("create-room")).to_be_visible()
    return page


async def play_seat(server: UnoServer, seat: Seat) -> dict[str, Any]:
    """Play the seat over a socket of its own to the match's end, shedding cards first;
    its last view."""
    async with server.session(seat) as room:
        while room.view["phase"] != "matchOver":
            view = room.view
            if view["turn"] != room.me:
                await room.changed()
                continue
            moves = [e for e in room.legal if e["type"] not in ("callUno", "catchUno")]
            sheds = [e for e in moves if e["type"] == "play"]
            try:
                await room.act(complete((sheds or moves)[0]))
            except ActionRefused:
                pass
        return dict(room.view)


def play_seats(base: str, seats: list[Seat]) -> list[dict[str, Any]]:
    """Play every seat of a started match to its end, each over a socket of its own (as
    its player would, so none is played by the autopilot); each seat's last view."""

    async def play_all() -> list[dict[str, Any]]:
        async with UnoServer(base) as server:
            return list(await asyncio.gather(*(play_seat(server, s) for s in seats)))

    # Playwright's sync API keeps an event loop of its own: the match is played on another.
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, play_all()).result()
