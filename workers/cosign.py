"""The jobs that follow a new head: the log's tiles, and the witnesses' cosignatures.

Enqueued after each new head (:func:`daily.service.audit.checkpoints.after_head`)
with RQ retries: while a witness of ``DAILY_WITNESSES`` does not answer, the job fails
and RQ runs it again later, so a witness that is down never blocks the close.
Idempotent: a witness that has cosigned is not asked again.
"""

from __future__ import annotations

from typing import Any

from daily.dice import parse_date
from daily.errors import DailyError
from daily.rules import canonical_name
from daily.service.audit.checkpoints import DayCheckpoints
from daily.service.audit.day_log import DayLog
from daily.service.audit.witnessing import submit_checkpoint
from workers.runtime import job_config, job_connection


class WitnessesPending(DailyError):
    """Some witnesses did not answer: the job is tried again."""


def cosign_checkpoint(date: str, ruleset: str, size: int) -> dict[str, Any]:
    """Submit the checkpoint of ``size`` leaves of (date, ruleset) to the witnesses that
    have not cosigned it; returns ``{"cosigned", "refused"}`` (witness names), raises
    :class:`WitnessesPending` while one does not answer."""
    config = job_config()
    day_log = DayLog(job_connection(config), config, parse_date(date), canonical_name(ruleset))
    done = submit_checkpoint(day_log, int(size))
    if done.pending:
        raise WitnessesPending("; ".join(f"{name}: {why}" for name, why in done.pending.items()),
                               field="witness")
    return {"cosigned": done.cosigned, "refused": done.refused}


def write_tiles(date: str, ruleset: str, size: int) -> str:
    """Write the C2SP tiles of the log of ``size`` leaves of (date, ruleset) and its
    checkpoint beside the archive; returns the folder. Idempotent."""
    config = job_config()
    day_log = DayLog(job_connection(config), config, parse_date(date), canonical_name(ruleset))
    checkpoints = DayCheckpoints(day_log.conn, config, day_log.day, day_log.ruleset)
    lines = (line for chunk in day_log.chunks() for line in chunk.splitlines())
    return str(checkpoints.write_tiles(day_log.tree(int(size)), lines, int(size)))
