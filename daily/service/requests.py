"""Reading requests: the JSON body, query values and the bearer token.

Every refusal is an :class:`~daily.service.errors.ApiError` naming the field, so the
blueprints stay a few lines each.
"""

from __future__ import annotations

import json
import re
from typing import Any

from flask import current_app, g, has_request_context, request

from daily.service.errors import ApiError
from daily.service.players import Player

#: Deepest nesting of arrays and objects a request body may have. The deepest body the
#: API takes (a move log) nests 4 levels; JSON nested thousands of levels deep would
#: exhaust the parser's recursion.
MAX_JSON_DEPTH = 32

_JSON_STRINGS = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKETS = bytes(range(256)).translate(None, b"[]{}")


def nesting_exceeds(raw: bytes, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether the JSON text ``raw`` nests arrays and objects deeper than ``limit``.

    Brackets inside strings do not count. The scan is linear and never recurses, so it
    is safe on any input, valid JSON or not.

    >>> nesting_exceeds(b'{"a": [[1], "]]]]"]}', limit=3), nesting_exceeds(b"[" * 4, limit=3)
    (False, True)
    """
    brackets = _JSON_STRINGS.sub(b"", raw).translate(None, _NOT_BRACKETS)
    depth = 0
    for byte in brackets:
        if byte in b"[{":
            depth += 1
            if depth > limit:
                return True
        else:
            depth -= 1
    return False


def json_body() -> Any:
    """The request body decoded as JSON; ``None`` for an empty body.

    The one way the service reads a body: past ``MAX_CONTENT_LENGTH`` it is a 413, deeper
    than :data:`MAX_JSON_DEPTH` or not JSON a 400 naming ``body``.
    """
    raw = request.get_data(cache=True)  # 413 past the body limit
    if not raw.strip():
        return None
    if nesting_exceeds(raw):
        raise ApiError(
            400, "bad_request", f"the body nests deeper than {MAX_JSON_DEPTH} levels",
            field="body",
        )
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        raise ApiError(400, "bad_request", "the body is not valid JSON", field="body") from None


def json_object() -> dict[str, Any]:
    """The request body as a JSON object (an empty body counts as ``{}``)."""
    body = json_body()
    if body is None:
        return {}
    if not isinstance(body, dict):
        raise ApiError(400, "bad_request", "the body must be a JSON object", field="body")
    return body


def only_fields(body: dict[str, Any], allowed: tuple[str, ...]) -> None:
    """Refuse a body field not in ``allowed`` (422 naming it; ``()``: no field at all)."""
    for name in body:
        if name not in allowed:
            known = f"allowed: {', '.join(allowed)}" if allowed else "none allowed"
            raise ApiError(
                422, "invalid_field", f"unknown field {name!r}; {known}", field=str(name)
            )


def required(body: dict[str, Any], name: str) -> Any:
    """The value of a field the body must have (422 naming it when missing)."""
    if name not in body:
        raise ApiError(422, "invalid_field", f"missing field {name!r}", field=name)
    return body[name]


def position_field(body: dict[str, Any]) -> int:
    """The ``position`` a move names: a whole number from 0 (``daily-move/1``)."""
    value = required(body, "position")
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 10_000:
        raise ApiError(
            422, "invalid_field", "position is the game's position, a whole number from 0",
            field="position",
        )
    return value


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


#: The languages of texts the server writes (share texts); the first is the default.
TEXT_LANGS = ("en", "it")


def request_lang() -> str:
    """The language of server-written texts: ``?lang=``, else ``Accept-Language``, else en.

    Outside a request (a worker) it is English.

    >>> from flask import Flask
    >>> with Flask(__name__).test_request_context("/", headers={"Accept-Language": "it-IT"}):
    ...     request_lang()
    'it'
    >>> request_lang()
    'en'
    """
    if not has_request_context():
        return TEXT_LANGS[0]
    asked = request.args.get("lang")
    if asked in TEXT_LANGS:
        return asked
    return request.accept_languages.best_match(TEXT_LANGS) or TEXT_LANGS[0]
