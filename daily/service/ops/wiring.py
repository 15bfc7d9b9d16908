"""The ops domain registers itself on an app: the probes' and the API document's blueprint.

See :mod:`daily.service.extensions`.
"""

from __future__ import annotations

from flask import Flask

from daily.service.http.openapi import API_PREFIX
from daily.service.ops import routes


def init_app(app: Flask) -> None:
    """Register the probes and the API document on ``app``."""
    app.register_blueprint(routes.bp, url_prefix=API_PREFIX)
