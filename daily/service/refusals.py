"""Refusals of the services, as domain exceptions: what went wrong, never how HTTP says it.

A service raises one of these kinds with a machine ``code`` (``already_ranked``,
``stale_position``, ...) and the field, turn and roll at fault; the edge
(:func:`daily.service.http.error_handlers.classify`) is the one place that maps a kind to an HTTP
status. ``detail`` adds fields to the error object (e.g. ``position``); ``state``
travels beside it (the current game state of a ``stale_position``).

>>> err = Conflict("the game is over", code="game_over", field="id")
>>> err.code, err.where()
('game_over', {'field': 'id'})
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from daily.errors import DailyError


class ServiceError(DailyError):
    """A refusal by a service; subclasses say which kind (mapped to HTTP at the edge)."""

    default_code = "invalid_field"

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        field: str | None = None,
        turn: int | None = None,
        roll: int | None = None,
        detail: Mapping[str, Any] | None = None,
        state: Mapping[str, Any] | None = None,
    ) -> None:
        self.code = code or self.default_code
        self.detail = dict(detail or {})
        self.state = state
        super().__init__(message, field=field, turn=turn, roll=roll)


class Invalid(ServiceError):
    """The request is well formed but names something the service refuses."""

    default_code = "invalid_field"


class NotFound(ServiceError):
    """What the request names does not exist."""

    default_code = "not_found"


class Forbidden(ServiceError):
    """It exists, but not for this player (or not now)."""

    default_code = "forbidden"


class Conflict(ServiceError):
    """The request does not fit the current state (game over, position moved on)."""

    default_code = "conflict"


class Unavailable(ServiceError):
    """A resource the service needs is missing (keys, tables); retry later."""

    default_code = "unavailable"


class RateLimited(ServiceError):
    """Over a rate limit (counted inside a service's script); ``retry_after``: seconds
    until it may try again, when known (the edge sends it as ``Retry-After``).

    >>> RateLimited("3 write requests per 1 minute per player", retry_after=42).retry_after
    42
    >>> RateLimited("too many new players", code="too_many_players").code
    'too_many_players'
    """

    default_code = "rate_limited"

    def __init__(self, message: str, *, retry_after: int | None = None, **kwargs: Any) -> None:
        self.retry_after = None if retry_after is None else max(1, int(retry_after))
        super().__init__(f"rate limit exceeded: {message}", **kwargs)
