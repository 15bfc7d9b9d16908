"""``/health`` and ``/openapi.json``."""

from __future__ import annotations

from typing import Any

import redis
from flask import Blueprint, current_app

from daily.service.contract.operations import operation
from daily.service.contract.responses import Health, OpenApi
from daily.service.errors import REDIS_RETRY_AFTER
from daily.service.openapi import openapi_document

bp = Blueprint("ops", __name__)


@bp.get("/health")
@operation(Health, statuses=(200, 503), needs_redis=False)
def health() -> tuple[dict[str, Any], int, dict[str, str]]:
    """Whether the service and its Redis answer (503 with Retry-After when Redis is down)."""
    try:
        current_app.extensions["daily"].conn.ping()
    except redis.RedisError:
        retry = {"Retry-After": str(REDIS_RETRY_AFTER)}
        return {"status": "degraded", "redis": "down"}, 503, retry
    return {"status": "ok", "redis": "ok"}, 200, {}


@bp.get("/openapi.json")
@operation(OpenApi, needs_redis=False)
def openapi() -> dict[str, Any]:
    """This document (OpenAPI 3.1), generated from the models that validate requests."""
    cached = current_app.extensions.get("daily.openapi")
    if cached is None:
        url = current_app.extensions["daily"].config.public_url
        cached = current_app.extensions["daily.openapi"] = openapi_document(current_app, url)
    return cached
