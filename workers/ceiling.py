"""The ceiling job: the day's perfect-information ceiling, computed once it is revealed.

``record_day_ceiling(date, ruleset)`` is enqueued by the rollover job (job id
``ceiling-<date>-<ruleset>`` on the ``days`` queue), next to the par job. It refuses a
day that is not yet revealed, computes :func:`daily.fairplay.ceiling.ceiling_of_seed`
from the day seed and stores ``{"ceiling": N, "seconds": S}`` as JSON at
``<prefix>ceiling:<date>:<ruleset>``. The ceiling is exact and deterministic, so a
rerun changes nothing; an existing value is returned unchanged. Needs no strategy
table. Failures (no keyring, day not revealed) raise, and RQ records them.

>>> ceiling_key_parts("2026-11-29", "kniffel")
('ceiling', '2026-11-29', 'yahtzee')
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from daily import calendar
from daily.dice import parse_date
from daily.errors import StateError
from daily.fairplay.ceiling import ceiling_of_seed
from daily.rules import canonical_name, get_ruleset
from daily.service.connections import redis_key
from daily.service.keys import Keyring
from workers.context import job_config, job_connection


def ceiling_key_parts(date: str, ruleset: str) -> tuple[str, str, str]:
    """The parts of the Redis key of a day's ceiling (after the prefix)."""
    return ("ceiling", parse_date(date).isoformat(), canonical_name(ruleset))


def record_day_ceiling(date: str, ruleset: str, now: str | None = None) -> dict[str, Any]:
    """Compute and store a revealed day's ceiling (idempotent).

    ``now`` (ISO 8601 with a time zone) replaces the clock, for tests.
    """
    config = job_config()
    conn = job_connection(config)
    day = parse_date(date)
    name = canonical_name(ruleset)
    key = redis_key(config, *ceiling_key_parts(date, name))
    stored = conn.get(key)
    if stored is not None:
        return dict(json.loads(stored))
    instant = dt.datetime.fromisoformat(now) if now else dt.datetime.now(dt.UTC)
    if calendar.status(day, instant) != "revealed":
        raise StateError(f"the day {day} of {name} is not revealed yet", field="date")
    ceiling = ceiling_of_seed(get_ruleset(name), Keyring.load(config).day_seed(name, day))
    value = {"ceiling": ceiling.value, "seconds": round(ceiling.seconds, 3)}
    conn.set(key, json.dumps(value, sort_keys=True), nx=True)
    return dict(json.loads(conn.get(key) or json.dumps(value)))
