"""The players domain registers itself on an app: the accounts, the creation guard, one-
call creation, passkeys and their blueprints.

See :mod:`daily.service.extensions`.
"""

from __future__ import annotations

from flask import Flask

from daily.service.extensions import Basics, of, register
from daily.service.http.openapi import API_PREFIX
from daily.service.players import passkey_routes, routes
from daily.service.players.accounts import Players
from daily.service.players.creation import CreationGuard
from daily.service.players.passkeys import Passkeys
from daily.service.players.signup import NewPlayers
from daily.service.publicurl import passkey_party


def init_app(app: Flask) -> None:
    """Register the players on ``app``."""
    basics = of(app, Basics)
    conn, config, clock = basics.conn, basics.config, basics.clock
    players = Players(conn, config, clock)
    creation = CreationGuard(conn, config)
    register(app, players)
    register(app, creation)
    register(app, NewPlayers(conn, config, players, creation))
    register(app, Passkeys(conn, config, clock, players, lambda: passkey_party(config)))
    app.register_blueprint(routes.bp, url_prefix=API_PREFIX)
    app.register_blueprint(passkey_routes.bp, url_prefix=API_PREFIX)
