"""The ceiling jobs: the day's perfect-information ceiling, computed once per day set.

``prepare_day_ceiling(date, ruleset)`` computes it *ahead* of the results path, from
the day seed, for the fair-play check: the rollover enqueues it (job id
``fairplay-ceiling-<date>-<ruleset>`` on the ``days`` queue) for every checked set
(``DAILY_FAIRPLAY_RULESETS``) of the days that are open or open within
:data:`workers.rollover.PREPARE_AHEAD`. It stores ``{"ceiling": N, "seconds": S}`` at
``<prefix>fairplay:ceiling:<date>:<ruleset>`` and the ceiling's table of values for
the foresight test at ``<prefix>fairplay:hindsight:<date>:<ruleset>`` (compressed: 80 kB
for Yahtzee, about 9 MB for Maxi Yatzy), so that no results consumer computes either
again, at any start (:func:`daily.service.review.gates.store_hindsight`); nothing serves
these keys: the value stays secret until the reveal (it is never logged either; the
job's result, kept by RQ in the queues' Redis, carries only the seconds). The results
consumer reads each with one GET (:func:`daily.service.review.gates.ceiling_value`,
:func:`daily.service.review.gates.day_ceiling`). Progress goes to the worker's log, level
by level, for the big programmes (Maxi Yatzy: 10 to 90 s).

``record_day_ceiling(date, ruleset)`` is enqueued by the rollover job once the day is
revealed (job id ``ceiling-<date>-<ruleset>``), next to the par job. It refuses a day
that is not yet revealed and stores the public ``{"ceiling": N, "seconds": S}`` at
``<prefix>ceiling:<date>:<ruleset>`` (shown on the board and the result page): the
prepared value when there is one (computed once), else it computes it.

Both are exact and deterministic, so a rerun changes nothing; an existing value is
returned unchanged. Neither needs a strategy table. Every ruleset is handled: Generala's
served rolls are in the programme; Triple Yahtzee (39 boxes) has no ceiling, so there
is nothing to prepare (``{"seconds": 0.0}``) and its public record is ``{"ceiling":
null, "seconds": 0.0}``. Failures (no keyring, day not revealed) raise, and RQ records
them.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from daily.dice import parse_date
from daily.fairplay.ceiling import Ceiling, ceiling_of_seed
from daily.fairplay.coverage import has_ceiling
from daily.rules import canonical_name, get_ruleset
from daily.service import keymap
from daily.service.config import Config
from daily.service.days.keyring import Keyring
from daily.service.review.gates import (
    INLINE_BOXES,
    prepared_figures,
    store_hindsight,
    store_prepared,
)
from workers.runtime import job_config, job_connection, store_day_figures

log = logging.getLogger(__name__)


def _solve(name: str, seed: bytes, date: str) -> Ceiling:
    rules = get_ruleset(name)
    big = len(rules.boxes) > INLINE_BOXES

    def progress(done: int, levels: int) -> None:
        if done % 5 == 0 or done == levels:
            log.info("ceiling of %s %s: level %d of %d", name, date, done, levels)

    log.info("ceiling of %s %s: computing", name, date)
    found = ceiling_of_seed(rules, seed, progress if big else None)
    log.info("ceiling of %s %s: computed in %.1f s", name, date, found.seconds)
    return found


def prepare_day_ceiling(date: str, ruleset: str) -> dict[str, float]:
    """Compute a day set's ceiling for the results path and keep it secret (idempotent).

    The table of values is kept too, for the consumers' foresight test. Returns
    ``{"seconds": S}`` only (what the computation took, 0 when everything was already
    stored): the value itself never leaves Redis before the reveal.
    """
    config = job_config()
    day = parse_date(date)
    name = canonical_name(ruleset)
    if not has_ceiling(name):
        return {"seconds": 0.0}
    conn = job_connection(config)
    prefix = config.key_prefix
    has_table = conn.exists(keymap.fairplay_hindsight(prefix, day, name))
    if prepared_figures(conn, prefix, day, name) is not None and has_table:
        return {"seconds": 0.0}
    found = _solve(name, Keyring.load(config).day_seed(name, day), day.isoformat())
    store_hindsight(conn, prefix, day, name, found.values)
    store_prepared(conn, prefix, day, name, found.value, found.seconds)
    return {"seconds": round(found.seconds, 3)}


def record_day_ceiling(date: str, ruleset: str, now: str | None = None) -> dict[str, Any]:
    """Store a revealed day's public ceiling (idempotent): the prepared one if any.

    ``now`` (ISO 8601 with a time zone) replaces the clock, for tests.
    """

    def ceiling(config: Config, name: str, seed: bytes) -> dict[str, Any]:
        if not has_ceiling(name):
            return {"ceiling": None, "seconds": 0.0}
        conn = job_connection(config)
        prepared = conn.get(keymap.fairplay_ceiling(config.key_prefix, parse_date(date), name))
        if prepared is not None:
            return dict(json.loads(prepared))
        found = _solve(name, seed, parse_date(date).isoformat())
        return {"ceiling": found.value, "seconds": round(found.seconds, 3)}

    return store_day_figures(keymap.ceiling, date, ruleset, ceiling, now)
