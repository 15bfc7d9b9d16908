"""The HTTP request being served, for the few texts of the service that depend on it
(the language of share texts, the base URL of result links), whoever serves it: Flask
(its ``request``) or the move lane (:mod:`daily.service.movelane`, which answers the
game moves without Flask's request context and names its request with :func:`serving`).

Outside any request (a worker, a CLI command) there is none.

>>> from werkzeug.test import EnvironBuilder
>>> from werkzeug.wrappers import Request
>>> served_request() is None
True
>>> with serving(Request(EnvironBuilder("/x", base_url="http://10.0.0.5:9000").get_environ())):
...     served_request().host_url
'http://10.0.0.5:9000/'
>>> served_request() is None
True
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from flask import has_request_context, request
from werkzeug.wrappers import Request

_LANE_REQUEST: ContextVar[Request | None] = ContextVar("daily_lane_request", default=None)


def served_request() -> Request | None:
    """Flask's request inside its request context, else the move lane's, else None."""
    if has_request_context():
        return request
    return _LANE_REQUEST.get()


@contextmanager
def serving(lane_request: Request) -> Iterator[None]:
    """Name ``lane_request`` as the request being served (in this thread) for the block."""
    token = _LANE_REQUEST.set(lane_request)
    try:
        yield
    finally:
        _LANE_REQUEST.reset(token)
