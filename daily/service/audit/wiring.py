"""The audit domain registers itself on an app: the results logs' blueprint.

See :mod:`daily.service.extensions`.
"""

from __future__ import annotations

from flask import Flask

from daily.service.audit import routes
from daily.service.http.openapi import API_PREFIX


def init_app(app: Flask) -> None:
    """Register the results logs' routes on ``app``."""
    app.register_blueprint(routes.bp, url_prefix=API_PREFIX)
