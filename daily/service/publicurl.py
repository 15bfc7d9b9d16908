"""The public base URL of the service, for share links and link previews:
``DAILY_PUBLIC_URL`` when set, else the host the request came to.

Outside a request (a worker, a CLI command) it is ``Config.public_url``.

>>> from daily.service.config import load_config
>>> public_base_url(load_config({"DAILY_PUBLIC_URL": "https://dice.example/"}))
'https://dice.example'
"""

from __future__ import annotations

from flask import has_request_context, request

from daily.service.config import Config

#: What ``Config.public_url`` holds when ``DAILY_PUBLIC_URL`` is not set.
_DEFAULT = "http://127.0.0.1:8000"


def public_base_url(config: Config) -> str:
    """Scheme, host and port (no trailing slash) under which players reach the service."""
    if config.public_url != _DEFAULT or not has_request_context():
        return config.public_url
    return request.host_url.rstrip("/")
