"""What "today" is: the window in which a date is open for ranked play.

Date D opens when it is D somewhere on Earth (00:00 at UTC+14, i.e. D-1 10:00 UTC)
and closes when it is D nowhere (24:00 at UTC-12, i.e. D+1 12:00 UTC). A day is
``upcoming`` before it opens, ``open`` inside the window and ``revealed`` after it
closes, when its seed is published. At any instant two or three dates are open.

The calendar supports the dates :data:`FIRST_DATE` to :data:`LAST_DATE` (2000-01-01 to
2999-12-31); any other date is refused with a :class:`~daily.errors.DateRangeError`
naming that range, before any arithmetic could overflow. :data:`DATE_PATTERN` is a
regular expression matching exactly the supported dates (it is the API's date schema).

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
from functools import lru_cache
from typing import Literal

from daily.errors import DateRangeError, StateError

EARLIEST_OFFSET = dt.timedelta(hours=14)  # UTC+14, Line Islands
LATEST_OFFSET = dt.timedelta(hours=-12)  # UTC-12, Baker Island

DayStatus = Literal["upcoming", "open", "revealed"]

#: The first and last dates the calendar supports.
FIRST_DATE = dt.date(2000, 1, 1)
LAST_DATE = dt.date(2999, 12, 31)

_COMMON_DAY = (
    r"(?:(?:0[1-9]|1[0-2])-(?:0[1-9]|1[0-9]|2[0-8])"  # any month, 1st to 28th
    r"|(?:0[13-9]|1[0-2])-(?:29|30)"  # every month but February, 29th and 30th
    r"|(?:0[13578]|1[02])-31)"  # the months with 31 days
)
_LEAP_YEAR = r"(?:2[0-9](?:0[48]|[2468][048]|[13579][26])|2[048]00)"  # 2000 to 2999
#: Exactly the ISO dates ``YYYY-MM-DD`` from :data:`FIRST_DATE` to :data:`LAST_DATE`
#: (ASCII digits only: ``\d`` would match other digits in some regex engines).
DATE_PATTERN = rf"^(?:2[0-9]{{3}}-{_COMMON_DAY}|{_LEAP_YEAR}-02-29)$"


def supported(day: dt.date, field: str = "date") -> dt.date:
    """``day`` itself if the calendar supports it, else a :class:`DateRangeError`.

    >>> supported(dt.date(9999, 12, 31))
    Traceback (most recent call last):
    ...
    daily.errors.DateRangeError: date: 9999-12-31 is outside the supported dates \
2000-01-01 to 2999-12-31
    """
    if not FIRST_DATE <= day <= LAST_DATE:
        raise DateRangeError(
            f"{day.isoformat()} is outside the supported dates "
            f"{FIRST_DATE.isoformat()} to {LAST_DATE.isoformat()}",
            field=field,
        )
    return day


def _midnight_utc(day: dt.date) -> dt.datetime:
    supported(day)
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


#: The books of a day close this long after its window, so that finishing requests in
#: flight at the close still count: the rollover freezes its boards from then on.
GRACE = dt.timedelta(minutes=5)


def books_close_at(day: dt.date) -> dt.datetime:
    """The earliest instant the rollover freezes the boards of ``day`` (and seals its
    results log): :func:`closes_at` and :data:`GRACE`.

    >>> books_close_at(dt.date(2026, 1, 1)).isoformat()
    '2026-01-02T12:05:00+00:00'
    """
    return closes_at(day) + GRACE


def status(day: dt.date, now: dt.datetime) -> DayStatus:
    """``upcoming``, ``open`` or ``revealed`` at instant ``now`` (timezone-aware).

    >>> status(dt.date(2026, 11, 29), dt.datetime(2026, 11, 28, 9, 59, tzinfo=dt.UTC))
    'upcoming'
    """
    now = _aware(now)
    opens, closes = _window(day)
    if now < opens:
        return "upcoming"
    if now < closes:
        return "open"
    return "revealed"


@lru_cache(maxsize=1024)
def _window(day: dt.date) -> tuple[dt.datetime, dt.datetime]:
    """:func:`opens_at` and :func:`closes_at` of ``day``, computed once per day (every
    move of a ranked game checks that its day is still open)."""
    return opens_at(day), closes_at(day)


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
