"""The reminders job in a real RQ worker process, against a local push service
(:mod:`tests.reminders.push_receiver`) that checks each request's VAPID header and
decrypts its RFC 8291 payload with the subscription's own keys.

One run sends the due reminders once: the daily one to a player who has not played
their local date, the streak one to a player with a streak to lose; nothing to a
player who played, nor to one whose hour has not come; a subscription its push service
answers 410 for is removed. A second run sends nothing more.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
import redis
from rq import Queue

from daily.service import keymap
from daily.service.clock import FixedClock
from daily.service.config import load_config
from daily.service.connections import DAYS_QUEUE
from daily.service.days.keyring import init_keys
from daily.service.reminders.schedule import Plan
from daily.service.reminders.subscriptions import Subscriptions
from daily.service.reminders.vapid import load_vapid_key
from tests.reminders.push_receiver import running_receiver
from tests.workers.conftest import PREFIX

pytestmark = [pytest.mark.redis, pytest.mark.spawns]

SET_UP = dt.datetime(2026, 12, 3, 6, 0, tzinfo=dt.UTC)
RUN = dt.datetime(2026, 12, 3, 8, 10, tzinfo=dt.UTC)  # 09:10 in Rome
TODAY = dt.date(2026, 12, 3)


def played(conn: redis.Redis, player: str, *days: dt.date) -> None:
    conn.zadd(keymap.player_stats(PREFIX, player, "days"),
              {d.isoformat(): d.toordinal() for d in days})


def test_the_job_sends_due_reminders_once_and_drops_a_dead_subscription(
    redis_client: redis.Redis, worker_env: dict[str, str], run_burst_worker, tmp_path: Path,
) -> None:
    init_keys(Path(worker_env["DAILY_DATA_DIR"]) / "keys")
    base = load_config(worker_env)
    key = load_vapid_key(base)
    assert key is not None
    with running_receiver(key.public_b64url) as receiver:
        env = {**worker_env, "DAILY_PUSH_SERVICES": receiver.origin,
               "DAILY_PUSH_CONTACT": "mailto:ops@dice.example"}
        subs = Subscriptions(redis_client, load_config(env), FixedClock(SET_UP))
        rome = ("Europe/Rome", ("daily", "streak"))
        people = {
            "p_fresh": (receiver.browser("fresh"), Plan(9, *rome)),
            "p_gone": (receiver.browser("gone", status=410), Plan(9, *rome)),
            "p_played": (receiver.browser("played"), Plan(9, *rome)),
            "p_streak": (receiver.browser("streak"), Plan(20, "Europe/Rome", ("streak",), 9)),
            "p_later": (receiver.browser("later"), Plan(9, "America/New_York", ("daily",))),
        }
        for player, (browser, plan) in people.items():
            subs.put(player, browser.endpoint, browser.keys["p256dh"], browser.keys["auth"],
                     plan, "it" if player == "p_streak" else "en")
        played(redis_client, "p_played", TODAY - dt.timedelta(days=1), TODAY)
        played(redis_client, "p_streak", *(TODAY - dt.timedelta(days=k) for k in (1, 2, 3)))

        queue = Queue(DAYS_QUEUE, connection=redis_client)
        first = queue.enqueue("workers.reminders.send_reminders", RUN.isoformat())
        run_burst_worker(DAYS_QUEUE, env=env)
        first.refresh()
        assert receiver.errors == []
        got = {(m["browser"], m["payload"]["kind"]): m for m in receiver.messages}
        assert sorted(got) == [("fresh", "daily"), ("gone", "daily"), ("streak", "streak")]
        fresh = got["fresh", "daily"]["payload"]
        assert (fresh["title"], fresh["date"], fresh["url"]) == (
            "Today's dice are ready", "2026-12-03", "/#/")
        streak = got["streak", "streak"]["payload"]
        assert (streak["title"], streak["streak"]) == ("La tua serie finisce stanotte", 3)
        assert got["fresh", "daily"]["claims"]["sub"] == "mailto:ops@dice.example"
        assert got["fresh", "daily"]["topic"] == "daily"
        assert first.return_value() == {"sent": 2, "gone": 1, "played": 1}

        # The 410 subscription is gone, with its schedule; the others stay scheduled.
        assert subs.get("p_gone") is None
        due = {m.decode() for m in redis_client.zrange(keymap.push_due(PREFIX), 0, -1)}
        assert not any(m.startswith("p_gone ") for m in due)
        assert {"p_fresh daily", "p_later daily", "p_streak streak"} <= due
        assert subs.get("p_fresh") is not None

        # Again in the same hour: each reminder was claimed, none goes twice.
        again = queue.enqueue("workers.reminders.send_reminders",
                              (RUN + dt.timedelta(minutes=5)).isoformat())
        run_burst_worker(DAYS_QUEUE, env=env)
        again.refresh()
        assert again.return_value() == {}
        assert len(receiver.messages) == 3 and receiver.errors == []


def test_the_scheduler_enqueues_the_reminders_job_at_its_interval(
    redis_client: redis.Redis, worker_env: dict[str, str],
) -> None:
    from daily.service.ops.scheduler import build_scheduler
    from workers.reminders import send_reminders
    from workers.rollover import rollover

    config = load_config({**worker_env, "DAILY_REMINDER_INTERVAL": "120"})
    scheduler = build_scheduler(redis_client, config, rollover, interval=7,
                                reminders=send_reminders)
    jobs = {job.func_name: (job.queue_name, job.interval) for job in scheduler.get_jobs()}
    assert jobs == {"workers.rollover.rollover": (DAYS_QUEUE, 7),
                    "workers.reminders.send_reminders": (DAYS_QUEUE, 120)}


def test_without_a_vapid_key_the_job_sends_nothing(
    redis_client: redis.Redis, worker_env: dict[str, str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    from workers.reminders import send_reminders

    for name in ("REDIS_URL", "DAILY_KEY_PREFIX", "DAILY_DATA_DIR"):
        monkeypatch.setenv(name, worker_env[name])
    assert send_reminders(RUN.isoformat()) == {}
