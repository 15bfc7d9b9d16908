"""The services one app holds, and the typed way to them from a view.

:func:`daily.service.app.create_app` builds one :class:`Services` and keeps it in
``app.extensions``; a blueprint asks for it with :func:`current_services` instead of the
untyped ``current_app.extensions["daily"]``. The types are imported for the type checker
only: this module depends on no domain at run time, so any blueprint may import it.

>>> from daily.service.app import create_app
>>> from daily.service.config import load_config
>>> app = create_app(load_config({"REDIS_URL": "redis://127.0.0.1:6379/15"}))
>>> with app.app_context():
...     current_services().config.key_prefix
'dd:'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from flask import current_app

if TYPE_CHECKING:
    import redis

    from daily.service.clock import Clock
    from daily.service.config import Config
    from daily.service.days.seeds import DaySeeds
    from daily.service.games import GameService
    from daily.service.http.metrics import Metrics
    from daily.service.limits import RateLimiter
    from daily.service.players.accounts import Players
    from daily.service.players.creation import CreationGuard
    from daily.service.players.passkeys import Passkeys
    from daily.service.players.signup import NewPlayers
    from daily.service.results.stream import ResultStream
    from daily.service.social.challenges import Challenges
    from daily.service.social.groups import Groups

#: The key of the services in ``app.extensions``.
EXTENSION = "daily"


@dataclass
class Services:
    """What the blueprints use: one of each service, built once per app."""

    config: Config
    conn: redis.Redis
    clock: Clock
    seeds: DaySeeds
    players: Players
    games: GameService
    results: ResultStream
    metrics: Metrics
    limiter: RateLimiter
    challenges: Challenges
    groups: Groups
    creation: CreationGuard
    new_players: NewPlayers
    passkeys: Passkeys


def current_services() -> Services:
    """The :class:`Services` of the app handling this request."""
    found = current_app.extensions[EXTENSION]
    if not isinstance(found, Services):
        raise RuntimeError("the app was not built by daily.service.app.create_app")
    return found
