"""The rollover job: close the books of every day whose window has closed.

For every daily ruleset and every date of the last :data:`LOOKBACK_DAYS` days whose
window closed at least :data:`GRACE_SECONDS` ago (``daily.calendar.closes_at``; the
grace covers finishing requests still in flight at the close), in order:

0. wait for the day's results: while any result of the date is still in the results
   streams (:meth:`daily.service.results.stream.ResultStream.unapplied` > 0, say after
   an outage of the results consumers), nothing of the date is done and the run
   reports ``{"date", "ruleset", "waiting": n}``; the next run (every minute) looks
   again. A game finished while its day was open therefore always counts;
1. re-check the final top (:func:`daily.service.review.recheck.recheck_top`): the
   games that stand on the top ``DAILY_RECHECK_TOP`` places take the stricter test and
   the evidence again, whatever their arrival; a game whose verdict changes is taken
   off the board and held pending review (the sealed log records the decision);
   then freeze the board (no later result can arrive: the API refuses moves after the
   close; one that did would be kept in ``results:{rN}:rejected``, not lost);
2. compute and store the final statistics (players, mean, median, best, histogram);
3. archive the day's verified results to ``<data>/archive/<date>/<ruleset>.jsonl``
   (atomic write, see :mod:`daily.service.results.archive`); the move logs then expire from
   Redis after :data:`LOGS_KEPT_SECONDS` (the board itself stays);
4. enqueue ``workers.par.record_day_par(date, ruleset)`` on the ``days`` queue with
   job id ``par-<date>-<ruleset>``, if the module ``workers.par`` exists (and
   ``DAILY_PAR_JOBS`` is not ``off``), once the ruleset's strategy table is built:
   until then the step waits for a later run.
5. write the day's fair-play review entries next to the archive
   (:func:`daily.service.review.queue.write_review_archive`) and enqueue
   ``workers.ceilings.record_day_ceiling(date, ruleset)`` (job id
   ``ceiling-<date>-<ruleset>``; needs no strategy table);
6. enqueue ``workers.residuals.record_day_residuals(date, ruleset)`` (job id
   ``residual-<date>-<ruleset>``): each player's score against optimal play on the
   day's dice, for the record across days; like par, once the table is built;
7. seal the day's results log and sign its head (:func:`workers.seal.seal_day`, run
   here: :mod:`daily.service.audit.day_log`). Without a results key the step waits
   for a later run (a warning in the log says why).

Every run also prepares the fair-play ceilings ahead of the results path: for every day
that is open, or opens within :data:`PREPARE_AHEAD`, and each of its sets checked for
fair play (``DAILY_FAIRPLAY_RULESETS``) whose ceiling is not stored yet, it enqueues
``workers.ceilings.prepare_day_ceiling(date, ruleset)`` (job id
``fairplay-ceiling-<date>-<ruleset>``, so a job already queued, running, or failed is
not enqueued twice). A day's ceiling is therefore ready hours before it opens; if the
job has not run (no ``days`` worker, or it failed), the results consumer computes it
itself (:mod:`daily.service.review.gates`).

Each step is recorded in the hash ``P lb:{D:R}:rolled`` once done, so a rerun (or a
run after a crash between steps) only does what is missing: the job is idempotent.

Two schedulers, or two workers, cannot run it at the same time: the job holds the
Redis lock ``P lock:rollover`` (redis-py ``Lock``: SET NX with expiry, released with
a token check) and returns ``{"skipped": ...}`` when another run holds it. The expiry
(:data:`LOCK_SECONDS`) frees the lock if a worker dies while holding it.

Run the ``days`` queue on worker hosts that share the archive directory (or on one
host): the archive is a local file.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import logging
from collections.abc import Callable
from typing import Any

import redis
from rq import Queue, Retry
from rq.exceptions import DuplicateJobError

from daily import calendar
from daily.fairplay.coverage import has_ceiling
from daily.rules import get_ruleset
from daily.service import keymap
from daily.service.audit.day_log import DayLog
from daily.service.config import Config, ConfigError
from daily.service.connections import DAYS_QUEUE, as_text
from daily.service.days.keyring import Keyring
from daily.service.results.archive import write_archive
from daily.service.results.leaderboard import Leaderboard
from daily.service.results.stream import ResultStream
from daily.service.review.gates import INLINE_BOXES
from daily.service.review.queue import ReviewQueue, write_review_archive
from daily.service.review.recheck import recheck_top
from daily.strategy.tables.status import table_ready
from workers.runtime import job_config, job_connection, job_queue_connection

log = logging.getLogger(__name__)

LOOKBACK_DAYS = 7
GRACE_SECONDS = int(calendar.GRACE.total_seconds())
LOCK_SECONDS = 900
#: Move logs stay in Redis this long after the archive was written.
LOGS_KEPT_SECONDS = 7 * 24 * 3600
PAR_FUNC = "workers.par.record_day_par"
CEILING_FUNC = "workers.ceilings.record_day_ceiling"
RESIDUAL_FUNC = "workers.residuals.record_day_residuals"
PREPARE_FUNC = "workers.ceilings.prepare_day_ceiling"
#: The fair-play ceiling of a day is prepared from this long before the day opens.
PREPARE_AHEAD = dt.timedelta(hours=12)
#: The jobs a revealed day gets: (rollover step and job id prefix, function).
DAY_JOBS = (("par", PAR_FUNC), ("ceiling", CEILING_FUNC), ("residual", RESIDUAL_FUNC))
#: The day jobs that need the ruleset's strategy table (they wait for it).
TABLE_JOBS = ("par", "residual")


def day_job_id(kind: str, date: dt.date, ruleset: str) -> str:
    """The job id of one of a day's jobs.

    >>> day_job_id("ceiling", dt.date(2026, 11, 29), "yahtzee")
    'ceiling-2026-11-29-yahtzee'
    """
    return f"{kind}-{date.isoformat()}-{ruleset}"


def par_job_id(date: dt.date, ruleset: str) -> str:
    """The job id of a day's par job.

    >>> par_job_id(dt.date(2026, 11, 29), "yahtzee")
    'par-2026-11-29-yahtzee'
    """
    return day_job_id("par", date, ruleset)


def due_days(
    now: dt.datetime, rulesets: tuple[str, ...] | Callable[[dt.date], tuple[str, ...]]
) -> list[tuple[dt.date, str]]:
    """The (date, ruleset) pairs whose window closed more than the grace period ago.

    ``rulesets`` are the sets of every day, or a function giving a date's sets (the
    weekly special is not played every day).

    >>> now = dt.datetime(2026, 11, 30, 12, 4, tzinfo=dt.UTC)  # the 29th closed at 12:00
    >>> [(d.isoformat(), r) for d, r in due_days(now, ("yahtzee",))][-1]
    ('2026-11-28', 'yahtzee')
    >>> later = now + dt.timedelta(minutes=2)
    >>> [(d.isoformat(), r) for d, r in due_days(later, ("yahtzee",))][-1]
    ('2026-11-29', 'yahtzee')
    """
    grace = dt.timedelta(seconds=GRACE_SECONDS)
    latest = calendar.last_revealed(now)
    out: list[tuple[dt.date, str]] = []
    for back in range(LOOKBACK_DAYS - 1, -1, -1):
        day = latest - dt.timedelta(days=back)
        if calendar.closes_at(day) + grace <= now:
            names = rulesets(day) if callable(rulesets) else rulesets
            out.extend((day, ruleset) for ruleset in names)
    return out


def par_table_ready(config: Config, ruleset: str) -> bool:
    """Whether the par job of ``ruleset`` can run: its strategy table is built.

    Until then the par step stays undone and a later rollover enqueues it: par waits
    for its table (``daily serve`` builds the missing ones) instead of failing.
    """
    return table_ready(get_ruleset(ruleset), config.tables_dir)


def prepare_days(now: dt.datetime) -> list[dt.date]:
    """The days whose fair-play ceiling should be ready: open, or opening within
    :data:`PREPARE_AHEAD`.

    >>> now = dt.datetime(2026, 11, 29, 23, 0, tzinfo=dt.UTC)
    >>> [d.isoformat() for d in prepare_days(now)]
    ['2026-11-29', '2026-11-30', '2026-12-01']
    """
    utc_day = now.date()
    out = []
    for k in range(-2, 4):
        day = utc_day + dt.timedelta(days=k)
        state = calendar.status(day, now)
        if state == "open" or (state == "upcoming" and calendar.opens_at(day) - now
                               <= PREPARE_AHEAD):
            out.append(day)
    return out


def prepare_ceilings(conn: redis.Redis, config: Config, now: dt.datetime) -> list[str]:
    """Enqueue the preparation of the fair-play ceilings still missing; returns the
    job ids enqueued by this run."""
    enqueued = []
    for day in prepare_days(now):
        for ruleset in config.rulesets_on(day):
            if ruleset not in config.fairplay_rulesets or not has_ceiling(ruleset):
                continue  # not checked, or checked without a ceiling (Triple Yahtzee)
            if conn.exists(keymap.fairplay_ceiling(config.key_prefix, day, ruleset)):
                continue
            big = len(get_ruleset(ruleset).boxes) > INLINE_BOXES
            job_id = day_job_id("fairplay-ceiling", day, ruleset)
            try:
                Queue(DAYS_QUEUE, connection=job_queue_connection(config)).enqueue_call(
                    PREPARE_FUNC, args=(day.isoformat(), ruleset), job_id=job_id,
                    unique=True, timeout=3600 if big else 600, retry=Retry(max=2),
                )
            except DuplicateJobError:
                continue  # queued, running, or failed (see the failed job registry)
            enqueued.append(job_id)
    return enqueued


def roll_day(
    conn: redis.Redis, config: Config, day: dt.date, ruleset: str, now: dt.datetime
) -> dict[str, Any]:
    """Freeze, final stats, archive and par for one (date, ruleset); returns steps done."""
    board = Leaderboard(conn, day, ruleset, prefix=config.key_prefix)
    marks_key = board.key("rolled")
    marks = {as_text(k): as_text(v) for k, v in conn.hgetall(marks_key).items()}
    done: list[str] = []
    if "frozen" not in marks:
        waiting = ResultStream(conn, prefix=config.key_prefix).unapplied(day)
        if waiting:
            return {"date": day.isoformat(), "ruleset": ruleset, "done": done, "waiting": waiting}
        if "rechecked" not in marks:
            rechecked = recheck_top(conn, config, day, ruleset)
            conn.hset(marks_key, "rechecked", json.dumps(rechecked, sort_keys=True))
            done.append("rechecked")
        board.freeze(now.timestamp())
        conn.hset(marks_key, "frozen", repr(now.timestamp()))
        done.append("frozen")
    if "stats" not in marks:
        board.store_final_stats(board.compute_final_stats())
        conn.hset(marks_key, "stats", "1")
        done.append("stats")
    if "archived" not in marks:
        summary = write_archive(board, config.archive_dir)
        # The archive now holds the move logs: free their memory after a safety week.
        conn.expire(board.key("logs"), LOGS_KEPT_SECONDS)
        conn.hset(marks_key, "archived", str(summary.path))
        done.append("archived")
    if "review" not in marks:
        write_review_archive(ReviewQueue(conn, config.key_prefix), day.isoformat(), ruleset,
                             config.archive_dir)
        conn.hset(marks_key, "review", "1")
        done.append("review")
    if "sealed" not in marks:
        try:
            keyring = Keyring.load(config)
            keyring.results_signer()
        except ConfigError as exc:  # KeyringError: names a file, never a secret
            log.warning("the results log of %s %s waits for the keys: %s", day, ruleset, exc)
        else:
            sealed = DayLog(conn, config, day, ruleset).seal(keyring, now)
            conn.hset(marks_key, "sealed", str(sealed["size"]))
            done.append("sealed")
    for step, func in DAY_JOBS:
        if step in marks or not config.par_jobs:
            continue
        if step in TABLE_JOBS and not par_table_ready(config, ruleset):
            continue  # waits for a later run, once the table is built
        job_id = day_job_id(step, day, ruleset)
        # DuplicateJobError: enqueued by an earlier run that died before marking it.
        with contextlib.suppress(DuplicateJobError):
            Queue(DAYS_QUEUE, connection=job_queue_connection(config)).enqueue_call(
                func,
                args=(day.isoformat(), ruleset),
                job_id=job_id,
                unique=True,
                timeout=3600,
                retry=Retry(max=2),
            )
        conn.hset(marks_key, step, job_id)
        done.append(step)
    return {"date": day.isoformat(), "ruleset": ruleset, "done": done}


def rollover(now: str | None = None) -> dict[str, Any]:
    """Roll over every closed day not yet rolled over. Idempotent; one run at a time.

    ``now`` (ISO 8601 with a time zone) replaces the clock, for tests and replays.
    Returns ``{"days": [{"date", "ruleset", "done": [steps]}...]}`` listing only days
    where something was done or that wait for results (``"waiting": n`` unapplied
    results), with ``"prepared": [job ids]`` when fair-play ceiling jobs were enqueued
    (not with ``DAILY_PAR_JOBS=off``), or ``{"skipped": reason}``.
    """
    config = job_config()
    conn = job_connection(config)
    instant = dt.datetime.fromisoformat(now) if now else config.clock()
    if instant.tzinfo is None:
        raise ValueError(f"now={now!r} has no time zone")
    lock = conn.lock(
        keymap.lock(config.key_prefix, "rollover"), timeout=LOCK_SECONDS, blocking=False
    )
    if not lock.acquire():
        return {"skipped": "another rollover holds the lock"}
    try:
        rolled = []
        for day, ruleset in due_days(instant, config.rulesets_on):
            outcome = roll_day(conn, config, day, ruleset, instant)
            if outcome["done"] or outcome.get("waiting"):
                rolled.append(outcome)
        prepared = prepare_ceilings(conn, config, instant) if config.par_jobs else []
        return {"days": rolled, **({"prepared": prepared} if prepared else {})}
    finally:
        lock.release()
