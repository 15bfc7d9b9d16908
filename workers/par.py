"""The par job: the three bots play a revealed day's dice; their totals are stored.

``record_day_par(date, ruleset)`` is enqueued by the rollover job (job id
``par-<date>-<ruleset>`` on the ``days`` queue). It refuses a day that is not yet
revealed, loads the ruleset's strategy table from ``<data>/tables`` (built with
``daily strategy build RULESET``), plays easy, medium and hard on the day's slot dice
and stores ``{"easy": .., "medium": .., "hard": ..}`` as JSON at ``<prefix>par:<date>:
<ruleset>``. The bots are deterministic (the medium bot is seeded by the day seed), so
a rerun computes the same figures; an existing value is returned unchanged. Failures
(no keyring, no table, day not revealed) raise, and RQ records them. The key is
:func:`daily.service.keymap.par`.
"""

from __future__ import annotations

from typing import Any

from daily.rules import get_ruleset
from daily.service import keymap
from daily.service.config import Config
from daily.strategy.bots import play_bots
from daily.strategy.store import get_table
from workers.context import store_day_figures


def record_day_par(date: str, ruleset: str, now: str | None = None) -> dict[str, Any]:
    """Play the bots on a revealed day's dice and store their totals (idempotent).

    ``now`` (ISO 8601 with a time zone) replaces the clock, for tests.
    """

    def bots(config: Config, name: str, seed: bytes) -> dict[str, Any]:
        return dict(play_bots(get_table(get_ruleset(name), config.tables_dir), seed))

    return store_day_figures(keymap.par, date, ruleset, bots, now)
