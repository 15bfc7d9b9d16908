"""The games domain registers itself on an app: the game service and its blueprints (after
the days, the results and the players).

See :mod:`daily.service.extensions`.
"""

from __future__ import annotations

from flask import Flask

from daily.service.audit.receipts import Receipts
from daily.service.days.descriptors import published_results_key
from daily.service.days.keyring import Keyring, KeyringLoader
from daily.service.days.seeds import DaySeeds
from daily.service.extensions import Basics, of, register
from daily.service.games import advice_routes, routes
from daily.service.games.flow import GameService
from daily.service.http.metrics import Metrics
from daily.service.http.openapi import API_PREFIX
from daily.service.http.parsing import request_lang
from daily.service.players.accounts import Players
from daily.service.results.stream import ResultStream


def init_app(app: Flask) -> None:
    """Register the games on ``app`` (``app.config["KEYRING"]``: a fixed keyring that
    signs the receipts, for tests)."""
    basics = of(app, Basics)
    conn, config = basics.conn, basics.config
    players, metrics, loader = of(app, Players), of(app, Metrics), of(app, KeyringLoader)
    keyring = app.config.get("KEYRING")
    fixed_keyring = keyring if isinstance(keyring, Keyring) else None

    def player_name(player_id: str) -> str | None:
        player = players.get(player_id)
        return player.name if player else None

    register(app, GameService(
        conn, config, basics.clock, of(app, DaySeeds), of(app, ResultStream), player_name,
        request_lang,
        finished=lambda record: metrics.games_finished.labels(record.mode, record.ruleset).inc(),
        receipts=Receipts(lambda: fixed_keyring or loader.get(),
                          lambda ring, ruleset, date: published_results_key(
                              conn, config, ring, ruleset, date)),
    ))
    app.register_blueprint(routes.bp, url_prefix=API_PREFIX)
    app.register_blueprint(advice_routes.bp, url_prefix=API_PREFIX)
