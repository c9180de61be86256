"""Chat, reactions and the share tools in Chromium: talk reaches the table as text, a
spectator's only the spectators, the host's mute holds; the copy-link button and the QR
code of the join link."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from web_helpers import create_room, join_from_list

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def test_chat_and_reactions_reach_the_table_as_text_and_the_host_mutes(new_page, server_url):
    anna, ben = new_page(), new_page(lang="da", **PHONE)
    room_id, code = create_room(anna, server_url, "Anna", seats=2)
    join_from_list(ben, server_url, "Ben", room_id)
    cara = new_page()
    cara.goto(f"{server_url}/#/room/{room_id}?code={code}")  # a spectator
    expect(cara.get_by_test_id("chat")).to_contain_text("the players do not see it")

    anna.get_by_test_id("chat-text").fill("<b>hi</b> & welcome")
    anna.get_by_test_id("chat-text").press("Enter")
    line = ben.get_by_test_id("chat-lines").locator("li").last
    expect(line).to_have_text("Anna: <b>hi</b> & welcome")
    assert line.locator("b").count() == 0  # shown as text, never as HTML
    expect(cara.get_by_test_id("chat-lines").locator("li")).to_have_count(1)

    ben.get_by_test_id("react-laugh").click()
    expect(anna.get_by_test_id("chat-lines").locator('li[data-type="reaction"]')).to_contain_text(
        "😂"
    )
    cara.get_by_test_id("chat-text").fill("from the rail")
    cara.get_by_test_id("chat-send").click()
    expect(cara.get_by_test_id("chat-lines")).to_contain_text("from the rail")
    # The players' chat does not carry the spectators' talk.
    anna.get_by_test_id("chat-text").fill("still here")
    anna.get_by_test_id("chat-send").click()
    expect(ben.get_by_test_id("chat-lines")).to_contain_text("still here")
    expect(ben.get_by_test_id("chat-lines")).not_to_contain_text("from the rail")

    anna.get_by_test_id("mute-1").click()
    expect(anna.get_by_test_id("mute-1")).to_have_attribute("aria-pressed", "true")
    ben.get_by_test_id("chat-text").fill("hej")
    ben.get_by_test_id("chat-send").click()
    expect(ben.locator('.toast[data-code="muted"]')).to_be_visible()
