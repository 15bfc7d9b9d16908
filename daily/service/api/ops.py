"""``/health`` and ``/openapi.json``."""

from __future__ import annotations

from typing import Any

import redis
from flask import Blueprint, current_app

from daily.service.errors import REDIS_RETRY_AFTER
from daily.service.openapi import openapi_document

bp = Blueprint("ops", __name__)


@bp.get("/health")
def health() -> tuple[dict[str, Any], int, dict[str, str]]:
    """``{"status": "ok", "redis": "ok"}``, or 503 with ``Retry-After`` when Redis does not
    answer."""
    try:
        current_app.extensions["daily"].conn.ping()
    except redis.RedisError:
        retry = {"Retry-After": str(REDIS_RETRY_AFTER)}
        return {"status": "degraded", "redis": "down"}, 503, retry
    return {"status": "ok", "redis": "ok"}, 200, {}


@bp.get("/openapi.json")
def openapi() -> dict[str, Any]:
    """The OpenAPI 3.1 document of this API."""
    return openapi_document(current_app.extensions["daily"].config.public_url)
