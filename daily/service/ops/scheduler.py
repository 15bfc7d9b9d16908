"""The scheduler: RQ's own cron scheduler (``rq.cron.CronScheduler``, RQ >= 2.5), with
a leader lock so that only one of several scheduler processes enqueues.

It enqueues :func:`workers.rollover.rollover` on the ``days`` queue every
``DAILY_ROLLOVER_INTERVAL`` seconds (default 60), and :func:`workers.reminders.send_reminders`
(Web Push reminders) every ``DAILY_REMINDER_INTERVAL`` seconds (default 300; it claims
each reminder it sends, so a double run sends nothing twice). Double rollovers are
prevented twice:

* **leader lock**: before enqueuing, a scheduler must hold the Redis lock
  ``P lock:scheduler`` (SET NX with an expiry of three intervals, renewed at every
  tick by its holder). A second scheduler stays on standby and takes over within three
  intervals after the leader dies, or at once when the leader stops cleanly (it
  releases the lock);
* **job lock and idempotency**: the rollover job itself holds ``P lock:rollover``
  while it runs and marks each finished step, so even two enqueued rollovers (say a
  leader that lost its lock during a long network pause) do the work once.

>>> from daily.service.config import load_config
>>> scheduler_lock_key(load_config({"DAILY_KEY_PREFIX": "t:"}))
't:lock:scheduler'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import redis
from redis.exceptions import LockError
from rq.cron import CronJob, CronScheduler

from daily.service import keymap
from daily.service.config import Config
from daily.service.connections import DAYS_QUEUE

#: Seconds between two rollover runs unless DAILY_ROLLOVER_INTERVAL says otherwise.
DEFAULT_INTERVAL = 60


def scheduler_lock_key(config: Config) -> str:
    """The Redis key of the scheduler leader lock."""
    return keymap.lock(config.key_prefix, "scheduler")


class LeaderCronScheduler(CronScheduler):
    """An RQ cron scheduler that enqueues only while it holds the leader lock."""

    def __init__(self, connection: redis.Redis, *, lock_key: str, lock_ttl: int, **kw) -> None:
        super().__init__(connection, **kw)
        self._lock = connection.lock(lock_key, timeout=lock_ttl, blocking=False)

    def is_leader(self) -> bool:
        """Take or renew the leader lock; True while this scheduler holds it."""
        try:
            if self._lock.local.token is not None and self._lock.owned():
                self._lock.reacquire()
                return True
        except LockError:
            pass  # lost it (expired and taken by another scheduler): try again below
        acquired = bool(self._lock.acquire())
        if acquired:
            self.log.info("scheduler %s is the leader", self.name)
        return acquired

    def enqueue_jobs(self) -> list[CronJob]:
        """Enqueue the due jobs if this scheduler leads; a standby enqueues nothing."""
        if not self.is_leader():
            return []
        return super().enqueue_jobs()

    def calculate_sleep_interval(self) -> float:
        """Sleep at most a third of the lock expiry, so that a standby checks in often."""
        ttl = self._lock.timeout or 60
        return min(super().calculate_sleep_interval(), ttl / 3)

    def resign(self) -> None:
        """Give up leadership (if held) so that a standby takes over at its next tick."""
        try:
            if self._lock.owned():
                self._lock.release()
        except (LockError, redis.RedisError):
            pass  # it expires by itself

    def register_death(self, pipeline: object = None) -> None:
        """Resign when stopping cleanly, then unregister as RQ does."""
        self.resign()
        super().register_death(pipeline)  # type: ignore[arg-type]


def build_scheduler(
    conn: redis.Redis, config: Config, rollover: Callable[..., Any], interval: int | None = None,
    *, quiet: bool = False, reminders: Callable[..., Any] | None = None,
) -> LeaderCronScheduler:
    """The scheduler with the rollover job registered, and the reminders job if given
    (``quiet``: it logs warnings and errors only, not a line per enqueued job).

    The caller passes the jobs (:func:`workers.rollover.rollover`,
    :func:`workers.reminders.send_reminders`), so that the service package never imports
    the workers.
    """
    every = interval or config.rollover_interval
    scheduler = LeaderCronScheduler(
        conn, lock_key=scheduler_lock_key(config), lock_ttl=3 * every,
        logging_level="WARNING" if quiet else "INFO",
    )
    scheduler.register(rollover, DAYS_QUEUE, interval=every, job_timeout=900, ttl=3 * every)
    if reminders is not None:
        often = config.reminder_interval
        scheduler.register(reminders, DAYS_QUEUE, interval=often, job_timeout=600,
                           ttl=max(often, 60))
    return scheduler
