"""The results domain registers itself on an app: the results stream and its blueprints.

See :mod:`daily.service.extensions`.
"""

from __future__ import annotations

from flask import Flask

from daily.service.extensions import Basics, of, register
from daily.service.http.openapi import API_PREFIX
from daily.service.results import result_routes, routes
from daily.service.results.stream import ResultStream


def init_app(app: Flask) -> None:
    """Register the results on ``app``."""
    basics = of(app, Basics)
    register(app, ResultStream(basics.conn, prefix=basics.config.key_prefix))
    app.register_blueprint(routes.bp, url_prefix=API_PREFIX)
    app.register_blueprint(result_routes.bp, url_prefix=API_PREFIX)
