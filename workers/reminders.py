"""The reminders job: send the Web Push reminders that are due (queue ``days``).

:func:`send_reminders` is enqueued by the scheduler every ``DAILY_REMINDER_INTERVAL``
seconds (:mod:`daily.service.ops.scheduler`). Each due reminder of ``P push:due`` is
claimed with a compare-and-set that moves it to its next day, so a rerun, or two runs
at once, send it once; it then goes only if the schedule says so
(:func:`daily.service.reminders.schedule.reminder`: inside its hour, asked for, the
player has not played their local date, and a streak for the streak reminder). A
subscription its push service calls dead (404 or 410) is removed.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections import Counter

from daily.service.publicurl import public_base_url
from daily.service.reminders.delivery import Sender
from daily.service.reminders.schedule import WINDOW, next_due, reminder
from daily.service.reminders.subscriptions import Subscriptions
from daily.service.reminders.vapid import load_vapid_key
from daily.service.results.stats import ranked_dates
from workers.runtime import job_config, job_connection

log = logging.getLogger(__name__)


def send_reminders(now: str | None = None, limit: int = 500) -> dict[str, int]:
    """Send every reminder due by ``now`` (ISO 8601; default: the service clock), at most
    ``limit`` per batch until none is left; the counts of what happened.

    ``sent``, ``gone`` (dead subscriptions removed), ``failed``, ``played`` (not needed:
    played already, or no streak), ``late`` (its hour passed unsent), ``dropped`` (the
    subscription expired or no longer asks for it).
    """
    config = job_config()
    conn = job_connection(config)
    moment = dt.datetime.fromisoformat(now) if now else config.clock()
    counts: Counter[str] = Counter()
    key = load_vapid_key(config)
    if key is None:
        log.warning("no VAPID key (run `daily keys init`): no reminders sent")
        return {}
    sender = Sender.make(key, config.push_contact or public_base_url(config, from_request=False))
    subs = Subscriptions(conn, config, lambda: moment)
    while True:
        batch = subs.due(moment, limit)
        for player_id, kind, due in batch:
            sub = subs.get(player_id)
            if sub is None or kind not in sub.plan.kinds:
                counts["dropped"] += subs.claim(player_id, kind, due, None)
                continue
            start = dt.datetime.fromtimestamp(due, dt.UTC)
            then = next_due(sub.plan, kind, max(moment, start + WINDOW))
            if not subs.claim(player_id, kind, due, then.timestamp()):
                continue  # another run took it
            if moment >= start + WINDOW:
                counts["late"] += 1
                continue
            item = reminder(kind, sub.plan, start, ranked_dates(
                conn, player_id, prefix=config.key_prefix), moment)
            if item is None:
                counts["played"] += 1
                continue
            outcome = sender.send(sub, item)
            if outcome == "gone":
                subs.delete(player_id, sub.endpoint)
            counts[outcome] += 1
        if len(batch) < limit:
            break
    return dict(counts)
