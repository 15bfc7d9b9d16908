"""Who is due for a reminder, and when: the schedule's pure logic (no Redis, no clock).

A player's :class:`Plan` asks for reminders in an IANA time zone:

* ``daily``: "today's dice are ready", at ``hour`` o'clock local time;
* ``streak``: "your streak ends tonight", at ``streak_hour`` (20 by default) local time,
  only when the player has a current streak (:func:`daily.service.results.stats.streaks`).

Neither goes to a player who has already played their local date (a ranked game of
that date finished): every local date on Earth is open for ranked play (dates open at
UTC+14 and close at UTC-12), so "today" is the player's own date.

A reminder is due in the hour that starts at its local time (:data:`WINDOW`): a run of
the job anywhere in that hour sends it, and a reminder missed for the whole hour (the
workers were down) is skipped, not sent late. Daylight-saving changes move the UTC
moment, not the local hour (an hour that does not exist that day starts at the
first moment after the gap).

>>> plan = Plan(hour=9, time_zone="Europe/Rome", kinds=("daily", "streak"))
>>> next_due(plan, "daily", dt.datetime(2026, 12, 3, 7, 30, tzinfo=dt.UTC)).isoformat()
'2026-12-03T08:00:00+00:00'
>>> next_due(plan, "daily", dt.datetime(2026, 12, 3, 9, 0, tzinfo=dt.UTC)).isoformat()
'2026-12-04T08:00:00+00:00'
>>> next_due(plan, "streak", dt.datetime(2026, 12, 3, 9, 0, tzinfo=dt.UTC)).isoformat()
'2026-12-03T19:00:00+00:00'
"""

from __future__ import annotations

import datetime as dt
import functools
import zoneinfo
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from daily.service.results.stats import streaks

Kind = Literal["daily", "streak"]
KINDS: tuple[Kind, ...] = ("daily", "streak")
#: How long after its local time a reminder may still go.
WINDOW = dt.timedelta(hours=1)
#: The local hour of the streak reminder unless the player chose another.
STREAK_HOUR = 20


@functools.lru_cache(maxsize=1)
def time_zones() -> frozenset[str]:
    """The IANA time zone names this machine knows.

    >>> "Europe/Rome" in time_zones(), "Mars/Olympus" in time_zones()
    (True, False)
    """
    return frozenset(zoneinfo.available_timezones())


@functools.lru_cache(maxsize=1024)
def zone(name: str) -> zoneinfo.ZoneInfo:
    """The time zone ``name`` (ValueError if it is not a known IANA name)."""
    if name not in time_zones():
        raise ValueError(f"{name!r} is not an IANA time zone")
    return zoneinfo.ZoneInfo(name)


@dataclass(frozen=True)
class Plan:
    """What a player asked for: the local hours of the reminders, their time zone, and
    which reminders (at least one of :data:`KINDS`)."""

    hour: int
    time_zone: str
    kinds: tuple[Kind, ...]
    streak_hour: int = STREAK_HOUR

    def hour_of(self, kind: Kind) -> int:
        """The local hour of a kind of reminder."""
        return self.streak_hour if kind == "streak" else self.hour


def local_date(moment: dt.datetime, time_zone: str) -> dt.date:
    """The date in ``time_zone`` at ``moment``.

    >>> t = dt.datetime(2026, 12, 3, 23, 30, tzinfo=dt.UTC)
    >>> local_date(t, "Europe/Rome"), local_date(t, "America/Los_Angeles")
    (datetime.date(2026, 12, 4), datetime.date(2026, 12, 3))
    """
    return moment.astimezone(zone(time_zone)).date()


def starts_at(day: dt.date, hour: int, time_zone: str) -> dt.datetime:
    """The UTC moment at which ``hour`` o'clock of ``day`` starts in ``time_zone``.

    >>> starts_at(dt.date(2026, 3, 29), 2, "Europe/Rome").isoformat()  # 02:00 skipped
    '2026-03-29T01:00:00+00:00'
    >>> starts_at(dt.date(2026, 10, 25), 2, "Europe/Rome").isoformat()  # 02:00 twice
    '2026-10-25T00:00:00+00:00'
    """
    local = dt.datetime.combine(day, dt.time(hour), tzinfo=zone(time_zone))
    return local.astimezone(dt.UTC)


def next_due(plan: Plan, kind: Kind, after: dt.datetime) -> dt.datetime:
    """The start of the first window of ``kind`` not over at ``after``: the moment the
    reminder is due (``after`` itself may be inside that window).

    >>> plan = Plan(hour=23, time_zone="Pacific/Kiritimati", kinds=("daily",))  # UTC+14
    >>> next_due(plan, "daily", dt.datetime(2026, 12, 3, 9, 30, tzinfo=dt.UTC)).isoformat()
    '2026-12-03T09:00:00+00:00'
    """
    today = local_date(after, plan.time_zone)
    for offset in (-1, 0, 1, 2):
        start = starts_at(today + dt.timedelta(days=offset), plan.hour_of(kind), plan.time_zone)
        if start + WINDOW > after:
            return start
    raise AssertionError("a local hour comes back within two days")  # pragma: no cover


@dataclass(frozen=True)
class Reminder:
    """One notification to send: its kind, the player's local date, their streak."""

    kind: Kind
    date: dt.date
    streak: int


def reminder(kind: Kind, plan: Plan, due: dt.datetime, played: Iterable[dt.date],
             now: dt.datetime) -> Reminder | None:
    """The reminder of ``kind`` due at ``due`` if it should go at ``now``, else None:
    too late (the window is over), not asked for, already played the local date, or
    (``streak``) no current streak.

    ``played``: the dates the player finished a ranked game of.

    >>> plan = Plan(hour=9, time_zone="Europe/Rome", kinds=("daily", "streak"))
    >>> due = dt.datetime(2026, 12, 3, 19, 0, tzinfo=dt.UTC)   # 20:00 in Rome
    >>> at = due + dt.timedelta(minutes=5)
    >>> reminder("streak", plan, due, [dt.date(2026, 12, 2)], at)
    Reminder(kind='streak', date=datetime.date(2026, 12, 3), streak=1)
    >>> reminder("streak", plan, due, [dt.date(2026, 12, 2), dt.date(2026, 12, 3)], at)
    >>> reminder("streak", plan, due, [], at)
    """
    if kind not in plan.kinds or not due <= now < due + WINDOW:
        return None
    day = local_date(due, plan.time_zone)
    dates = set(played)
    if day in dates:
        return None
    current = streaks(dates, now)[0]
    if kind == "streak" and current == 0:
        return None
    return Reminder(kind, day, current)
