"""The results job as the service enqueues it, named by its dotted path.

The service never imports :mod:`workers`: it names the job function
(:data:`RECORD_RESULT`), and the workers import this module. A job is checked here
(:class:`daily.service.leaderboard.Result`) before anything is enqueued, has the id
``result-<game id>`` and is retried :data:`RETRIES` times.

>>> job_id("g_7K3M9Q")
'result-g_7K3M9Q'
"""

from __future__ import annotations

from typing import Any

from rq import Queue, Retry
from rq.queue import EnqueueData

from daily.service.leaderboard import Result

#: The job function, run by a worker.
RECORD_RESULT = "workers.results.record_result"
#: Retries of a failed or abandoned results job.
RETRIES = 3
#: A results job takes milliseconds; anything this long is stuck.
JOB_TIMEOUT = 60
#: Keep failed jobs a month for an operator to look at and requeue.
FAILURE_TTL = 30 * 24 * 3600
#: Keep the return value a day.
RESULT_TTL = 24 * 3600


def job_id(game_id: str) -> str:
    """The job id of a game's results job."""
    return f"result-{game_id}"


def prepare_result_job(result: dict[str, Any]) -> EnqueueData:
    """The checked job that records ``result`` (id ``result-<game_id>``, retried).

    Bad results raise :class:`daily.service.leaderboard.ResultError` here, before
    anything is enqueued. The API enqueues it in the transaction that finishes a game.
    """
    parsed = Result.from_json(result)
    return Queue.prepare_data(
        RECORD_RESULT,
        args=(parsed.to_json(),),
        job_id=job_id(parsed.game_id),
        timeout=JOB_TIMEOUT,
        result_ttl=RESULT_TTL,
        failure_ttl=FAILURE_TTL,
        retry=Retry(max=RETRIES),
        description=f"record {parsed.ruleset} {parsed.date} game {parsed.game_id}",
    )
