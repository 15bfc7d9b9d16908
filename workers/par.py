"""The par job: the three bots play a revealed day's dice; their totals are stored.

``record_day_par(date, ruleset)`` is enqueued by the rollover job (job id
``par-<date>-<ruleset>`` on the ``days`` queue). It refuses a day that is not yet
revealed, loads the ruleset's strategy table from ``<data>/tables`` (built with
``daily strategy build RULESET``), plays easy, medium and hard on the day's slot dice
and stores ``{"easy": .., "medium": .., "hard": ..}`` as JSON (Triple Yahtzee: the
greedy and lookahead players as easy and hard, with ``"heuristic": true``) at ``<prefix>par:<date>:
<ruleset>``. The bots are deterministic (the medium bot is seeded by the day seed), so
a rerun computes the same figures; an existing value is returned unchanged. Failures
(no keyring, no table, day not revealed) raise, and RQ records them. The key is
:func:`daily.service.keymap.par`.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from daily import calendar
from daily.dice import parse_date
from daily.errors import StateError
from daily.rules import canonical_name, get_ruleset
from daily.service import keymap
from daily.service.days.keyring import Keyring
from daily.strategy.bots import play_bots
from daily.strategy.tables.lookup import get_table
from daily.strategy.triple import column_rules, play_triple_bots
from workers.runtime import job_config, job_connection


def record_day_par(date: str, ruleset: str, now: str | None = None) -> dict[str, Any]:
    """Play the bots on a revealed day's dice and store their totals (idempotent).

    ``now`` (ISO 8601 with a time zone) replaces the clock, for tests.
    """
    config = job_config()
    conn = job_connection(config)
    day = parse_date(date)
    name = canonical_name(ruleset)
    key = keymap.par(config.key_prefix, day, name)
    stored = conn.get(key)
    if stored is not None:
        return dict(json.loads(stored))
    instant = dt.datetime.fromisoformat(now) if now else config.clock()
    if calendar.status(day, instant) != "revealed":
        raise StateError(f"the day {day} of {name} is not revealed yet", field="date")
    seed = Keyring.load(config).day_seed(name, day)
    rules = get_ruleset(name)
    if len(rules.weights) > 1:  # Triple Yahtzee: the heuristic players, no medium
        par: dict[str, Any] = play_triple_bots(get_table(column_rules(rules), config.tables_dir),
                                               rules, seed)
    else:
        par = play_bots(get_table(rules, config.tables_dir), seed)
    conn.set(key, json.dumps(par, sort_keys=True), nx=True)
    return dict(json.loads(conn.get(key) or json.dumps(par)))
