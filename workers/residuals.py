"""The residual job: each player's score of a revealed day set against optimal play.

``record_day_residuals(date, ruleset)`` is enqueued by the rollover job (job id
``residual-<date>-<ruleset>`` on the ``days`` queue) once the ruleset's strategy table
is built, like the par job. It takes the day's par (:func:`workers.par.record_day_par`:
the stored one, else computed and stored the same way) and writes, for every ranked
game of the day set (on the board, or in review whatever its state), its player's
residual: the score minus the hard bot's on the same dice
(:func:`daily.service.review.evidence.record_residuals`; the record across days is
read by the results consumer, :mod:`daily.fairplay.history.residual`). Idempotent: a rerun
writes the same values. Failures raise (RQ records them).
"""

from __future__ import annotations

from typing import Any

from daily.dice import parse_date
from daily.rules import canonical_name
from daily.service.results.leaderboard import Leaderboard
from daily.service.review.evidence import record_residuals
from daily.service.review.queue import ReviewQueue
from workers.par import record_day_par
from workers.runtime import job_config, job_connection


def record_day_residuals(date: str, ruleset: str, now: str | None = None) -> dict[str, Any]:
    """Write the residual of every ranked game of a revealed day set; returns
    ``{"optimal", "players"}``. ``now`` (ISO 8601 with a time zone) replaces the clock."""
    config = job_config()
    conn = job_connection(config)
    day = parse_date(date).isoformat()
    name = canonical_name(ruleset)
    optimal = int(record_day_par(day, name, now)["hard"])
    board = Leaderboard(conn, day, name, prefix=config.key_prefix)
    rows = {entry.player_id: entry.score for entry, _log in board.iter_results()}
    for entry in ReviewQueue(conn, config.key_prefix).entries_of(day, name):
        rows.setdefault(entry.result.player_id, entry.result.total)
    players = record_residuals(conn, config.key_prefix, day, name, rows.items(), optimal)
    return {"optimal": optimal, "players": players}
