"""JSON error responses, built in one place: the edge where domain errors become HTTP.

Every failure a client can provoke becomes ``{"error": {"status", "code", "message",
"field"?, "turn"?, "roll"?, ...}}``: the services' domain refusals
(:mod:`daily.service.domain`, mapped to a status by :data:`DOMAIN_STATUS`),
:class:`ApiError` for refusals of the request layer itself (parsing a body, a query or
a token: :mod:`daily.service.requests`, :mod:`daily.service.contract.bodies`; services
and blueprints raise domain errors),
:class:`daily.errors.DailyError` from the core (400/422 with field, turn and roll; an
illegal move adds ``why``, its machine reason), any HTTP error (404, 405, 413, 429,
...), Redis out of reach (503 ``unavailable`` with ``Retry-After``) and, as a last
resort, an unexpected exception (a JSON 500 with no traceback;
the traceback goes to the log only). A domain error that carries the current game
state (``stale_position``) has it beside the error: ``{"error": {...}, "state": {...}}``.

>>> err = ApiError(409, "already_ranked", "you have played this set", field="date")
>>> error_body(err.status, err.code, err.message, err.where())["error"]["code"]
'already_ranked'
"""

from __future__ import annotations

import logging
from typing import Any

import redis
from flask import Flask, Response, jsonify
from werkzeug.exceptions import HTTPException

from daily.errors import DailyError, IllegalMoveError, StateError
from daily.service.domain import (
    Conflict,
    Forbidden,
    Invalid,
    NotFound,
    RateLimited,
    Unavailable,
)

log = logging.getLogger(__name__)

#: Codes for plain HTTP errors, by status.
HTTP_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "too_large",
    415: "unsupported_media_type",
    422: "invalid_field",
    429: "rate_limited",
    503: "unavailable",
}


#: The HTTP status of each kind of domain refusal (the only place that says it).
DOMAIN_STATUS: dict[type[DailyError], int] = {
    Invalid: 422,
    NotFound: 404,
    Forbidden: 403,
    Conflict: 409,
    Unavailable: 503,
    RateLimited: 429,
}


class ApiError(DailyError):
    """A refusal by the service, with its HTTP status and error code."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        *,
        field: str | None = None,
        turn: int | None = None,
        roll: int | None = None,
    ) -> None:
        self.status = status
        self.code = code
        super().__init__(message, field=field, turn=turn, roll=roll)


def error_body(
    status: int, code: str, message: str, where: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The error document.

    >>> error_body(404, "not_found", "no game 'g_x'")
    {'error': {'status': 404, 'code': 'not_found', 'message': "no game 'g_x'"}}
    """
    inner: dict[str, Any] = {"status": status, "code": code, "message": message}
    inner.update(where or {})
    return {"error": inner}


def classify(exc: DailyError) -> tuple[int, str]:
    """HTTP status and code for an error of the core or the service.

    >>> classify(IllegalMoveError("box 'ones' is already filled", field="box"))
    (409, 'illegal_move')
    >>> from daily.errors import LogFormatError
    >>> classify(LogFormatError("a log is a JSON object", field="log"))
    (422, 'invalid_field')
    >>> classify(Conflict("moved on", code="stale_position"))
    (409, 'stale_position')
    """
    if isinstance(exc, ApiError):
        return exc.status, exc.code
    for kind, status in DOMAIN_STATUS.items():
        if isinstance(exc, kind):
            return status, getattr(exc, "code", HTTP_CODES[status])
    if isinstance(exc, IllegalMoveError):
        return 409, "illegal_move"  # well formed, but not at this position of this game
    if isinstance(exc, StateError):
        return 409, "conflict"
    if exc.field is not None or exc.turn is not None:
        return 422, "invalid_field"
    return 400, "bad_request"


def _respond(status: int, body: dict[str, Any]) -> Response:
    response = jsonify(body)
    response.status_code = status
    return response


def handle_daily_error(exc: DailyError) -> Response:
    """A core or service error as JSON (message names the field, turn and roll)."""
    status, code = classify(exc)
    where: dict[str, Any] = exc.where()
    reason = getattr(exc, "reason", None)
    if isinstance(exc, IllegalMoveError) and reason is not None:
        where["why"] = reason
    where.update(getattr(exc, "detail", None) or {})
    body = error_body(status, code, str(exc), where)
    state = getattr(exc, "state", None)
    if state is not None:
        body["state"] = state
    response = _respond(status, body)
    if isinstance(exc, RateLimited) and exc.retry_after is not None:
        response.headers["Retry-After"] = str(exc.retry_after)
    return response


def handle_http_error(exc: HTTPException) -> Response:
    """Any HTTP error (404, 405, 413, 429, ...) as JSON, keeping its headers."""
    status = exc.code or 500
    code = HTTP_CODES.get(status, "error")
    message = exc.description or exc.name
    if status == 413:
        message = "the request body is too large"
    elif status == 429:
        message = f"rate limit exceeded: {exc.description}"
    response = _respond(status, error_body(status, code, message))
    headers = exc.get_headers() if exc.response is None else list(exc.response.headers.items())
    for name, value in headers:
        if name.lower() not in ("content-type", "content-length"):
            response.headers[name] = value
    return response


#: Seconds a client is asked to wait (``Retry-After``) when Redis is out of reach.
REDIS_RETRY_AFTER = 5


def handle_redis_down(exc: redis.ConnectionError | redis.TimeoutError) -> Response:
    """Redis refused, timed out or is still loading: 503 with ``Retry-After``."""
    log.warning("redis unavailable: %s", exc)
    response = _respond(
        503, error_body(503, "unavailable", "the database is unavailable; retry shortly")
    )
    response.headers["Retry-After"] = str(REDIS_RETRY_AFTER)
    return response


def handle_unexpected(exc: Exception) -> Response:
    """The last resort: a JSON 500 without any detail (the traceback is logged)."""
    if isinstance(exc, HTTPException):
        return handle_http_error(exc)
    if isinstance(exc, DailyError):
        return handle_daily_error(exc)
    if isinstance(exc, redis.ConnectionError | redis.TimeoutError):
        return handle_redis_down(exc)
    log.exception("unexpected error")
    return _respond(500, error_body(500, "internal", "internal error; it has been logged"))


def register_error_handlers(app: Flask) -> None:
    """Install the JSON error handlers on ``app``."""
    app.register_error_handler(DailyError, handle_daily_error)
    app.register_error_handler(HTTPException, handle_http_error)
    app.register_error_handler(redis.ConnectionError, handle_redis_down)
    app.register_error_handler(redis.TimeoutError, handle_redis_down)
    app.register_error_handler(Exception, handle_unexpected)
