"""The days domain registers itself on an app: its day seeds, the loader of the keyring and
its blueprints.

See :mod:`daily.service.extensions`.
"""

from __future__ import annotations

from flask import Flask

from daily.service.days import routes, today_routes
from daily.service.days.keyring import Keyring, KeyringLoader
from daily.service.days.seeds import DaySeeds
from daily.service.extensions import Basics, of, register
from daily.service.http.openapi import API_PREFIX


def init_app(app: Flask) -> None:
    """Register the days on ``app`` (``app.config["KEYRING"]``: a fixed keyring, for
    tests)."""
    config = of(app, Basics).config
    keyring = app.config.get("KEYRING")
    register(app, DaySeeds(config, keyring if isinstance(keyring, Keyring) else None))
    register(app, KeyringLoader(config))
    app.register_blueprint(routes.bp, url_prefix=API_PREFIX)
    app.register_blueprint(today_routes.bp, url_prefix=API_PREFIX)
