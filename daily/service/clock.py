"""The one clock of the service: every "now" comes from ``app.config["CLOCK"]``.

Tests move time by installing a :class:`FixedClock` (or passing ``NOW`` in the test
config); production uses :func:`system_clock`. An operator's demonstration uses a
:class:`DemoClock` (``daily serve --demo-day-minutes N``), on which a whole day passes
in N real minutes; every process of the service reads the same one from its
configuration (:attr:`daily.service.config.Config.clock`), so the web server, the
rollover and the par jobs agree on the time.

>>> import datetime as dt
>>> clock = FixedClock(dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC))
>>> clock().isoformat()
'2026-11-29T12:00:00+00:00'
>>> clock.advance(hours=25)().isoformat()
'2026-11-30T13:00:00+00:00'
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable
from dataclasses import dataclass

Clock = Callable[[], dt.datetime]
#: The shortest demo day (6 real seconds), for tests of a whole day in seconds.
MIN_DEMO_DAY_MINUTES = 0.1


def system_clock() -> dt.datetime:
    """The current UTC time, timezone-aware.

    >>> system_clock().tzinfo is dt.UTC
    True
    """
    return dt.datetime.now(dt.UTC)


class FixedClock:
    """A clock that stands still until moved (for tests and replays of a moment)."""

    def __init__(self, now: dt.datetime) -> None:
        if now.tzinfo is None:
            raise ValueError("a clock needs a timezone-aware time")
        self.now = now.astimezone(dt.UTC)

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, **delta: float) -> FixedClock:
        """Move the clock forward by a ``timedelta(**delta)``; returns the clock."""
        self.now += dt.timedelta(**delta)
        return self

    def set(self, now: dt.datetime) -> FixedClock:
        """Move the clock to ``now``; returns the clock."""
        if now.tzinfo is None:
            raise ValueError("a clock needs a timezone-aware time")
        self.now = now.astimezone(dt.UTC)
        return self


@dataclass(frozen=True)
class DemoClock:
    """Time running ``1440 / day_minutes`` times faster than real time.

    At the real instant ``real_anchor`` (Unix seconds) it shows ``virtual_anchor``.

    >>> clock = DemoClock(real_anchor=1000.0, virtual_anchor=1_795_000_000.0, day_minutes=2)
    >>> clock.speed
    720.0
    >>> iso(clock(real_now=1060.0))  # one real minute later: half a day later
    '2026-11-18T23:06:40Z'
    >>> DemoClock.parse(clock.text()) == clock
    True
    """

    real_anchor: float
    virtual_anchor: float
    day_minutes: float

    @property
    def speed(self) -> float:
        """Virtual seconds per real second."""
        return 1440.0 / self.day_minutes

    def __call__(self, real_now: float | None = None) -> dt.datetime:
        real = time.time() if real_now is None else real_now
        virtual = self.virtual_anchor + (real - self.real_anchor) * self.speed
        return dt.datetime.fromtimestamp(virtual, dt.UTC)

    def text(self) -> str:
        """The ``DAILY_DEMO_CLOCK`` value: ``REAL,VIRTUAL,MINUTES``."""
        return f"{self.real_anchor!r},{self.virtual_anchor!r},{self.day_minutes!r}"

    @classmethod
    def parse(cls, text: str) -> DemoClock:
        """Read a ``DAILY_DEMO_CLOCK`` value; ValueError names what is wrong.

        >>> DemoClock.parse("1,2,0")
        Traceback (most recent call last):
        ...
        ValueError: a demo day lasts 0.1 to 1440 minutes, not 0.0
        """
        parts = text.split(",")
        if len(parts) != 3:
            raise ValueError(f"must be REAL,VIRTUAL,MINUTES, not {text!r}")
        real, virtual, minutes = (float(p) for p in parts)
        if not MIN_DEMO_DAY_MINUTES <= minutes <= 1440:
            raise ValueError(f"a demo day lasts 0.1 to 1440 minutes, not {minutes}")
        return cls(real, virtual, minutes)

    @classmethod
    def starting_now(cls, day_minutes: float) -> DemoClock:
        """A demo clock that shows the real time now and runs fast from here."""
        now = time.time()
        return cls(now, now, day_minutes)


def iso(moment: dt.datetime) -> str:
    """An instant as ISO 8601 UTC with a ``Z`` suffix and whole seconds.

    >>> iso(dt.datetime(2026, 11, 29, 10, 0, 0, 123, tzinfo=dt.UTC))
    '2026-11-29T10:00:00Z'
    """
    return moment.astimezone(dt.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")
