"""The job that seals a closed day's results log, or appends its later decisions.

:func:`seal_day` runs :meth:`daily.service.audit.day_log.DayLog.seal`, which the rollover
runs at the close (step 7 of :mod:`workers.rollover`) and a review decision on a closed
day (``daily review clear``, ``hold`` or ``disqualify``) runs again. Idempotent: a second
run changes nothing.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from daily.dice import parse_date
from daily.rules import canonical_name
from daily.service.audit.day_log import DayLog
from daily.service.days.keyring import Keyring
from workers.runtime import job_config, job_connection


def seal_day(date: str, ruleset: str, now: str | None = None) -> dict[str, Any]:
    """Seal the results log of (date, ruleset), or append the decisions changed since
    its last head, and sign a new head if anything was added.

    ``now`` (ISO 8601 with a time zone) replaces the clock. Returns ``{"date",
    "ruleset", "size", "appended", "signed"}`` (``signed``: the size of the new head,
    or ``None``). Raises :class:`daily.errors.StateError` while the board is not frozen.
    """
    config = job_config()
    conn = job_connection(config)
    instant = dt.datetime.fromisoformat(now) if now else config.clock()
    if instant.tzinfo is None:
        raise ValueError(f"now={now!r} has no time zone")
    day_log = DayLog(conn, config, parse_date(date), canonical_name(ruleset))
    return day_log.seal(Keyring.load(config), instant)
