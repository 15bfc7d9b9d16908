"""The Flask application factory.

``create_app(config, test_config)`` builds the app once: it registers what every
domain builds on (the configuration, Redis and the clock:
:class:`daily.service.extensions.Basics`), the metrics and the rate limiter, then each
domain registers itself with the ``init_app`` of its ``wiring`` module
(:data:`DOMAINS`: days, results, players, games, social, reminders, audit, ops; each
mounts its blueprints under ``/api/v1``), and the web client ``daily.web.routes:bp``. Around
them: the rate limits (per verified player or IP, and per IP, counted in one Redis call by
:mod:`daily.service.http.ratelimit`), the security headers of
:mod:`daily.service.http.headers`, the body size limit, JSON errors, gzip/brotli for
text answers (:mod:`daily.service.http.compression`) and Prometheus metrics at
``/metrics``.

Behind a reverse proxy set ``DAILY_TRUSTED_PROXIES`` to the number of proxies in front
(1 for the nginx of ``deploy/``): the client address for the per-IP limit is then read
from ``X-Forwarded-For`` (Werkzeug's ``ProxyFix``); with the default 0 the header is
ignored, so nobody can pick their own address. ``DAILY_RATE_LIMIT=off`` switches the
limits off (when nginx or a gateway enforces them).

A bearer token is verified once per request, before the limits are counted, so the
limits only ever count identities the server has checked.

``test_config`` may hold Flask settings and ``NOW`` (a fixed aware datetime) or
``CLOCK`` (a function returning one): every "now" of the service comes from
``app.config["CLOCK"]``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from typing import Any

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

from daily.service.audit.wiring import init_app as init_audit
from daily.service.clock import FixedClock
from daily.service.config import Config, load_config
from daily.service.connections import redis_from_config
from daily.service.days.wiring import init_app as init_days
from daily.service.extensions import Basics, of, register
from daily.service.games.wiring import init_app as init_games
from daily.service.http.compression import install_compression
from daily.service.http.error_handlers import register_error_handlers
from daily.service.http.headers import install_security_headers
from daily.service.http.jsonprovider import OrjsonProvider
from daily.service.http.metrics import Metrics, install_metrics
from daily.service.http.openapi import API_PREFIX
from daily.service.http.ratelimit import install_rate_limits
from daily.service.limits import RateLimiter, parse_limits
from daily.service.ops.wiring import init_app as init_ops
from daily.service.players.creation import CreationGuard
from daily.service.players.signup import NewPlayers
from daily.service.players.wiring import init_app as init_players
from daily.service.reminders.wiring import init_app as init_reminders
from daily.service.results.wiring import init_app as init_results
from daily.service.social.wiring import init_app as init_social
from daily.web import routes as web_routes

__all__ = ["API_PREFIX", "create_app"]




class DailyFlask(Flask):
    """Flask, checking once per function (not on every call) that a hook or a view is
    not a coroutine (Flask asks ``inspect`` each time, six times per request here)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._plain_functions: set[Callable[..., Any]] = set()

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        """``func`` itself if it is a plain function, else Flask's sync wrapper."""
        if func in self._plain_functions:
            return func
        wrapped = super().ensure_sync(func)
        if wrapped is func:
            self._plain_functions.add(func)
        return wrapped


def create_app(config: Config | None = None, test_config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app.

    >>> from daily.service.config import load_config
    >>> app = create_app(load_config({"REDIS_URL": "redis://127.0.0.1:6379/15"}))
    >>> sorted(r.rule for r in app.url_map.iter_rules() if r.rule.endswith("health"))
    ['/api/v1/health']
    """
    config = config or load_config()
    app = DailyFlask(__name__)
    app.config["MAX_CONTENT_LENGTH"] = config.max_body
    app.config["CLOCK"] = config.clock
    app.config["RATELIMIT_ENABLED"] = True  # tests may switch the limits off
    if test_config:
        app.config.update(test_config)
    now = app.config.get("NOW")
    if isinstance(now, dt.datetime):
        app.config["CLOCK"] = FixedClock(now)
    app.json = OrjsonProvider(app)  # compact, keys in order, as Flask's own would write

    def clock() -> dt.datetime:
        return app.config["CLOCK"]()

    # What every domain builds on, then each domain registers itself, in the order of
    # their needs (daily.service.extensions).
    conn = redis_from_config(config)
    register(app, Basics(config, conn, clock))
    metrics = Metrics()
    register(app, metrics)
    limits = parse_limits(config.rate_limit, config.rate_limit_reads, config.rate_limit_ip)
    limiter = RateLimiter(conn, config.key_prefix, limits, cluster=config.redis_cluster)
    register(app, limiter)
    for init_app in DOMAINS:
        init_app(app)
    app.register_blueprint(web_routes.bp)
    # First installed, so its hook runs last: it compresses the finished response.
    install_compression(app)
    # A new player is one call with its limits, unless a proof-of-work is asked for: its
    # challenge is used up when checked, so the limits are counted first then.
    one_call = of(app, NewPlayers).one_call and not of(app, CreationGuard).bits
    install_rate_limits(app, limiter, unlimited=UNLIMITED_ENDPOINTS,
                        folded=FOLDED_ENDPOINTS | ({"players.create"} if one_call else set()))
    install_security_headers(app, config)
    register_error_handlers(app)
    install_metrics(app, metrics)
    proxies = config.trusted_proxies
    if proxies:  # Flask sees the client's address and scheme
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies
        )
    return app


#: The domains, in the order they register (each needs those before it).
DOMAINS: tuple[Callable[[Flask], None], ...] = (
    init_days, init_results, init_players, init_games, init_social, init_reminders, init_audit,
    init_ops)


#: Endpoints that are never rate limited (probes, scrapers and the static files).
UNLIMITED_ENDPOINTS = frozenset({"ops.health", "metrics", "web.static"})
#: Endpoints whose rate-limit counters a Redis script of the request spends in the same
#: call (:mod:`daily.service.http.ratelimit`): the move script, the read of the game for
#: a hint, the record of a new ranked game (single server; on a cluster they are
#: counted apart). A request refused before the script (401, 422, a rule refused on the
#: process's copy) spends them once its answer is ready, and gets 429 instead when over
#: a limit; a start of a practice game or of a challenge's spends them before it stores
#: anything.
FOLDED_ENDPOINTS = frozenset({"games.roll", "games.score", "strategy.hint", "games.start"})
