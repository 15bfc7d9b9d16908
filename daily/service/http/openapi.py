"""The OpenAPI 3.1 document of ``/api/v1``, generated from the app itself.

Every ``/api/v1`` route of the Flask app carries the contract its view was declared with
(:func:`daily.service.http.contract.operations.operation`); this module turns the routes and
the pydantic models of those contracts into the document. The models that validate a
request are the ones that describe it here, so the two cannot drift apart; the
response models are checked against real responses by schemathesis
(``tests/service/test_openapi.py``).

>>> from flask import Flask
>>> from daily.service.ops.routes import bp
>>> app = Flask(__name__)
>>> app.register_blueprint(bp, url_prefix="/api/v1")
>>> doc = openapi_document(app, "https://dice.example")
>>> doc["servers"][0]["url"], sorted(doc["paths"])
('https://dice.example', ['/api/v1/health', '/api/v1/openapi.json'])
"""

from __future__ import annotations

import re
from typing import Any

from flask import Flask
from pydantic import BaseModel, TypeAdapter
from pydantic.json_schema import models_json_schema

from daily.service.http.contract.operations import Choice, Operation, declared, has_contract
from daily.service.http.contract.responses import Error

API_PREFIX = "/api/v1"
REF = "#/components/schemas/{model}"

ERROR_TEXT = {
    400: "Malformed body: not JSON, not an object, or nested too deep",
    401: "Missing, malformed or unknown token",
    403: "Not yours, or not allowed for this game",
    404: "Not found",
    409: "Conflicts with the state of the game or the day",
    413: "Body too large",
    422: "A field at fault (the error names it)",
    429: "Rate limited (see Retry-After)",
    503: "Redis unavailable (see Retry-After), keys or a strategy table missing",
}


def api_operations(app: Flask) -> list[tuple[str, str, str, Any]]:
    """``(path, method, endpoint, view)`` of every ``/api/v1`` route, in path order."""
    found = []
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith(API_PREFIX):
            continue
        view = app.view_functions[rule.endpoint]
        path = re.sub(r"<(?:[a-z]+:)?([a-z_]+)>", r"{\1}", rule.rule)
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            found.append((path, method.lower(), rule.endpoint, view))
    return sorted(found)


def _models(operations: list[Operation]) -> list[type[BaseModel]]:
    seen: dict[type[BaseModel], None] = {Error: None}
    for op in operations:
        if op.response is not None:
            seen[op.response] = None
        if op.query is not None:
            seen[op.query] = None
        if isinstance(op.body, Choice):
            seen.update(dict.fromkeys(op.body.models))
        elif op.body is not None:
            seen[op.body] = None
    return list(seen)


def _ref(model: type[BaseModel]) -> dict[str, str]:
    return {"$ref": REF.format(model=model.__name__)}


def _json(schema: dict[str, Any], description: str,
          media_type: str = "application/json") -> dict[str, Any]:
    return {"description": description, "content": {media_type: {"schema": schema}}}


def _parameters(op: Operation, components: dict[str, Any]) -> list[dict[str, Any]]:
    params = []
    for name, kind in op.path.items():
        schema = TypeAdapter(kind).json_schema(ref_template=REF)
        params.append({"name": name, "in": "path", "required": True, "schema": schema})
    if op.query is not None:
        query = components[op.query.__name__]
        for name, schema in query.get("properties", {}).items():
            params.append({
                "name": name, "in": "query", "required": name in query.get("required", []),
                "schema": schema,
            })
    return params


def _entry(op: Operation, endpoint: str, components: dict[str, Any]) -> dict[str, Any]:
    entry: dict[str, Any] = {"operationId": endpoint, "summary": op.summary}
    if op.description:
        entry["description"] = op.description
    if op.auth == "required":
        entry["security"] = [{"bearer": []}]
    elif op.auth == "optional":
        entry["security"] = [{"bearer": []}, {}]
    else:
        entry["security"] = []
    params = _parameters(op, components)
    if params:
        entry["parameters"] = params
    if op.body is not None:
        schema = (
            {"oneOf": [_ref(m) for m in op.body.models]} if isinstance(op.body, Choice)
            else _ref(op.body)
        )
        entry["requestBody"] = {
            "required": op.body_required, "content": {"application/json": {"schema": schema}}
        }
    responses = {
        str(s): {"description": "No content"} if op.response is None
        else _json(_ref(op.response), op.response.__doc__ or "OK", op.media_type)
        for s in op.statuses
    }
    for status in op.error_statuses():
        responses[str(status)] = _json(_ref(Error), ERROR_TEXT[status])
    entry["responses"] = responses
    return entry


def _drop_null_defaults(node: Any) -> Any:
    """A ``None`` default means "may be left out", not ``null``: it is not documented."""
    if isinstance(node, dict):
        return {k: _drop_null_defaults(v) for k, v in node.items()
                if not (k == "default" and v is None)}
    if isinstance(node, list):
        return [_drop_null_defaults(v) for v in node]
    return node


def openapi_document(app: Flask, server_url: str) -> dict[str, Any]:
    """The whole document of ``app``'s ``/api/v1`` routes, with ``server_url`` as server."""
    routes = [(p, m, e, declared(v)) for p, m, e, v in api_operations(app) if has_contract(v)]
    _, top = models_json_schema(
        [(model, "validation") for model in _models([op for *_, op in routes])],
        ref_template=REF,
    )
    components = top.get("$defs", {})
    paths: dict[str, dict[str, Any]] = {}
    for path, method, endpoint, op in routes:
        paths.setdefault(path, {})[method] = _entry(op, endpoint, components)
    return _drop_null_defaults({
        "openapi": "3.1.0",
        "info": {
            "title": "Daily Dice API", "version": "1.1.0",
            "description": "The same dice for everyone, every day. See docs/api.md.",
        },
        "servers": [{"url": server_url}],
        "paths": paths,
        "components": {
            "schemas": components,
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
    })
