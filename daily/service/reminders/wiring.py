"""The reminders domain registers itself on an app: the Web Push subscriptions and their
blueprint (after the players, whose tokens its routes read).

See :mod:`daily.service.extensions`.
"""

from __future__ import annotations

from flask import Flask

from daily.service.extensions import Basics, of, register
from daily.service.http.openapi import API_PREFIX
from daily.service.reminders import routes
from daily.service.reminders.subscriptions import Subscriptions


def init_app(app: Flask) -> None:
    """Register the reminder subscriptions and ``/reminders`` on ``app``."""
    basics = of(app, Basics)
    register(app, Subscriptions(basics.conn, basics.config, basics.clock))
    app.register_blueprint(routes.bp, url_prefix=API_PREFIX)
