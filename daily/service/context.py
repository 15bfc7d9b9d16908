"""The typed way to the app's services: :func:`current_services` instead of the untyped
``current_app.extensions["daily"]``.

>>> from daily.service.app import create_app
>>> from daily.service.config import load_config
>>> app = create_app(load_config({"REDIS_URL": "redis://127.0.0.1:6379/15"}))
>>> with app.app_context():
...     current_services().config.key_prefix
'dd:'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask import current_app

if TYPE_CHECKING:
    from daily.service.app import Services

#: The key of the services in ``app.extensions``.
EXTENSION = "daily"


def current_services() -> Services:
    """The :class:`~daily.service.app.Services` of the app handling this request."""
    from daily.service.app import Services

    found = current_app.extensions[EXTENSION]
    if not isinstance(found, Services):
        raise RuntimeError("the app was not built by daily.service.app.create_app")
    return found
