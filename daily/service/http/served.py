"""The HTTP request being served, for the few texts of the service that depend on it
(the language of share texts, the base URL of result links), whoever serves it: Flask
(its ``request``) or the move lane (:mod:`daily.service.http.movelane`, which answers the
game moves without Flask's request context and names its request's WSGI environment
with :func:`serving`; the request object is built only when a text asks for it, as a
game's finishing move does, and once per request).

Outside any request (a worker, a CLI command) there is none.

>>> from werkzeug.test import EnvironBuilder
>>> served_request() is None
True
>>> with serving(EnvironBuilder("/x", base_url="http://10.0.0.5:9000").get_environ()):
...     served_request().host_url
'http://10.0.0.5:9000/'
>>> with serving(EnvironBuilder("/x").get_environ()):
...     served_request() is served_request()
True
>>> served_request() is None
True
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from flask import has_request_context, request
from werkzeug.wrappers import Request

_LANE_ENVIRON: ContextVar[dict[str, Any] | None] = ContextVar(
    "daily_lane_environ", default=None)
#: Where the lane's request object is kept in its environment, once built.
_REQUEST_KEY = "daily.served_request"


def served_request() -> Request | None:
    """Flask's request inside its request context, else the move lane's, else None."""
    if has_request_context():
        return request
    environ = _LANE_ENVIRON.get()
    if environ is None:
        return None
    built: Request | None = environ.get(_REQUEST_KEY)
    if built is None:
        built = environ[_REQUEST_KEY] = Request(environ)
    return built


@contextmanager
def serving(environ: dict[str, Any]) -> Iterator[None]:
    """Name the request of the WSGI ``environ`` as the one being served (in this thread)
    for the block."""
    token = _LANE_ENVIRON.set(environ)
    try:
        yield
    finally:
        _LANE_ENVIRON.reset(token)
