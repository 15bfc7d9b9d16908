"""Reading requests: the JSON body, query values, path values and the bearer token.

Every refusal is an :class:`~daily.service.http.error_handlers.ApiError` naming the field, so the
blueprints stay a few lines each. Bodies, queries and path values are validated by the
models of :mod:`daily.service.http.contract` (the ones that generate the OpenAPI document);
:func:`invalid` turns pydantic's first complaint into a 422 naming the field.
"""

from __future__ import annotations

import json
import re
from typing import Any, TypeVar

from flask import g, has_request_context, request
from pydantic import BaseModel, TypeAdapter, ValidationError

from daily.service.extensions import current
from daily.service.http.contract.fields import PATTERN_CODES, PATTERN_MEANINGS
from daily.service.http.error_handlers import ApiError
from daily.service.players.accounts import Player, Players

M = TypeVar("M", bound=BaseModel)

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
    if raw.count(b"[") + raw.count(b"{") <= limit:
        return False  # not enough opening brackets, in strings or not (the usual body)
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
    if not raw:  # only a truly empty body is absent; white space alone is not JSON
        return None
    return _decoded(raw)


def _decoded(raw: bytes) -> Any:
    """The JSON text ``raw`` decoded (400 naming ``body`` when it is not JSON or nests
    too deep)."""
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
    """The request body as a JSON object (an empty body counts as ``{}``; ``null`` is
    not an object, nor is white space alone)."""
    raw = request.get_data(cache=True)  # 413 past the body limit
    if not raw:
        return {}
    body = _decoded(raw)
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


def _where(loc: tuple[Any, ...]) -> tuple[str, int | None, int | None]:
    """The dotted field of a pydantic location, and the turn and roll its list indexes
    name: ``log.turns.2.holds.0`` is ``log.turns.holds``, turn 2, roll 1 (0-based, the
    first reroll makes roll 1). The name of a union member (``DailyLog``, ``str``) is
    left out."""
    names: list[str] = []
    turn = roll = None
    for part in loc:
        if isinstance(part, int):
            if names[-1:] == ["turns"]:
                turn = part
            elif names[-1:] == ["holds"]:
                roll = part + 1
            continue
        if not part[:1].islower() or "[" in part or part in ("str", "int", "bool"):
            continue  # a union member's tag
        names.append(part)
    return ".".join(names) or "body", turn, roll


def invalid(exc: ValidationError, prefix: tuple[str, ...] = ()) -> ApiError:
    """A 422 ``invalid_field`` for the first error of ``exc``, naming its field (a typed
    code or name not in its form: the code of
    :data:`~daily.service.http.contract.fields.PATTERN_CODES`, e.g. ``bad_group_code``).

    >>> from daily.service.http.contract.bodies import Rename
    >>> try:
    ...     Rename.model_validate({"name": None})
    ... except ValidationError as exc:
    ...     err = invalid(exc)
    >>> err.field, err.message
    ('name', 'is a string')
    """
    errors = exc.errors(include_url=False)
    first = errors[0]
    field, turn, roll = _where((*prefix, *first["loc"]))
    kind, ctx = first["type"], first.get("ctx") or {}
    code = "invalid_field"
    if len({_where(e["loc"])[0] for e in errors}) == 1 and len(errors) > 1:
        message = "is none of the forms it may take (see the OpenAPI document)"
    elif kind == "missing":
        message = f"missing field {field.rpartition('.')[2]!r}"
    elif kind == "extra_forbidden":
        message = f"unknown field {field.rpartition('.')[2]!r}"
    elif kind == "string_pattern_mismatch":
        message = PATTERN_MEANINGS.get(ctx.get("pattern", ""), "is not in the expected form")
        code = PATTERN_CODES.get(ctx.get("pattern", ""), code)
    elif kind == "string_type":
        message = "is a string"
    elif kind in ("int_type", "int_parsing"):
        message = "is a whole number"
    elif kind in ("bool_type", "bool_parsing"):
        message = "is true or false"
    elif kind in ("model_type", "model_attributes_type", "dict_type"):
        message = "is a JSON object"
    else:
        message = first["msg"][0].lower() + first["msg"][1:]
    return ApiError(422, code, message, field=field, turn=turn, roll=roll)


def read_body(model: type[M], raw: Any = None) -> M:
    """The JSON body validated by ``model`` (an empty body counts as ``{}``)."""
    body = json_object() if raw is None else raw
    try:
        return model.model_validate(body)
    except ValidationError as exc:
        raise invalid(exc) from None


def read_query(model: type[M]) -> M:
    """The query string validated by ``model`` (the first value of a repeated name)."""
    try:
        return model.model_validate(request.args.to_dict(flat=True))
    except ValidationError as exc:
        raise invalid(exc) from None


def read_path(adapter: TypeAdapter[Any], name: str, value: str) -> Any:
    """A path value validated by its type."""
    try:
        return adapter.validate_python(value)
    except ValidationError as exc:
        raise invalid(exc, (name,)) from None


def bearer_of(header: str) -> str | None:
    """The token of an ``Authorization`` header's value, ``None`` if it is not
    ``Bearer <token>``.

    >>> bearer_of("Bearer  p_1.abc "), bearer_of("bearer p_1.abc"), bearer_of("Basic eA==")
    ('p_1.abc', 'p_1.abc', None)
    """
    scheme, _, token = header.partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and token else None


def bearer_token() -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, if any."""
    header = request.environ.get("HTTP_AUTHORIZATION")  # as request.headers reads it
    if header is None:
        return None
    token = bearer_of(header)
    if token is None:
        raise ApiError(
            401, "unauthorized", "use 'Authorization: Bearer <token>'", field="Authorization"
        )
    return token


def verified_player(token: str) -> Player | None:
    """The player ``token`` authenticates, checked once per request (kept in ``g``)."""
    checked = g.get("daily_auth")
    if checked is not None and checked[0] == token:
        return checked[1]
    player = current(Players).authenticate(token)
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
