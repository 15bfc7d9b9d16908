"""JSON error responses, built in one place: the edge where domain errors become HTTP.

Every failure a client can provoke becomes ``{"error": {"status", "code", "message",
"field"?, "turn"?, "roll"?, ...}}``: the services' domain refusals
(:mod:`daily.service.refusals`, mapped to a status by :data:`DOMAIN_STATUS`),
:class:`ApiError` for refusals of the request layer itself (parsing a body, a query or
a token: :mod:`daily.service.http.parsing`, :mod:`daily.service.http.contract.bodies`; services
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
from dataclasses import dataclass
from typing import Any

import redis
from flask import Flask, Response, jsonify
from werkzeug.exceptions import HTTPException

from daily.errors import DailyError, IllegalMoveError, StateError
from daily.service.refusals import (
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


@dataclass(frozen=True)
class ErrorAnswer:
    """An error answer before it is a response: its status, document and extra headers."""

    status: int
    body: dict[str, Any]
    headers: tuple[tuple[str, str], ...] = ()


def daily_error_answer(exc: DailyError) -> ErrorAnswer:
    """A core or service error (the message names the field, turn and roll).

    >>> answer = daily_error_answer(RateLimited("too fast", retry_after=7))
    >>> answer.status, answer.body["error"]["code"], answer.headers
    (429, 'rate_limited', (('Retry-After', '7'),))
    """
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
    if isinstance(exc, RateLimited) and exc.retry_after is not None:
        return ErrorAnswer(status, body, (("Retry-After", str(exc.retry_after)),))
    return ErrorAnswer(status, body)


def http_error_answer(exc: HTTPException) -> ErrorAnswer:
    """Any HTTP error (404, 405, 413, 429, ...), keeping its headers.

    >>> from werkzeug.exceptions import TooManyRequests
    >>> answer = http_error_answer(TooManyRequests("600 per minute", retry_after=3))
    >>> answer.body["error"]["message"], answer.headers
    ('rate limit exceeded: 600 per minute', (('Retry-After', '3'),))
    """
    status = exc.code or 500
    code = HTTP_CODES.get(status, "error")
    message = exc.description or exc.name
    if status == 413:
        message = "the request body is too large"
    elif status == 429:
        message = f"rate limit exceeded: {exc.description}"
    headers = exc.get_headers() if exc.response is None else list(exc.response.headers.items())
    kept = tuple((name, value) for name, value in headers
                 if name.lower() not in ("content-type", "content-length"))
    return ErrorAnswer(status, error_body(status, code, message), kept)


#: Seconds a client is asked to wait (``Retry-After``) when Redis is out of reach.
REDIS_RETRY_AFTER = 5


def redis_down_answer(exc: redis.ConnectionError | redis.TimeoutError) -> ErrorAnswer:
    """Redis refused, timed out or is still loading: 503 with ``Retry-After``."""
    log.warning("redis unavailable: %s", exc)
    return ErrorAnswer(
        503, error_body(503, "unavailable", "the database is unavailable; retry shortly"),
        (("Retry-After", str(REDIS_RETRY_AFTER)),),
    )


def error_answer(exc: Exception) -> ErrorAnswer:
    """The answer to any exception a request raised: the kinds above, else, as the last
    resort, a 500 without any detail (the traceback goes to the log only; call it in the
    ``except`` block)."""
    if isinstance(exc, HTTPException):
        return http_error_answer(exc)
    if isinstance(exc, DailyError):
        return daily_error_answer(exc)
    if isinstance(exc, redis.ConnectionError | redis.TimeoutError):
        return redis_down_answer(exc)
    log.exception("unexpected error")
    return ErrorAnswer(500, error_body(500, "internal", "internal error; it has been logged"))


def _respond(answer: ErrorAnswer) -> Response:
    response = jsonify(answer.body)
    response.status_code = answer.status
    for name, value in answer.headers:
        response.headers[name] = value
    return response


def handle_daily_error(exc: DailyError) -> Response:
    """A core or service error as JSON (:func:`daily_error_answer`)."""
    return _respond(daily_error_answer(exc))


def handle_http_error(exc: HTTPException) -> Response:
    """Any HTTP error as JSON (:func:`http_error_answer`)."""
    return _respond(http_error_answer(exc))


def handle_redis_down(exc: redis.ConnectionError | redis.TimeoutError) -> Response:
    """Redis out of reach as JSON (:func:`redis_down_answer`)."""
    return _respond(redis_down_answer(exc))


def handle_unexpected(exc: Exception) -> Response:
    """The last resort (:func:`error_answer`)."""
    return _respond(error_answer(exc))


def register_error_handlers(app: Flask) -> None:
    """Install the JSON error handlers on ``app``."""
    app.register_error_handler(DailyError, handle_daily_error)
    app.register_error_handler(HTTPException, handle_http_error)
    app.register_error_handler(redis.ConnectionError, handle_redis_down)
    app.register_error_handler(redis.TimeoutError, handle_redis_down)
    app.register_error_handler(Exception, handle_unexpected)
