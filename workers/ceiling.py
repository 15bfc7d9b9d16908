"""The ceiling job: the day's perfect-information ceiling, computed once it is revealed.

``record_day_ceiling(date, ruleset)`` is enqueued by the rollover job (job id
``ceiling-<date>-<ruleset>`` on the ``days`` queue), next to the par job. It refuses a
day that is not yet revealed, computes :func:`daily.fairplay.ceiling.ceiling_of_seed`
from the day seed and stores ``{"ceiling": N, "seconds": S}`` as JSON at
``<prefix>ceiling:<date>:<ruleset>``. The ceiling is exact and deterministic, so a
rerun changes nothing; an existing value is returned unchanged. Needs no strategy
table. Failures (no keyring, day not revealed) raise, and RQ records them.
"""

from __future__ import annotations

from typing import Any

from daily.fairplay.ceiling import ceiling_of_seed
from daily.rules import get_ruleset
from daily.service import keymap
from daily.service.config import Config
from workers.context import store_day_figures


def record_day_ceiling(date: str, ruleset: str, now: str | None = None) -> dict[str, Any]:
    """Compute and store a revealed day's ceiling (idempotent).

    ``now`` (ISO 8601 with a time zone) replaces the clock, for tests.
    """

    def ceiling(config: Config, name: str, seed: bytes) -> dict[str, Any]:
        found = ceiling_of_seed(get_ruleset(name), seed)
        return {"ceiling": found.value, "seconds": round(found.seconds, 3)}

    return store_day_figures(keymap.ceiling, date, ruleset, ceiling, now)
