"""``/days`` and ``/keys``: signed day descriptors and the public keys that verify them.

The blueprint is thin: :class:`daily.service.descriptors.DayDescriptors` does the work.
The keyring is loaded from the service configuration and reloaded when the key files
change, so a rotation needs no restart (a test may put
a ready :class:`~daily.service.keys.Keyring` in ``app.config["KEYRING"]`` and move the
first daily date with ``app.config["DAILY_FIRST_DAY"]``, a ``datetime.date``).
"""

from __future__ import annotations

import logging
from typing import Any

from flask import Blueprint, current_app, request

from daily.service.descriptors import FIRST_DAY, DayDescriptors
from daily.service.errors import ApiError
from daily.service.keys import Keyring, KeyringError, KeyringLoader

log = logging.getLogger(__name__)

bp = Blueprint("days", __name__)

_EXTENSION = "daily.descriptors"
_LOADER = "daily.keyring_loader"


def _keyring() -> Keyring:
    fixed = current_app.config.get("KEYRING")
    if isinstance(fixed, Keyring):
        return fixed
    loader = current_app.extensions.get(_LOADER)
    if loader is None:
        loader = KeyringLoader(current_app.extensions["daily"].config)
        current_app.extensions[_LOADER] = loader
    try:
        return loader.get()
    except KeyringError as exc:  # the message names a file or variable, never a secret
        log.error("cannot load the keys: %s", exc)
        raise ApiError(
            503, "unavailable", "the service has no usable keys yet (run `daily keys init`)"
        ) from None


def descriptors() -> DayDescriptors:
    """The app's descriptor service, with the keyring as it is now on disk."""
    keyring = _keyring()
    cached = current_app.extensions.get(_EXTENSION)
    if cached is not None and cached.keyring is keyring:
        return cached
    services = current_app.extensions["daily"]
    first_day = current_app.config.get("DAILY_FIRST_DAY", FIRST_DAY)
    service = DayDescriptors(services.conn, services.config, keyring, first_day)
    current_app.extensions[_EXTENSION] = service
    return service


@bp.get("/days/<date>/<ruleset>")
def day(date: str, ruleset: str) -> dict[str, Any]:
    """One day descriptor; ``seed`` only once the day is revealed."""
    now = current_app.extensions["daily"].clock()
    return descriptors().get(date, ruleset, now)


@bp.get("/days")
def days() -> dict[str, Any]:
    """Descriptors of a range of dates (at most 31), for one or every daily ruleset."""
    now = current_app.extensions["daily"].clock()
    raw = request.args.get("ruleset")
    rulesets = None
    if raw is not None:
        rulesets = [name.strip() for name in raw.split(",") if name.strip()]
        if not rulesets:
            raise ApiError(422, "invalid_field", "names no ruleset", field="ruleset")
    found = descriptors().between(request.args.get("from"), request.args.get("to"), rulesets, now)
    return {"days": found}


@bp.get("/keys")
def keys() -> dict[str, Any]:
    """Every public key that signed a descriptor, the current one ``active``."""
    return {"keys": descriptors().keyring.public_keys()}


# ----- OpenAPI ---------------------------------------------------------------------
_HEX = {"type": "string", "pattern": "^[0-9a-f]+$"}
_DATE = {"type": "string", "format": "date", "example": "2026-11-29"}
_ERRORS = {
    str(code): {
        "description": text,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
    }
    for code, text in (
        (404, "no daily set for that ruleset or date, or not published yet"),
        (422, "malformed date, range or ruleset (the field is named)"),
        (503, "the service has no usable keys"),
    )
}

#: Schemas of this blueprint, for ``#/components/schemas``.
OPENAPI_SCHEMAS: dict[str, Any] = {
    "DayDescriptor": {
        "type": "object",
        "required": [
            "version",
            "ruleset",
            "options",
            "date",
            "generator",
            "commitment",
            "key_id",
            "signature",
            "status",
            "opens_at",
            "closes_at",
        ],
        "properties": {
            "version": {"const": "day/1"},
            "ruleset": {"type": "string"},
            "options": {"type": "object"},
            "date": _DATE,
            "generator": {"const": "dice/v1"},
            "commitment": {**_HEX, "minLength": 64, "maxLength": 64},
            "key_id": {**_HEX, "minLength": 16, "maxLength": 16},
            "signature": {**_HEX, "minLength": 128, "maxLength": 128},
            "status": {"enum": ["upcoming", "open", "revealed"]},
            "opens_at": {"type": "string", "format": "date-time"},
            "closes_at": {"type": "string", "format": "date-time"},
            "seed": {
                **_HEX,
                "minLength": 64,
                "maxLength": 64,
                "description": "only once the day is revealed",
            },
            "par": {"type": "object"},
        },
    },
    "PublicKey": {
        "type": "object",
        "required": ["id", "algorithm", "public_key", "created", "active"],
        "properties": {
            "id": {**_HEX, "minLength": 16, "maxLength": 16},
            "algorithm": {"const": "Ed25519"},
            "public_key": {**_HEX, "minLength": 64, "maxLength": 64},
            "created": {"type": ["string", "null"]},
            "active": {"type": "boolean"},
        },
    },
}


def _ok(schema: dict[str, Any], text: str) -> dict[str, Any]:
    return {"200": {"description": text, "content": {"application/json": {"schema": schema}}}}


#: Paths of this blueprint (under ``/api/v1``), for the OpenAPI document.
OPENAPI_PATHS: dict[str, Any] = {
    "/api/v1/days/{date}/{ruleset}": {
        "get": {
            "summary": "A signed day descriptor (seed only once revealed)",
            "operationId": "getDay",
            "parameters": [
                {"name": "date", "in": "path", "required": True, "schema": {"type": "string"}},
                {"name": "ruleset", "in": "path", "required": True, "schema": {"type": "string"}},
            ],
            "responses": {
                **_ok({"$ref": "#/components/schemas/DayDescriptor"}, "the descriptor"),
                **_ERRORS,
            },
        }
    },
    "/api/v1/days": {
        "get": {
            "summary": "Descriptors of a range of dates (at most 31)",
            "operationId": "listDays",
            "parameters": [
                {"name": name, "in": "query", "required": False, "schema": {"type": "string"}}
                for name in ("from", "to", "ruleset")
            ],
            "responses": {
                **_ok(
                    {
                        "type": "object",
                        "required": ["days"],
                        "properties": {
                            "days": {
                                "type": "array",
                                "items": {"$ref": "#/components/schemas/DayDescriptor"},
                            }
                        },
                    },
                    "the descriptors, by date then ruleset",
                ),
                **_ERRORS,
            },
        }
    },
    "/api/v1/keys": {
        "get": {
            "summary": "Every public key that signed a descriptor",
            "operationId": "listKeys",
            "responses": {
                **_ok(
                    {
                        "type": "object",
                        "required": ["keys"],
                        "properties": {
                            "keys": {
                                "type": "array",
                                "items": {"$ref": "#/components/schemas/PublicKey"},
                            }
                        },
                    },
                    "the public keys, oldest first",
                ),
                "503": _ERRORS["503"],
            },
        }
    },
}
