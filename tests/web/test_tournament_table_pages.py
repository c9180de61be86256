"""A tournament's pages as its players read them: the host's every action in the public
log, a table's own waiting page (table-mates, when it deals, the way back; none of a
casual room's share tools or rules), and on a phone the standings first."""

from __future__ import annotations

import secrets
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
LAPTOP = {"viewport": {"width": 1280, "height": 800}}


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _tournament(base: str, **fields: Any) -> dict[str, Any]:
    body = {
        "name": "Club night",
        "rounds": 2,
        "turnSeconds": 20,
        "tableStartSeconds": 600,  # nobody deals during the test
        "rules": {"preset": "classic"},
        **fields,
    }
    r = httpx.post(f"{base}/api/tournaments", json=body)
    assert r.status_code == 201, r.text
    return dict(r.json())


def _register(base: str, tid: str, name: str) -> str:
    r = httpx.post(f"{base}/api/tournaments/{tid}/players", json={"name": name})
    assert r.status_code == 201, r.text
    return str(r.json()["token"])


def _host(base: str, made: dict[str, Any], path: str, method: str = "post", **kw: Any) -> Any:
    r = httpx.request(
        method,
        f"{base}/api/tournaments/{made['tournamentId']}{path}",
        headers=_bearer(made["hostToken"]),
        **kw,
    )
    assert r.status_code == 200, r.text
    return r.json()


def _within(page: Page, testid: str) -> dict[str, float]:
    box = page.get_by_test_id(testid).bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"], (testid, box)
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], (testid, box)
    return box


def _register_in_page(page: Page, base: str, tid: str, name: str) -> None:
    page.goto(f"{base}/#/tournament/{tid}")
    page.get_by_test_id("register-name").fill(name)
    page.get_by_test_id("register").click()
    expect(page.get_by_test_id("my-entry")).to_contain_text(name)


def test_the_audit_log_shows_open_check_in_start_and_next_round(new_page, server_url):
    made = _tournament(server_url)
    tid = made["tournamentId"]
    tokens = [_register(server_url, tid, name) for name in ("Ada", "Bo", "Cai")]
    _host(server_url, made, "/check-in/open")
    for token in tokens[:2]:
        r = httpx.post(f"{server_url}/api/tournaments/{tid}/check-in", headers=_bearer(token))
        assert r.status_code == 200, r.text
    doc = _host(server_url, made, "/start")
    table = doc["roundLog"][0]["tables"][0]
    result = [{"playerId": p, "place": i + 1} for i, p in enumerate(table["players"])]
    _host(
        server_url,
        made,
        f"/tables/{table['tableId']}/result",
        method="put",
        json={"result": result, "reason": "tallied on paper"},
    )
    _host(server_url, made, "/rounds", json={"round": 2})

    page: Page = new_page(**LAPTOP)
    page.goto(f"{server_url}/#/tournament/{tid}")
    entries = page.get_by_test_id("audit").locator("li")
    expect(entries).to_have_count(4)
    expect(entries.nth(0)).to_contain_text("The host opened check-in.")
    expect(entries.nth(1)).to_contain_text("The host started the tournament; not checked in: Cai.")
    expect(entries.nth(2)).to_contain_text("Result of table r1t1 corrected: tallied on paper")
    expect(entries.nth(3)).to_contain_text("The host started round 2.")
    page.get_by_test_id("audit").scroll_into_view_if_needed()
    _within(page, "audit")


def test_a_tournament_tables_waiting_page_shows_the_table_mates_the_deal_and_the_way_back(
    new_page, server_url
):
    made = _tournament(server_url)
    tid = made["tournamentId"]
    ada: Page = new_page(**PHONE)
    _register_in_page(ada, server_url, tid, "Ada")
    _register(server_url, tid, "Bo")
    doc = _host(server_url, made, "/start")
    start_at = doc["roundLog"][0]["tables"][0]["startAt"]

    ada.get_by_test_id("play-table").click()
    ada.wait_for_url("**/#/room/**")
    waiting = ada.get_by_test_id("tournament-waiting")
    expect(waiting.locator("h1")).to_have_text("Club night: round 1, table 1")
    mates = ada.get_by_test_id("table-mates").locator("li")
    expect(mates).to_have_count(2)
    expect(ada.get_by_test_id("table-mates")).to_contain_text("Ada (you) · here")
    expect(ada.get_by_test_id("table-mates")).to_contain_text("Bo · not here yet")
    deals = ada.evaluate(
        "ms => new Date(ms).toLocaleTimeString('en-GB',"
        " {hour: '2-digit', minute: '2-digit', second: '2-digit'})",
        start_at,
    )
    expect(ada.get_by_test_id("table-deals-at")).to_have_text(
        f"The table deals at {deals}, or as soon as everyone is here."
    )
    # None of a casual room's waiting page: no share link, code, QR or rules to read.
    for casual in ("share-link", "share-code", "seats-list", "take-seat", "start"):
        expect(ada.get_by_test_id(casual)).to_have_count(0)
    expect(ada.get_by_text("play to 500 points")).to_have_count(0)
    for testid in ("table-deals-at", "table-mates", "waiting-back-to-tournament"):
        _within(ada, testid)
    assert ada.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")

    ada.get_by_test_id("waiting-back-to-tournament").click()
    ada.wait_for_url(f"**/#/tournament/{tid}")
    expect(ada.get_by_test_id("my-entry")).to_be_visible()


def test_on_a_phone_a_players_tournament_page_shows_the_standings_first(new_page, server_url):
    made = _tournament(server_url)
    tid = made["tournamentId"]
    ada: Page = new_page(**PHONE)
    _register_in_page(ada, server_url, tid, "Ada")
    for name in ("Bo", "Cai", "Dee"):
        _register(server_url, tid, name)
    _host(server_url, made, "/start")
    rows = ada.get_by_test_id("standing-row")
    expect(rows).to_have_count(4)
    # The round's tables come with the start as the standings do, not necessarily at once.
    expect(ada.get_by_test_id("round").first).to_be_visible()
    standings = ada.locator("#standings-h").bounding_box()
    me = ada.locator("#me-h").bounding_box()
    rounds = ada.get_by_test_id("round").first.bounding_box()
    assert standings is not None and me is not None and rounds is not None
    assert standings["y"] < me["y"] < rounds["y"], (standings, me, rounds)
    # The standings' heading and first row are on the first screen, no scrolling.
    box = rows.first.bounding_box()
    assert box is not None and 0 <= standings["y"] and box["y"] + box["height"] <= 844, box
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    # On a laptop the two columns stay as they were: your entry first, standings beside.
    ada.set_viewport_size({"width": 1280, "height": 800})
    expect(ada.locator(".tour-main #standings-h")).to_have_count(0)


def _signed_in(page: Page, base: str, account: dict[str, Any]) -> None:
    """The page's browser holds the account's session, as after signing in there."""
    page.goto(f"{base}/#/")
    page.evaluate("a => localStorage.setItem('uno.account', JSON.stringify(a))", account)


def test_a_signed_in_host_runs_the_console_from_any_device_and_takes_a_player_back(
    new_page, server_url
):
    # A name of its own: the browser group's server outlives a test and its rerun.
    hana = f"Hana-{secrets.token_hex(3)}"
    r = httpx.post(f"{server_url}/api/accounts", json={"name": hana, "password": "pw-hana-1"})
    assert r.status_code == 201, r.text
    account = r.json()
    host: Page = new_page(**LAPTOP)
    _signed_in(host, server_url, account)
    host.goto(f"{server_url}/#/tournaments")
    name = "The long winter evening club tournament"
    host.get_by_test_id("t-name").fill(name)
    host.get_by_test_id("t-rounds").fill("3")
    host.get_by_test_id("t-table-start").fill("600")
    host.get_by_test_id("rated").check()
    host.get_by_test_id("create-tournament").click()
    host.wait_for_url("**/host")
    tid = host.url.split("#/tournament/")[1].split("/")[0]
    shown = httpx.get(f"{server_url}/api/tournaments/{tid}").json()
    assert shown["rated"] is True and shown["hostAccount"] == account["playerId"]

    ada: Page = new_page(**PHONE)
    _register_in_page(ada, server_url, tid, "Ada")
    tokens = {n: _register(server_url, tid, n) for n in ("Bo", "Cai")}
    host.get_by_test_id("host-start").click()
    next_round = host.get_by_test_id("host-next-round")
    expect(next_round).to_be_disabled()
    expect(next_round).to_have_text("Start round 2: round 1 is still being played")
    # On her phone the table's heading keeps its round and table number in sight.
    ada.get_by_test_id("play-table").click()
    ada.wait_for_url("**/#/room/**")
    where = ada.get_by_test_id("table-where")
    expect(where).to_have_text("round 1, table 1")
    expect(where).to_be_in_viewport(ratio=1)
    ada.get_by_test_id("waiting-back-to-tournament").click()

    # The host account's token works as the host token: round 1 tallied.
    doc = httpx.get(f"{server_url}/api/tournaments/{tid}").json()
    table = doc["roundLog"][0]["tables"][0]
    result = [{"playerId": p, "place": i + 1} for i, p in enumerate(table["players"])]
    body = {"result": result, "reason": "tallied on paper"}
    url = f"{server_url}/api/tournaments/{tid}/tables/{table['tableId']}/result"
    assert httpx.put(url, json=body, headers=_bearer(account["token"])).status_code == 200

    # Ada withdraws and is told so; Bo too: one player left cannot make a table.
    ada.get_by_test_id("withdraw").click()
    note = ada.get_by_test_id("withdrawn-note")
    expect(note).to_have_text("You have withdrawn from this tournament.")
    r = httpx.post(f"{server_url}/api/tournaments/{tid}/withdraw", headers=_bearer(tokens["Bo"]))
    assert r.status_code == 200, r.text
    lines = host.get_by_test_id("host-withdrawn").locator("li")
    expect(lines).to_have_count(2)
    expect(next_round).to_have_text("Start round 2: only 1 can play")
    expect(next_round).to_be_disabled()
    lines.filter(has_text="Ada").get_by_test_id("host-reinstate").click()
    expect(lines).to_have_count(1)
    expect(note).to_have_count(0)
    expect(ada.get_by_test_id("withdraw")).to_be_visible()

    # Another device of the same account opens the console (no host token there).
    phone: Page = new_page(**PHONE)
    _signed_in(phone, server_url, account)
    phone.goto(f"{server_url}/#/tournament/{tid}/host")
    phone_next = phone.get_by_test_id("host-next-round")
    expect(phone_next).to_have_text("Start round 2")
    phone_next.click()
    expect(ada.locator('[data-testid="round"][data-round="2"]')).to_be_visible()
    entries = ada.get_by_test_id("audit").locator("li")
    expect(entries.filter(has_text="The host took Ada back.")).to_have_count(1)
