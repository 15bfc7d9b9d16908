"""Prometheus metrics of the API: requests, latency and games, one registry per app.

Under gunicorn with several workers set ``PROMETHEUS_MULTIPROC_DIR`` (an empty
directory) and ``/metrics`` aggregates every worker's figures.

>>> m = Metrics()
>>> m.games_finished.labels("ranked", "yahtzee").inc()
>>> b"daily_games_finished_total" in m.render()[0]
True
"""

from __future__ import annotations

import os

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
)
from prometheus_client.multiprocess import MultiProcessCollector


class Metrics:
    """The API's metrics."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.requests = Counter(
            "daily_http_requests_total", "HTTP requests served",
            ["method", "endpoint", "status"], registry=self.registry,
        )
        self.latency = Histogram(
            "daily_http_request_duration_seconds", "Time to serve a request",
            ["endpoint"], registry=self.registry,
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
        )
        self.games_started = Counter(
            "daily_games_started_total", "Games started", ["mode", "ruleset"],
            registry=self.registry,
        )
        self.games_finished = Counter(
            "daily_games_finished_total", "Games finished (verified by replay)",
            ["mode", "ruleset"], registry=self.registry,
        )

    def render(self) -> tuple[bytes, str]:
        """The exposition text and its content type."""
        if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
            registry = CollectorRegistry()
            MultiProcessCollector(registry)
            return generate_latest(registry), CONTENT_TYPE_LATEST
        return generate_latest(self.registry), CONTENT_TYPE_LATEST
