"""The calendar's supported range: refused with a clear error everywhere, never an
overflow, and stated exactly by the date pattern the API document uses."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from daily import calendar
from daily.dice import day_seed, parse_date
from daily.errors import DateRangeError

OUTSIDE = [dt.date(1, 1, 1), dt.date(1999, 12, 31), dt.date(3000, 1, 1), dt.date(9999, 12, 31)]


@pytest.mark.parametrize("day", OUTSIDE)
def test_dates_outside_the_range_are_refused_naming_it(day: dt.date) -> None:
    calls = [
        lambda: calendar.opens_at(day), lambda: calendar.closes_at(day),
        lambda: calendar.status(day, dt.datetime(2026, 11, 29, tzinfo=dt.UTC)),
        lambda: parse_date(day), lambda: parse_date(day.isoformat()),
        lambda: day_seed(b"x" * 16, "yahtzee", day.isoformat()),
    ]
    for call in calls:
        with pytest.raises(DateRangeError, match="2000-01-01 to 2999-12-31") as caught:
            call()
        assert caught.value.field == "date"


def test_the_first_and_last_dates_work() -> None:
    assert calendar.opens_at(calendar.FIRST_DATE) < calendar.closes_at(calendar.LAST_DATE)
    assert parse_date("2000-01-01") == calendar.FIRST_DATE
    assert parse_date("2999-12-31") == calendar.LAST_DATE


def test_the_date_pattern_matches_exactly_the_supported_dates() -> None:
    pattern = re.compile(calendar.DATE_PATTERN)
    # every day of the centuries where leap-year rules differ, and around both ends
    for first, last in [(1990, 2110), (2390, 2410), (2490, 2510), (2890, 3010)]:
        day, end = dt.date(first, 1, 1), dt.date(last, 12, 31)
        while day <= end:
            supported = calendar.FIRST_DATE <= day <= calendar.LAST_DATE
            assert bool(pattern.fullmatch(day.isoformat())) is supported, day
            day += dt.timedelta(days=1)
    for text in ("2001-02-29", "2100-02-29", "2026-04-31", "2026-00-10", "2026-13-01",
                 "2026-1-01", "2026-01-32", "02026-01-01", "2026-01-01\n"):
        assert not pattern.fullmatch(text), text
    assert pattern.fullmatch("2400-02-29") and pattern.fullmatch("2024-02-29")
