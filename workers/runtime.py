"""What a job needs from its surroundings: the Redis connection and the configuration.

Inside an RQ worker the job uses the worker's own connection; called directly (tests,
``daily rebuild``) it connects to ``REDIS_URL``.

>>> job_config({"DAILY_KEY_PREFIX": "t:"}).key_prefix
't:'
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Mapping
from typing import Any

import redis
from rq import get_current_job

from daily import calendar
from daily.dice import parse_date
from daily.errors import StateError
from daily.rules import canonical_name
from daily.service.config import Config, load_config
from daily.service.connections import queue_redis_from_config, redis_from_config
from daily.service.days.keyring import Keyring


def job_config(env: Mapping[str, str] | None = None) -> Config:
    """The service configuration from the worker's environment."""
    return load_config(env)


def job_connection(config: Config | None = None) -> redis.Redis:
    """The Redis of the service's data: the running job's own connection when the data
    and the queues share a server, else a new one to ``REDIS_URL`` (a cluster too)."""
    config = config or job_config()
    job = get_current_job()
    if job is not None and not config.redis_cluster and config.queue_redis_url is None:
        return job.connection
    return redis_from_config(config)


def job_queue_connection(config: Config | None = None) -> redis.Redis:
    """The Redis of the RQ queues (to enqueue follow-up jobs)."""
    job = get_current_job()
    if job is not None:
        return job.connection
    return queue_redis_from_config(config or job_config())


DayFigures = Callable[[Config, str, bytes], dict[str, Any]]
DayKey = Callable[[str, dt.date, str], str]


def store_day_figures(
    key_of: DayKey, date: str, ruleset: str, compute: DayFigures, now: str | None = None
) -> dict[str, Any]:
    """Compute figures of a revealed day once and keep them at ``key_of(P, day, ruleset)``
    (:mod:`daily.service.keymap`: ``par``, ``ceiling``).

    ``compute(config, ruleset, day_seed)`` runs only when nothing is stored yet and the
    day is revealed (else :class:`StateError`); the first stored value wins, so a rerun
    returns it unchanged. ``now`` (ISO 8601 with a time zone) replaces the service
    clock (:attr:`daily.service.config.Config.clock`: a demo clock's time under
    ``--demo-day-minutes``).
    """
    config = job_config()
    conn = job_connection(config)
    day = parse_date(date)
    name = canonical_name(ruleset)
    key = key_of(config.key_prefix, day, name)
    stored = conn.get(key)
    if stored is not None:
        return dict(json.loads(stored))
    instant = dt.datetime.fromisoformat(now) if now else config.clock()
    if calendar.status(day, instant) != "revealed":
        raise StateError(f"the day {day} of {name} is not revealed yet", field="date")
    value = compute(config, name, Keyring.load(config).day_seed(name, day))
    conn.set(key, json.dumps(value, sort_keys=True), nx=True)
    return dict(json.loads(conn.get(key) or json.dumps(value)))
