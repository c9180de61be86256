"""This node's metrics for Prometheus (``GET /metrics``, the text format of the maintained
``prometheus_client`` library).

Counters and the commit histogram are fed by the room writers as they apply commands;
the gauges (rooms, sockets, archive backlog, waiting commands) are read from the room
service when Prometheus scrapes, so they cost nothing in between. Each app has a registry
of its own (several apps share a process in the tests).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

# Store commits take ~0.2-2 ms on a healthy local Redis; the upper buckets show trouble.
_COMMIT_BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.commands = Counter(
            "uno_commands",
            "Commands applied by this node's room writers, by kind (action: a player's "
            "move) and outcome (accepted: it changed the room; refused)",
            ["kind", "outcome"],
            registry=self.registry,
        )
        self.commit_seconds = Histogram(
            "uno_commit_seconds",
            "Time of one atomic commit of a change to the room store",
            buckets=_COMMIT_BUCKETS,
            registry=self.registry,
        )
        self.handovers = Counter(
            "uno_writer_handovers",
            "Rooms this node's writers gave up to the node holding their sockets (the "
            "lease follows the sockets)",
            registry=self.registry,
        )
        self._gauges: _Gauges | None = None
        # Each (kind, outcome)'s counter, looked up once: ``labels`` checks and locks on
        # every call, two thirds of a count's cost, and runs once per command applied.
        self._counts: dict[tuple[str, bool], Counter] = {}

    def applied(self, kind: str, changed: bool) -> None:
        """One command of ``kind`` judged (its KIND: a fixed set of labels)."""
        count = self._counts.get((kind, changed))
        if count is None:
            count = self.commands.labels(kind, "accepted" if changed else "refused")
            self._counts[(kind, changed)] = count
        count.inc()

    def watch(self, read: Callable[[], dict[str, tuple[str, float]]]) -> None:
        """Gauges read at each scrape: ``read()`` gives name -> (help, value)."""
        if self._gauges is None:
            self._gauges = _Gauges(read)
            self.registry.register(self._gauges)
        else:
            self._gauges.read = read

    def render(self) -> bytes:
        return generate_latest(self.registry)


class _Gauges(Collector):
    def __init__(self, read: Callable[[], dict[str, tuple[str, float]]]) -> None:
        self.read = read

    def collect(self) -> Iterator[Metric]:
        for name, (documentation, value) in self.read().items():
            yield GaugeMetricFamily(name, documentation, value=value)

    def describe(self) -> list[Metric]:
        return []  # read lazily: the service may not exist yet
