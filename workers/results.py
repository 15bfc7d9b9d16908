"""The results job: a finished ranked game onto its leaderboard and player statistics.

The API enqueues one job per finished ranked game (prepared by
:func:`daily.service.resultjobs.prepare_result_job`, which names this module's
:func:`record_result` by its path; tools use :func:`enqueue_result`) (job id
``result-<game_id>``, queue ``results``, retried on failure). The job has two steps,
each idempotent on its own:

1. :meth:`daily.service.leaderboard.Leaderboard.record` (one Lua script: all or
   nothing; a game id already on the board changes nothing);
2. :func:`daily.service.stats.record_game` (one Lua script, keyed by game id).

What a crash does
-----------------
If the worker dies mid-job (SIGKILL, OOM, machine lost), RQ finds the job in the
queue's StartedJobRegistry once its heartbeat has expired (job monitoring interval
30 s + 60 s, so about 90 s after death) during a worker's maintenance (every worker
runs it at start-up, then every ``--maintenance-interval``, 10 minutes by default), and
treats it as *abandoned*: with retries left it is put back on the queue, otherwise it
moves to the FailedJobRegistry. :func:`enqueue_result` gives every job
:data:`RETRIES` retries, so it runs again; because both steps are idempotent, the
second run completes whatever the first did not and counts nothing twice. A job that
fails for good stays in the FailedJobRegistry (``rq requeue --queue results --all``).

Test hook: when ``DAILY_TEST_PAUSE_DIR`` names a directory, the job writes
``<dir>/<game_id>`` after step 1 and waits (up to 60 s) until that file is removed, so
a test can kill the worker between the steps. Unset in production.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import redis
from rq import Queue
from rq.job import Job

from daily.service.connections import RESULTS_QUEUE
from daily.service.leaderboard import Leaderboard, Result
from daily.service.resultjobs import RETRIES, job_id, prepare_result_job
from daily.service.stats import record_game
from workers.context import job_config, job_connection


def enqueue_result(conn: redis.Redis, result: dict[str, Any]) -> Job:
    """Check ``result`` and enqueue :func:`record_result` for it (id ``result-<game_id>``).

    Enqueuing the same game twice is harmless: the job is idempotent.
    """
    [job] = Queue(RESULTS_QUEUE, connection=conn).enqueue_many([prepare_result_job(result)])
    return job


def _pause_for_tests(game_id: str) -> None:
    pause_dir = os.environ.get("DAILY_TEST_PAUSE_DIR")
    if not pause_dir:
        return
    marker = Path(pause_dir) / game_id
    partial = marker.with_suffix(".partial")
    partial.write_text(str(os.getpid()))
    partial.replace(marker)  # the marker appears with its content, never empty
    deadline = time.monotonic() + 60
    while marker.exists() and time.monotonic() < deadline:
        time.sleep(0.05)


def record_result(result: dict[str, Any]) -> dict[str, Any]:
    """Record a finished ranked game; returns what happened. Idempotent.

    ``result`` is ``{"game_id", "player_id", "player_name", "date", "ruleset",
    "total", "finished_at", "code", "log"}`` (see
    :class:`daily.service.leaderboard.Result`). Returns ``{"game_id", "board":
    "recorded" | "already_recorded", "stats": "recorded" | "already_recorded"}``.
    Raises on a bad result, a frozen board or a Redis failure.
    """
    parsed = Result.from_json(result)
    config = job_config()
    conn = job_connection(config)
    board = Leaderboard(conn, parsed.date, parsed.ruleset, prefix=config.key_prefix)
    board_outcome = board.record(parsed)
    _pause_for_tests(parsed.game_id)
    counted = record_game(conn, parsed, prefix=config.key_prefix)
    return {
        "game_id": parsed.game_id,
        "board": board_outcome,
        "stats": "recorded" if counted else "already_recorded",
    }


__all__ = ["RETRIES", "enqueue_result", "job_id", "record_result"]
