"""The one clock of the service: every "now" comes from ``app.config["CLOCK"]``.

Tests move time by installing a :class:`FixedClock` (or passing ``NOW`` in the test
config); production uses :func:`system_clock`.

>>> import datetime as dt
>>> clock = FixedClock(dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC))
>>> clock().isoformat()
'2026-11-29T12:00:00+00:00'
>>> clock.advance(hours=25)().isoformat()
'2026-11-30T13:00:00+00:00'
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

Clock = Callable[[], dt.datetime]


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


def iso(moment: dt.datetime) -> str:
    """An instant as ISO 8601 UTC with a ``Z`` suffix and whole seconds.

    >>> iso(dt.datetime(2026, 11, 29, 10, 0, 0, 123, tzinfo=dt.UTC))
    '2026-11-29T10:00:00Z'
    """
    return moment.astimezone(dt.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")
