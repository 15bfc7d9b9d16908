"""What "today" is: the window in which a date is open for ranked play.

Date D opens when it is D somewhere on Earth (00:00 at UTC+14, i.e. D-1 10:00 UTC)
and closes when it is D nowhere (24:00 at UTC-12, i.e. D+1 12:00 UTC). A day is
``upcoming`` before it opens, ``open`` inside the window and ``revealed`` after it
closes, when its seed is published. At any instant two or three dates are open.

>>> import datetime as dt
>>> day = dt.date(2026, 11, 29)
>>> opens_at(day).isoformat(), closes_at(day).isoformat()
('2026-11-28T10:00:00+00:00', '2026-11-30T12:00:00+00:00')
>>> status(day, dt.datetime(2026, 11, 30, 11, 59, tzinfo=dt.UTC))
'open'
>>> [d.isoformat() for d in open_dates(dt.datetime(2026, 11, 29, 11, 0, tzinfo=dt.UTC))]
['2026-11-28', '2026-11-29', '2026-11-30']
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

from daily.errors import StateError

EARLIEST_OFFSET = dt.timedelta(hours=14)  # UTC+14, Line Islands
LATEST_OFFSET = dt.timedelta(hours=-12)  # UTC-12, Baker Island

DayStatus = Literal["upcoming", "open", "revealed"]


def _midnight_utc(day: dt.date) -> dt.datetime:
    return dt.datetime(day.year, day.month, day.day, tzinfo=dt.UTC)


def _aware(now: dt.datetime) -> dt.datetime:
    if now.tzinfo is None:
        raise StateError("a time without a time zone is ambiguous", field="now")
    return now.astimezone(dt.UTC)


def opens_at(day: dt.date) -> dt.datetime:
    """The UTC instant when ``day`` begins at UTC+14.

    >>> opens_at(dt.date(2026, 1, 1)).isoformat()
    '2025-12-31T10:00:00+00:00'
    """
    return _midnight_utc(day) - EARLIEST_OFFSET


def closes_at(day: dt.date) -> dt.datetime:
    """The UTC instant when ``day`` ends at UTC-12.

    >>> closes_at(dt.date(2026, 1, 1)).isoformat()
    '2026-01-02T12:00:00+00:00'
    """
    return _midnight_utc(day) + dt.timedelta(days=1) - LATEST_OFFSET


def status(day: dt.date, now: dt.datetime) -> DayStatus:
    """``upcoming``, ``open`` or ``revealed`` at instant ``now`` (timezone-aware).

    >>> status(dt.date(2026, 11, 29), dt.datetime(2026, 11, 28, 9, 59, tzinfo=dt.UTC))
    'upcoming'
    """
    now = _aware(now)
    if now < opens_at(day):
        return "upcoming"
    if now < closes_at(day):
        return "open"
    return "revealed"


def open_dates(now: dt.datetime) -> list[dt.date]:
    """Every date open for ranked play at ``now``, oldest first.

    >>> [d.isoformat() for d in open_dates(dt.datetime(2026, 11, 29, 23, 0, tzinfo=dt.UTC))]
    ['2026-11-29', '2026-11-30']
    """
    utc_day = _aware(now).date()
    candidates = (utc_day + dt.timedelta(days=k) for k in (-2, -1, 0, 1, 2))
    return [d for d in candidates if status(d, now) == "open"]


def last_revealed(now: dt.datetime) -> dt.date:
    """The most recent date whose window has closed.

    >>> last_revealed(dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC)).isoformat()
    '2026-11-28'
    """
    day = _aware(now).date()
    while status(day, now) != "revealed":
        day -= dt.timedelta(days=1)
    return day
