"""Reference data over REST: rule options for editors, the beverage table for drinks."""

from __future__ import annotations

from typing import get_args

from live import Server

from app.accounts.ratings import POOLS
from app.api.rooms import AddBot
from engine.match import MATCH_END_OPTIONS
from engine.rules import OPTIONS, PRESETS


async def test_rules_endpoint_lists_every_option_with_range_and_help(server: Server) -> None:
    body = (await server.http.get("/api/rules")).json()
    names = [o["name"] for o in body["options"]]
    assert names == [o.name for o in OPTIONS]
    target = next(o for o in body["options"] if o["name"] == "targetScore")
    assert (target["min"], target["max"], target["step"], target["default"]) == (100, 1000, 50, 500)
    assert all(o["help"] for o in body["options"])
    assert body["presets"]["house"]["stacking"] is True
    assert {"classic", "druk", "duo", "flip", "rommy", "bottle"} <= set(body["presets"])


async def test_rules_endpoint_says_the_lists_clients_show(server: Server) -> None:
    body = (await server.http.get("/api/rules")).json()
    pools = body["ratingPools"]
    assert list(pools) == list(POOLS)
    assert sorted(p for presets in pools.values() for p in presets) == sorted(PRESETS)
    assert pools["party"] == ["rommy", "bottle"] and "druk" in pools["classic"]
    assert body["botLevels"] == list(get_args(AddBot.model_fields["level"].annotation))
    assert body["matchEndOptions"] == list(MATCH_END_OPTIONS)


async def test_drinks_endpoint_serves_the_beverage_table(server: Server) -> None:
    body = (await server.http.get("/api/drinks")).json()
    beer = next(b for b in body["beverages"] if b["id"] == "beer")
    assert (beer["volumeCl"], beer["abv"]) == (33, 4.6)
    assert body["shot"] == {"volumeCl": 2.0, "abv": 37.0}


async def test_low_strength_conversion_gives_the_seed_example(server: Server) -> None:
    body = (await server.http.get("/api/drinks/low-strength", params={"abv": 21})).json()
    assert body["volumeCl"] == 3.5


async def test_low_strength_conversion_refuses_a_bad_strength(server: Server) -> None:
    r = await server.http.get("/api/drinks/low-strength", params={"abv": 0})
    assert r.status_code == 422 and r.json()["code"] == "invalid_request"
