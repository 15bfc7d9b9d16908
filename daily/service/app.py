"""The Flask application factory.

``create_app(config, test_config)`` wires everything once: Redis, the results stream
(a finished ranked game goes to Redis Streams, :mod:`daily.service.results.stream`,
and ``daily worker results`` puts it on its board), players and games on Redis, the
rate limits (per verified player or IP, and per IP, counted in one Redis call by
:mod:`daily.service.http.ratelimit`), the security headers of :mod:`daily.service.http.headers`,
the body size limit, JSON errors, gzip/brotli for text answers
(:mod:`daily.service.http.compression`), Prometheus metrics at ``/metrics``, each domain's
blueprint (:func:`register_blueprints`, mounted under ``/api/v1``) and the web client
``daily.web.routes:bp``.

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

from daily.rules import Ruleset
from daily.service.audit import routes as audit_routes
from daily.service.audit.receipts import Receipts
from daily.service.clock import FixedClock, service_clock
from daily.service.config import Config, load_config
from daily.service.connections import redis_from_config
from daily.service.days import routes as days_routes
from daily.service.days import today_routes
from daily.service.days.descriptors import published_results_key
from daily.service.days.keyring import Keyring, KeyringLoader
from daily.service.days.seeds import DaySeeds
from daily.service.games import GameService, advice_routes
from daily.service.games import routes as games_routes
from daily.service.games.opponents import strategy_table
from daily.service.http.compression import install_compression
from daily.service.http.error_handlers import register_error_handlers
from daily.service.http.headers import install_security_headers
from daily.service.http.jsonprovider import OrjsonProvider
from daily.service.http.metrics import Metrics, install_metrics
from daily.service.http.parsing import request_lang
from daily.service.http.ratelimit import RateLimiter, install_rate_limits, parse_limits
from daily.service.ops import routes as ops_routes
from daily.service.players import passkey_routes
from daily.service.players import routes as players_routes
from daily.service.players.accounts import Players
from daily.service.players.creation import CreationGuard
from daily.service.players.passkeys import Passkeys
from daily.service.players.signup import NewPlayers
from daily.service.publicurl import passkey_party, public_base_url
from daily.service.results import result_routes
from daily.service.results import routes as leaderboard_routes
from daily.service.results.stream import ResultStream
from daily.service.services import EXTENSION, Services
from daily.service.social import challenge_routes, group_routes
from daily.service.social.challenges import Challenges
from daily.service.social.groups import Groups
from daily.strategy.solver import StrategyTable
from daily.web import routes as web_routes

API_PREFIX = "/api/v1"


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
    app.config["CLOCK"] = service_clock(config)
    app.config["RATELIMIT_ENABLED"] = True  # tests may switch the limits off
    if test_config:
        app.config.update(test_config)
    now = app.config.get("NOW")
    if isinstance(now, dt.datetime):
        app.config["CLOCK"] = FixedClock(now)
    app.json = OrjsonProvider(app)  # compact, keys in order, as Flask's own would write

    def clock() -> dt.datetime:
        return app.config["CLOCK"]()

    conn = redis_from_config(config)
    results = ResultStream(conn, prefix=config.key_prefix)
    players = Players(conn, config, clock)
    keyring = app.config.get("KEYRING")
    seeds = DaySeeds(config, keyring if isinstance(keyring, Keyring) else None)

    def player_name(player_id: str) -> str | None:
        player = players.get(player_id)
        return player.name if player else None

    limits = parse_limits(config.rate_limit, config.rate_limit_reads, config.rate_limit_ip)
    limiter = RateLimiter(conn, config.key_prefix, limits, cluster=config.redis_cluster)
    metrics = Metrics()
    fixed_keyring = keyring if isinstance(keyring, Keyring) else None
    loader = KeyringLoader(config)
    games = GameService(
        conn, config, clock, seeds, results, player_name, request_lang,
        finished=lambda record: metrics.games_finished.labels(record.mode, record.ruleset).inc(),
        receipts=Receipts(lambda: fixed_keyring or loader.get(),
                          lambda ring, ruleset, date: published_results_key(
                              conn, config, ring, ruleset, date)),
    )

    def tables(rules: Ruleset) -> StrategyTable:
        return strategy_table(rules, config.tables_dir)

    creation = CreationGuard(conn, config)
    new_players = NewPlayers(conn, config, players, creation)
    services = Services(
        config=config, conn=conn, clock=clock, seeds=seeds, players=players, games=games,
        results=results, metrics=metrics, limiter=limiter,
        challenges=Challenges(conn, config, clock, games, tables,
                              lambda: public_base_url(config)),
        groups=Groups(conn, config, clock, games.ranked_totals, player_name,
                      lambda: public_base_url(config)),
        creation=creation, new_players=new_players,
        passkeys=Passkeys(conn, config, clock, players, lambda: passkey_party(config)),
    )
    app.extensions[EXTENSION] = services

    register_blueprints(app)
    # First installed, so its hook runs last: it compresses the finished response.
    install_compression(app)
    # A new player is one call with its limits, unless a proof-of-work is asked for: its
    # challenge is used up when checked, so the limits are counted first then.
    one_call = new_players.one_call and not creation.bits
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


def register_blueprints(app: Flask) -> None:
    """Mount every blueprint: the API's under :data:`API_PREFIX`, each named here, and
    the web client at ``/``."""
    for bp in (
        audit_routes.bp, challenge_routes.bp, days_routes.bp, games_routes.bp, group_routes.bp,
        leaderboard_routes.bp, ops_routes.bp, passkey_routes.bp, players_routes.bp,
        result_routes.bp,
        advice_routes.bp, today_routes.bp,
    ):
        app.register_blueprint(bp, url_prefix=API_PREFIX)
    app.register_blueprint(web_routes.bp)


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
