"""What the domains keep on the app, and the typed way to it from a view or a job.

Each domain package registers itself: its ``init_app(app)`` (as flaskr's
``db.init_app``) builds its services from what the app already holds, keeps each one
under its class with :func:`register` and mounts its blueprints.
:func:`daily.service.app.create_app` first registers the :class:`Basics` (the
configuration, the Redis connection and the clock every domain builds on), then calls
the domains' ``init_app`` in the order of their needs. A view asks for a service with
:func:`current`; a test, a bench or a job holding the app with :func:`of`. This
module depends on no domain, so any domain may import it.

>>> from fractions import Fraction
>>> from flask import Flask
>>> app = Flask(__name__)
>>> register(app, Fraction(1, 3))
>>> of(app, Fraction)
Fraction(1, 3)
>>> with app.app_context():
...     current(Fraction).denominator
3
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar

import redis
from flask import Flask, current_app

from daily.service.clock import Clock
from daily.service.config import Config

T = TypeVar("T")


@dataclass(frozen=True)
class Basics:
    """What every domain builds on: the configuration, Redis and the service's clock
    (``app.config["CLOCK"]``, read at each call, so that a test can move it)."""

    config: Config
    conn: redis.Redis
    clock: Clock


def _key(kind: type[Any]) -> str:
    """The key of a service of class ``kind`` in ``app.extensions``.

    >>> _key(Basics)
    'daily:daily.service.extensions.Basics'
    """
    return f"daily:{kind.__module__}.{kind.__qualname__}"


def register(app: Flask, service: object) -> None:
    """Keep ``service`` on ``app``, under its class (one service of a class per app)."""
    key = _key(type(service))
    if key in app.extensions:
        raise RuntimeError(f"{type(service).__qualname__} is registered already")
    app.extensions[key] = service


def of(app: Flask, kind: type[T]) -> T:
    """The service of class ``kind`` that ``app`` holds."""
    found = app.extensions.get(_key(kind))
    if not isinstance(found, kind):
        raise RuntimeError(f"no {kind.__qualname__} on this app: build it with "
                           "daily.service.app.create_app")
    return found


def current(kind: type[T]) -> T:
    """The service of class ``kind`` of the app handling this request."""
    return of(current_app, kind)
