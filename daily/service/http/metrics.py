"""Prometheus metrics of the API: requests, latency and games, one registry per app.

Under gunicorn with several workers set ``PROMETHEUS_MULTIPROC_DIR`` (an empty
directory) and ``/metrics`` aggregates every worker's figures. Every request is counted
by its route (``unmatched`` for none), method and status, and timed from the moment
its request object is made (:class:`TimedRequest`) to its after-request hook.

>>> m = Metrics()
>>> m.games_finished.labels("ranked", "yahtzee").inc()
>>> b"daily_games_finished_total" in m.render()[0]
True
"""

from __future__ import annotations

import os
import time
from typing import Any

from flask import Flask, Request, Response, request
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
        self._counters: dict[tuple[str, str, int], Any] = {}
        self._timers: dict[str, Any] = {}

    def observe(self, method: str, endpoint: str, status: int, seconds: float | None) -> None:
        """Count one request and its time. The labelled children are looked up once per
        label set and kept (``labels()`` takes a lock and builds a key on every call).

        >>> m = Metrics()
        >>> m.observe("GET", "/api/v1/health", 200, 0.002)
        >>> m.observe("GET", "/api/v1/health", 200, None)
        >>> m.requests.labels("GET", "/api/v1/health", "200")._value.get()
        2.0
        """
        key = (method, endpoint, status)
        counter = self._counters.get(key)
        if counter is None:
            counter = self._counters[key] = self.requests.labels(method, endpoint, str(status))
        counter.inc()
        if seconds is not None:
            timer = self._timers.get(endpoint)
            if timer is None:
                timer = self._timers[endpoint] = self.latency.labels(endpoint)
            timer.observe(seconds)

    def render(self) -> tuple[bytes, str]:
        """The exposition text and its content type."""
        if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
            registry = CollectorRegistry()
            MultiProcessCollector(registry)
            return generate_latest(registry), CONTENT_TYPE_LATEST
        return generate_latest(self.registry), CONTENT_TYPE_LATEST


class TimedRequest(Request):
    """Flask's request, knowing when it was made (``started``, ``perf_counter`` s)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.started = time.perf_counter()


def install_metrics(app: Flask, metrics: Metrics) -> None:
    """Count and time every request of ``app`` in ``metrics``; serve ``/metrics``.

    >>> app = Flask(__name__)
    >>> m = Metrics()
    >>> install_metrics(app, m)
    >>> app.test_client().get("/nowhere").status_code
    404
    >>> m.requests.labels("GET", "unmatched", "404")._value.get()
    1.0
    """
    app.request_class = TimedRequest

    @app.after_request
    def _observe(response: Response) -> Response:
        req = request._get_current_object()  # type: ignore[attr-defined]
        rule = req.url_rule
        metrics.observe(req.method, "unmatched" if rule is None else rule.rule,
                        response.status_code, time.perf_counter() - req.started)
        return response

    def metrics_view() -> Response:
        body, content_type = metrics.render()
        return Response(body, content_type=content_type)

    app.add_url_rule("/metrics", "metrics", metrics_view)
