"""``GET /metrics``: this node's rooms, sockets, applied commands (actions/s is their
rate), commit latency and archive backlog, in Prometheus's text format."""

from __future__ import annotations

import random

from live import Server
from prometheus_client.parser import text_string_to_metric_families
from test_full_game import bot_action


async def _scrape(server: Server) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    r = await server.http.get("/metrics")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/plain; version=0.0.4")
    samples = {}
    for family in text_string_to_metric_families(r.text):
        for sample in family.samples:
            samples[sample.name, tuple(sorted(sample.labels.items()))] = sample.value
    return samples


def _actions(samples: dict[tuple[str, tuple[tuple[str, str], ...]], float], outcome: str) -> float:
    key = ("uno_commands_total", (("kind", "action"), ("outcome", outcome)))
    return samples.get(key, 0.0)


async def test_metrics_count_rooms_sockets_actions_and_commits(server: Server) -> None:
    before = await _scrape(server)
    assert before[("uno_rooms", ())] == 0
    assert before[("uno_sockets", ())] == 0
    room, seats = await server.table(2)
    clients = [await server.connect(room["roomId"], s["token"]) for s in seats]
    await clients[0].wait_seq(clients[1].seq)
    rng = random.Random(3)
    accepted = 0
    for _ in range(6):
        mover = next(c for c in clients if c.view["turn"] == c.view["you"])
        ack = await mover.outcome(await mover.act(bot_action(mover.view, rng)))
        assert ack["type"] == "ack"
        accepted += 1
        for c in clients:
            await c.wait_seq(ack["seq"])
    idle = next(c for c in clients if c.view["turn"] != c.view["you"])
    refused = await idle.outcome(await idle.act({"type": "draw"}))
    assert refused["type"] == "error"  # not this seat's turn

    samples = await _scrape(server)
    assert samples[("uno_rooms", ())] == 1
    assert samples[("uno_sockets", ())] == 2
    assert _actions(samples, "accepted") == accepted
    assert _actions(samples, "refused") == 1
    joins = ("uno_commands_total", (("kind", "join"), ("outcome", "accepted")))
    assert samples[joins] == 2
    # Every accepted command was one commit: joins, start, connections, actions.
    commits = samples[("uno_commit_seconds_count", ())]
    changed = sum(
        v
        for (name, labels), v in samples.items()
        if name == "uno_commands_total" and ("outcome", "accepted") in labels
    )
    assert commits == changed == clients[0].seq
    assert samples[("uno_commit_seconds_sum", ())] > 0
    assert samples[("uno_archive_backlog", ())] == 0
    assert samples[("uno_commands_waiting", ())] == 0
    # The Redis store counts what it sends (at least one command per commit); the memory
    # store sends none.
    sent = samples.get(("uno_redis_commands_sent", ()))
    assert (sent is None) == (server.settings.redis_url is None)
    assert sent is None or sent >= commits
    for c in clients:
        await c.close()


async def test_metrics_stay_off_the_api_description(server: Server) -> None:
    spec = (await server.http.get("/openapi.json")).json()
    assert "/metrics" not in spec["paths"]


def test_the_commit_histogram_reads_as_prometheus_clients_own() -> None:
    import re

    from prometheus_client import CollectorRegistry, Histogram, generate_latest

    from app.metrics import _COMMIT_BUCKETS, Metrics

    metrics = Metrics()
    registry = CollectorRegistry()
    theirs = Histogram(
        "uno_commit_seconds",
        "Time of one atomic commit of a change to the room store",
        buckets=_COMMIT_BUCKETS,
        registry=registry,
    )
    # On a bound, between bounds, below the first and above the last.
    for seconds in (0.0005, 0.0007, 0.001, 0.003, 0.4, 2.5, 3.0, 0.00001):
        theirs.observe(seconds)
        metrics.commit_seconds.observe(seconds)

    def commit_lines(text: bytes) -> list[str]:
        lines = re.sub(r"_created \S+", "_created T", text.decode()).splitlines()
        return [line for line in lines if "uno_commit_seconds" in line]

    assert commit_lines(metrics.render()) == commit_lines(generate_latest(registry))
