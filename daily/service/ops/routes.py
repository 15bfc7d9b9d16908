"""``/health`` and ``/openapi.json``."""

from __future__ import annotations

from typing import Any

import redis
from flask import Blueprint, current_app

from daily.rules import get_ruleset
from daily.service.clock import iso
from daily.service.config import Config
from daily.service.extensions import Basics, current
from daily.service.http.contract.operations import operation
from daily.service.http.contract.responses import Health, OpenApi
from daily.service.http.error_handlers import REDIS_RETRY_AFTER
from daily.service.http.openapi import openapi_document
from daily.service.publicurl import public_base_url
from daily.strategy.tables.status import table_status

bp = Blueprint("ops", __name__)


def tables_report(config: Config) -> dict[str, dict[str, Any]]:
    """The state of each strategy table the service uses (daily sets, then the others
    ``daily serve`` builds): ``ready``, ``building`` (percent, eta_seconds) or ``missing``."""
    names = dict.fromkeys(
        (*config.daily_rulesets, *config.tables_at_start, *config.tables_in_background)
    )
    return {name: table_status(get_ruleset(name), config.tables_dir) for name in names}


@bp.get("/health")
@operation(Health, statuses=(200, 503), needs_redis=False)
def health() -> tuple[dict[str, Any], int, dict[str, str]]:
    """Whether the service and its Redis answer (503 with Retry-After when Redis is down),
    and the state of each strategy table; ``demo`` describes the demo clock when one runs."""
    services = current(Basics)
    config = services.config
    body: dict[str, Any] = {"status": "ok", "redis": "ok"}
    status = 200
    try:
        services.conn.ping()
    except redis.RedisError:
        body, status = {"status": "degraded", "redis": "down"}, 503
    body["tables"] = tables_report(config)
    if config.demo_clock is not None:
        body["demo"] = {"day_minutes": config.demo_clock.day_minutes, "now": iso(services.clock())}
    headers = {"Retry-After": str(REDIS_RETRY_AFTER)} if status == 503 else {}
    return body, status, headers


@bp.get("/openapi.json")
@operation(OpenApi, needs_redis=False)
def openapi() -> dict[str, Any]:
    """This document (OpenAPI 3.1), generated from the models that validate requests."""
    cached = current_app.extensions.get("daily.openapi")
    if cached is None:
        url = public_base_url(current(Basics).config)
        cached = current_app.extensions["daily.openapi"] = openapi_document(current_app, url)
    return cached
