"""Reading requests: the JSON body, query values and the bearer token.

Every refusal is an :class:`~daily.service.errors.ApiError` naming the field, so the
blueprints stay a few lines each.
"""

from __future__ import annotations

from typing import Any

from flask import current_app, g, request

from daily.service.errors import ApiError
from daily.service.players import Player


def json_object() -> dict[str, Any]:
    """The request body as a JSON object (an empty body counts as ``{}``)."""
    raw = request.get_data(cache=True)  # 413 past the body limit
    if not raw.strip():
        return {}
    body = request.get_json(force=True, silent=True)
    if body is None:
        raise ApiError(400, "bad_request", "the body is not valid JSON", field="body")
    if not isinstance(body, dict):
        raise ApiError(400, "bad_request", "the body must be a JSON object", field="body")
    return body


def bearer_token() -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, if any."""
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(
            401, "unauthorized", "use 'Authorization: Bearer <token>'", field="Authorization"
        )
    return token.strip()


def verified_player(token: str) -> Player | None:
    """The player ``token`` authenticates, checked once per request (kept in ``g``)."""
    checked = g.get("daily_auth")
    if checked is not None and checked[0] == token:
        return checked[1]
    player = current_app.extensions["daily"].players.authenticate(token)
    g.daily_auth = (token, player)
    return player


def optional_player() -> Player | None:
    """The authenticated player, ``None`` without a token, 401 for a bad token."""
    token = bearer_token()
    if token is None:
        return None
    player = verified_player(token)
    if player is None:
        raise ApiError(401, "unauthorized", "unknown or revoked token", field="Authorization")
    return player


def current_player() -> Player:
    """The authenticated player; 401 without a valid token."""
    player = optional_player()
    if player is None:
        raise ApiError(
            401, "unauthorized", "this call needs 'Authorization: Bearer <token>'",
            field="Authorization",
        )
    return player


def int_arg(name: str, default: int, low: int, high: int) -> int:
    """A whole-number query parameter within bounds."""
    raw = request.args.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ApiError(
            422, "invalid_field", f"{name} is a whole number, not {raw[:20]!r}", field=name
        ) from None
    if not low <= value <= high:
        raise ApiError(422, "invalid_field", f"{name} is from {low} to {high}", field=name)
    return value
