"""The schedule's pure logic: who is due at a given UTC moment, in which time zone, and
who is left alone (played already, no streak, the hour missed)."""

from __future__ import annotations

import datetime as dt

import pytest

from daily.service.reminders.schedule import (
    WINDOW,
    Plan,
    local_date,
    next_due,
    reminder,
    starts_at,
    zone,
)

UTC = dt.UTC


def at(*args: int) -> dt.datetime:
    return dt.datetime(*args, tzinfo=UTC)


@pytest.mark.parametrize(("zone", "due"), [
    ("Europe/Rome", at(2026, 12, 3, 8)),            # UTC+1 in winter
    ("America/New_York", at(2026, 12, 3, 14)),      # UTC-5
    ("Asia/Kolkata", at(2026, 12, 3, 3, 30)),        # UTC+5:30
    ("Pacific/Kiritimati", at(2026, 12, 2, 19)),    # UTC+14: its 3 Dec 09:00 is 2 Dec in UTC
    ("Etc/GMT+12", at(2026, 12, 3, 21)),            # UTC-12
])
def test_the_daily_reminder_is_due_at_nine_local_time(zone: str, due: dt.datetime) -> None:
    plan = Plan(hour=9, time_zone=zone, kinds=("daily",))
    assert starts_at(dt.date(2026, 12, 3), 9, zone) == due
    assert next_due(plan, "daily", due - dt.timedelta(minutes=1)) == due
    assert next_due(plan, "daily", due + dt.timedelta(minutes=59)) == due  # still its hour
    assert next_due(plan, "daily", due + WINDOW) == due + dt.timedelta(days=1)


def test_daylight_saving_keeps_the_local_hour() -> None:
    plan = Plan(hour=9, time_zone="Europe/Rome", kinds=("daily",))
    before = next_due(plan, "daily", at(2026, 3, 27, 12))  # clocks go forward on the 29th
    after = next_due(plan, "daily", before + WINDOW)
    assert (before, after) == (at(2026, 3, 28, 8), at(2026, 3, 29, 7))
    assert {d.astimezone(zone("Europe/Rome")).hour for d in (before, after)} == {9}


def test_the_local_date_decides_what_already_played_means() -> None:
    moment = at(2026, 12, 3, 23, 30)
    assert local_date(moment, "Asia/Tokyo") == dt.date(2026, 12, 4)
    assert local_date(moment, "America/Los_Angeles") == dt.date(2026, 12, 3)
    plan = Plan(hour=8, time_zone="Asia/Tokyo", kinds=("daily",))
    due = starts_at(dt.date(2026, 12, 4), 8, "Asia/Tokyo")
    assert due == at(2026, 12, 3, 23)
    played_today_utc = [dt.date(2026, 12, 3)]  # the UTC date, not Tokyo's
    found = reminder("daily", plan, due, played_today_utc, due + dt.timedelta(minutes=30))
    assert found is not None and found.date == dt.date(2026, 12, 4)
    assert reminder("daily", plan, due, [dt.date(2026, 12, 4)], due) is None


def test_nobody_who_played_is_reminded_and_nobody_without_consent() -> None:
    plan = Plan(hour=9, time_zone="Europe/Rome", kinds=("daily",))
    due = at(2026, 12, 3, 8)
    now = due + dt.timedelta(minutes=5)
    assert reminder("daily", plan, due, [], now) is not None
    assert reminder("daily", plan, due, [dt.date(2026, 12, 3)], now) is None
    assert reminder("streak", plan, due, [dt.date(2026, 12, 2)], now) is None  # not asked


def test_the_streak_reminder_needs_a_streak_and_no_game_today() -> None:
    plan = Plan(hour=9, time_zone="Europe/Rome", kinds=("streak",), streak_hour=20)
    due = next_due(plan, "streak", at(2026, 12, 3, 12))
    assert due == at(2026, 12, 3, 19)
    now = due + dt.timedelta(minutes=1)
    run = [dt.date(2026, 11, 30) + dt.timedelta(days=k) for k in range(3)]  # 30 Nov..2 Dec
    found = reminder("streak", plan, due, run, now)
    assert found is not None and (found.kind, found.streak) == ("streak", 3)
    assert reminder("streak", plan, due, [*run, dt.date(2026, 12, 3)], now) is None
    assert reminder("streak", plan, due, [dt.date(2026, 11, 20)], now) is None  # broken
    assert reminder("streak", plan, due, [], now) is None


def test_a_reminder_missed_for_its_whole_hour_is_not_sent_late() -> None:
    plan = Plan(hour=9, time_zone="UTC", kinds=("daily",))
    due = at(2026, 12, 3, 9)
    assert reminder("daily", plan, due, [], due + dt.timedelta(minutes=59)) is not None
    assert reminder("daily", plan, due, [], due + WINDOW) is None
    assert reminder("daily", plan, due, [], due - dt.timedelta(seconds=1)) is None


def test_an_unknown_time_zone_is_refused() -> None:
    with pytest.raises(ValueError, match="IANA"):
        local_date(at(2026, 12, 3), "Mars/Olympus_Mons")
