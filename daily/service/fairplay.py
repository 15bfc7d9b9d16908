"""The fair-play check of a ranked result, as the results worker runs it.

The day's ceiling is computed from the day seed (which only the server holds) once
per process and kept for the next games of the same day (:data:`CEILINGS_KEPT` days
at a time). With the ruleset's strategy table the full foresight test runs
(:func:`daily.fairplay.foresight.assess`); without it, only a game that scores the
ceiling is held (:func:`daily.fairplay.foresight.assess_ceiling_only`). A result with
no complete move log (not one the API produces) is not checked. When the check cannot
run (no keyring, a log that does not replay on the day's dice) the game is held with
that reason: a gate that fails stays closed, and an operator sees why.

>>> from daily.service.config import load_config
>>> check_result(load_config({}), _no_log_result()) is None
True
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import threading
from collections import OrderedDict
from typing import TYPE_CHECKING

import redis

from daily.dice import parse_date
from daily.errors import DailyError
from daily.movelog import MoveLog
from daily.rules import Ruleset, canonical_name
from daily.service import keymap
from daily.service.config import Config
from daily.service.keys import Keyring
from daily.service.leaderboard import Result, as_text
from daily.service.review import CLEARED, HELD, ReviewQueue

if TYPE_CHECKING:  # the compiled engine is imported when a game is first checked
    from daily.fairplay.ceiling import Ceiling
    from daily.fairplay.foresight import Verdict

#: Days whose ceiling a process keeps in memory (2 MB each for Yahtzee).
CEILINGS_KEPT = 4
#: A game that rerolled every die in this share of its rerolls looks like scouting.
SCOUT_SHARE = 0.9
#: A network that created this many players in a day is busy.
BUSY_NETWORK = 10
#: The method recorded when the check could not run (the game is held).
UNCHECKED = "unchecked"

log = logging.getLogger(__name__)

_LOCK = threading.Lock()
_CEILINGS: OrderedDict[tuple[str, dt.date, str], Ceiling] = OrderedDict()


def day_ceiling(config: Config, rules: Ruleset, date: dt.date) -> Ceiling:
    """The ceiling of a day set (computed once per process, then kept)."""
    key = (rules.name, date, repr(rules.non_default_options()))
    with _LOCK:
        hit = _CEILINGS.get(key)
        if hit is not None:
            _CEILINGS.move_to_end(key)
            return hit
    from daily.fairplay.ceiling import ceiling_of_seed

    ceiling = ceiling_of_seed(rules, Keyring.load(config).day_seed(rules.name, date))
    with _LOCK:
        _CEILINGS[key] = ceiling
        while len(_CEILINGS) > CEILINGS_KEPT:
            _CEILINGS.popitem(last=False)
    return ceiling


def check_result(config: Config, result: Result) -> Verdict | None:
    """The verdict on a ranked result, or None when it has no complete log or its
    ruleset is not checked (``DAILY_FAIRPLAY_RULESETS``)."""
    if not result.log:
        return None
    log = MoveLog.from_text(result.log)
    if not log.complete:
        return None
    rules = log.rules
    if rules.name not in config.fairplay_rulesets:
        return None
    from daily.fairplay.foresight import assess, assess_ceiling_only
    from daily.strategy.spec import StrategyError
    from daily.strategy.store import get_table

    ceiling = day_ceiling(config, rules, result.date)
    try:
        table = get_table(rules, config.tables_dir)
    except StrategyError:
        return assess_ceiling_only(log, ceiling)
    return assess(log, ceiling, table)


def review_gate(conn: redis.Redis, config: Config, result: Result) -> str | None:
    """Run the check for a result on its way to the board; None lets it through.

    Returns ``"held"`` (flagged now or earlier, waiting for an operator) or
    ``"disqualified"``; a game an operator cleared goes through without a new check.
    """
    return review_gates(conn, config, [result])[0]


def review_gates(
    conn: redis.Redis, config: Config, results: list[Result]
) -> list[str | None]:
    """:func:`review_gate` for a batch of results, with a handful of pipelined round
    trips for the whole batch (the review index; the players' networks; the board's
    review statistics) instead of five per result."""
    queue = ReviewQueue(conn, config.key_prefix)
    out: list[str | None] = [None] * len(results)
    with conn.pipeline(transaction=False) as pipe:
        for result in results:
            pipe.hget(queue.index_key, result.game_id)
        indexed = pipe.execute()
    checked: list[tuple[int, Verdict]] = []
    for i, (result, where) in enumerate(zip(results, indexed, strict=True)):
        entry = queue.entry(result.game_id) if where is not None else None
        if entry is not None:
            out[i] = None if entry.state == CLEARED else entry.state
            continue
        try:
            verdict = check_result(config, result)
        except DailyError as exc:  # no keyring, a log that does not replay: an operator looks
            log.error("fair-play check of game %s could not run: %s", result.game_id, exc)
            queue.hold(result, {
                "method": UNCHECKED, "flagged": True, "total": result.total,
                "reason": f"the fair-play check could not run ({exc})",
            })
            out[i] = HELD
            continue
        if verdict is not None:
            checked.append((i, verdict))
    if not checked:
        return out
    networks = _networks(conn, config.key_prefix, [results[i].player_id for i, _ in checked])
    queue.note_signals_many([
        (results[i].date.isoformat(), results[i].ruleset, results[i].game_id,
         verdict.scouting >= SCOUT_SHARE, network is not None and network >= BUSY_NETWORK)
        for (i, verdict), network in zip(checked, networks, strict=True)
    ])
    for (i, verdict), network in zip(checked, networks, strict=True):
        if verdict.flagged:
            queue.hold(results[i], {**verdict.to_json(), "network_new_players": network})
            out[i] = HELD
    return out


def _networks(conn: redis.Redis, prefix: str, player_ids: list[str]) -> list[int | None]:
    """:func:`daily.service.creation.players_from_network` of many players, in two
    pipelined round trips."""
    with conn.pipeline(transaction=False) as pipe:
        for player_id in player_ids:
            pipe.get(keymap.player_origin(prefix, player_id))
        origins = pipe.execute()
    wanted = [i for i, origin in enumerate(origins) if origin is not None]
    with conn.pipeline(transaction=False) as pipe:
        for i in wanted:
            day, net = as_text(origins[i]).split(" ")
            pipe.get(keymap.network_count(prefix, day, net))
        counts = pipe.execute() if wanted else []
    out: list[int | None] = [None] * len(player_ids)
    for i, count in zip(wanted, counts, strict=True):
        out[i] = int(count) if count is not None else None
    return out


def day_ceiling_value(
    conn: redis.Redis, prefix: str, date: str | dt.date, ruleset: str
) -> int | None:
    """The ceiling the ceiling job stored for a revealed day (None until it ran)."""
    raw = conn.get(keymap.ceiling(prefix, parse_date(date), canonical_name(ruleset)))
    return int(json.loads(raw)["ceiling"]) if raw is not None else None


def _no_log_result() -> Result:
    return Result("g_1", "p_1", "", dt.date(2026, 11, 29), "yahtzee", 1, 1.0, "", "")
