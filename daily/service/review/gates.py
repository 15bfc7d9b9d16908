"""The fair-play check of a ranked result, as the results worker runs it.

The check needs the day's ceiling, which only the server can compute (from the day
seed). It is computed *ahead* of the results path: :func:`workers.ceilings.
prepare_day_ceiling`, enqueued by the rollover while the day is upcoming or open,
stores it at ``fairplay:ceiling:<date>:<ruleset>`` (:func:`store_prepared`; secret
until the reveal, never served). The consumer reads it with one GET and keeps it
(:func:`ceiling_value`).

* Ceiling-only rulesets (no strategy table, as Maxi Yatzy's while it is built, or
  ``DAILY_FAIRPLAY_CEILING_ONLY``, none by default): a game that scores the ceiling is held
  (:func:`daily.fairplay.foresight.assess_ceiling_value`). It needs the value and the
  day's slots (derived from the seed in microseconds), nothing else.
* The full foresight test (:func:`daily.fairplay.foresight.assess`) needs the
  ceiling's whole table of values: the job keeps it too
  (``fairplay:hindsight:<date>:<ruleset>``, :func:`store_hindsight`; compressed, 80 kB
  for Yahtzee, about 9 MB for Maxi Yatzy), read with one GET at the first check of a
  process; the process keeps it (:data:`CEILINGS_KEPT` days). So a consumer's start
  computes nothing a job has computed.

When the value is not prepared (the job has not run) or the full table is needed and
not kept, the consumer computes it itself: at once for rulesets of at most :data:`INLINE_BOXES`
boxes (Yahtzee, Yatzy, Yacht: under 2 s), in a background thread for bigger ones (Maxi
Yatzy: 10 to 90 s). Meanwhile :func:`review_gate` answers :data:`DEFERRED` for that
day set's results: the consumer leaves them pending and takes them again a few seconds
later (:mod:`daily.service.results.stream`), so the results of every other day set go
on. A result with no complete move log (not one the API produces) is not checked. When
the check cannot run (no keyring, a log that does not replay on the day's dice) the
game is held with that reason: a gate that fails stays closed, and an operator sees why.

A result on its way into the top of its board, or tied with its last place (a copy of a
top game stands tied), takes the stricter test, then the evidence across games and days
(:func:`top_evidence`): flagged, or a copy of an earlier game of another player, or
linked to a scout, or from a player whose record keeps beating optimal play, it is
*pending* review (off the board until an operator clears it); a result the ordinary
test flags elsewhere is *held*. Every result's reveals are read on the way, and the
scouts' kept for the day set (those that show more than they use, and, once checked,
those that play blind); every checked result's decisions are indexed for the copies.
The close-time re-check (:mod:`daily.service.review.recheck`) runs the same tests again
on the final top.

>>> from daily.service.config import load_config
>>> check_result(None, load_config({}), _no_log_result()) is None
True
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import json
import logging
import os
import threading
import time
import zlib
from collections import OrderedDict
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any

import numpy as np
import redis

from daily.dice import parse_date
from daily.errors import DailyError, LogFormatError
from daily.fairplay.scouting import REROLL_ALL
from daily.movelog import MoveLog
from daily.rules import Ruleset, canonical_name
from daily.service import keymap
from daily.service.config import Config
from daily.service.connections import as_text
from daily.service.days.keyring import Keyring
from daily.service.players.standing import Policy, PublicStanding
from daily.service.results.leaderboard import Leaderboard
from daily.service.results.result import Result
from daily.service.results.stream import DEFERRED
from daily.service.review.background import Background
from daily.service.review.evidence import (
    blind_sightings,
    copied_games,
    copy_evidence,
    evidence_of,
    foresight_evidence,
    foresight_records,
    keep_sightings,
    keep_young,
    record_foresight,
    sightings_of,
)
from daily.service.review.queue import CLEARED, HELD, PENDING, ReviewQueue

if TYPE_CHECKING:  # the compiled engine is imported when a game is first checked
    from daily.fairplay.ceiling import Ceiling
    from daily.fairplay.daykey import DayParams
    from daily.fairplay.foresight import Verdict
    from daily.strategy.solver import StrategyTable

#: Days whose ceiling (and slots) a process keeps in memory (2 MB each for Yahtzee).
CEILINGS_KEPT = 4
#: A game that rerolled every die in this share of its rerolls looks like scouting.
SCOUT_SHARE = REROLL_ALL
#: A network that created this many players in a day is busy.
BUSY_NETWORK = 10
#: The method recorded when the check could not run (the game is held).
UNCHECKED = "unchecked"
#: Rulesets with at most this many boxes have their ceiling computed in line when it is
#: missing (2^13..2^15 box masks: under 2 s); bigger ones (Maxi Yatzy, 20) in a thread.
INLINE_BOXES = 15
#: How much lower the priority of the check's background thread is (``setpriority``).
COMPILE_NICENESS = 10
#: Seconds the prepared ceiling is kept: longer than a day is prepared ahead (12 h) and
#: open (50 h), on the wall clock (a demo clock's days may be minutes long).
PREPARED_KEPT = 4 * 86400

log = logging.getLogger(__name__)

_LOCK = threading.Lock()
_Key = tuple[str, dt.date, str]  # ruleset, date, its non-default options
_CEILINGS: OrderedDict[_Key, Ceiling] = OrderedDict()
_VALUES: OrderedDict[_Key, tuple[int, np.ndarray]] = OrderedDict()
_PARAMS: OrderedDict[_Key, DayParams] = OrderedDict()
_Solved = tuple[int, np.ndarray, "Ceiling | None"]  # value, slots, the whole ceiling if kept
_PENDING: dict[tuple[_Key, bool], Future[_Solved]] = {}
#: (ruleset, date) of the computations in the background thread: their results are
#: deferred at once, without parsing their logs (a backlog is claimed again every few
#: seconds until the ceiling is there).
_WAITING: set[tuple[str, dt.date]] = set()
_BACKGROUND = Background("ceiling")
_OPTIMAL: OrderedDict[_Key, int] = OrderedDict()


class CeilingPending(Exception):
    """The day's ceiling is being computed in the background: check the game later."""


def _key(rules: Ruleset, date: dt.date, config: Config) -> _Key:
    """What a process keeps a day set's secrets under: the ruleset, the date, its options
    and where its keys come from (two configurations with other keys never share them)."""
    keys = hashlib.sha256(repr((config.master_secret_hex, config.master_secret_file,
                                config.keys_dir)).encode()).hexdigest()[:16]
    return rules.name, date, repr(rules.non_default_options()) + " " + keys


def _keep(cache: OrderedDict[_Key, Any], key: _Key, value: Any) -> None:
    with _LOCK:
        cache[key] = value
        cache.move_to_end(key)
        while len(cache) > CEILINGS_KEPT:
            cache.popitem(last=False)


def _kept(cache: OrderedDict[_Key, Any], key: _Key) -> Any:
    with _LOCK:
        hit = cache.get(key)
        if hit is not None:
            cache.move_to_end(key)
        return hit


def store_prepared(conn: redis.Redis, prefix: str, date: dt.date, name: str,
                   value: int, seconds: float) -> dict[str, Any]:
    """Keep a day set's ceiling for the results path (``SET NX``: the first one stays;
    the programme is deterministic, so every computation gives the same value).

    Returns what is stored. The key is secret until the reveal: nothing serves it.
    """
    key = keymap.fairplay_ceiling(prefix, date, name)
    figures = {"ceiling": int(value), "seconds": round(seconds, 3)}
    conn.set(key, json.dumps(figures, sort_keys=True), nx=True, ex=PREPARED_KEPT)
    raw = conn.get(key)
    return dict(json.loads(raw)) if raw is not None else figures


def store_hindsight(conn: redis.Redis, prefix: str, date: dt.date, name: str,
                    values: np.ndarray) -> None:
    """Keep a day set's table of ceiling values for the consumers' foresight test (2 MB,
    80 kB compressed, for Yahtzee; 178 MB, about 9 MB compressed, for Maxi Yatzy).
    Secret like :func:`store_prepared`."""
    blob = zlib.compress(np.ascontiguousarray(values, dtype="<i2").tobytes(), 6)
    conn.set(keymap.fairplay_hindsight(prefix, date, name), blob, nx=True, ex=PREPARED_KEPT)


def prepared_hindsight(conn: redis.Redis, prefix: str, date: dt.date,
                       name: str) -> np.ndarray | None:
    """The table :func:`store_hindsight` kept (None when there is none)."""
    blob = conn.get(keymap.fairplay_hindsight(prefix, date, name))
    if blob is None:
        return None
    if not isinstance(blob, bytes):  # a connection decoding answers cannot read it
        raise TypeError("the prepared ceiling table needs a connection answering bytes")
    return np.frombuffer(zlib.decompress(blob), dtype="<i2").astype(np.int16)


def prepared_figures(conn: redis.Redis, prefix: str, date: dt.date,
                     name: str) -> dict[str, Any] | None:
    """The ceiling computed ahead for a day set, or the public one once it is revealed
    (None when neither exists yet)."""
    for key in (keymap.fairplay_ceiling(prefix, date, name), keymap.ceiling(prefix, date, name)):
        raw = conn.get(key)
        if raw is not None:
            return dict(json.loads(raw))
    return None


def _solve(config: Config, rules: Ruleset, date: dt.date) -> Ceiling:
    from daily.fairplay.ceiling import ceiling_of_seed

    name = rules.name
    log.info("fair-play ceiling of %s %s: computing in the results consumer", name, date)

    def progress(done: int, levels: int) -> None:
        if done % 5 == 0 or done == levels:
            log.info("fair-play ceiling of %s %s: level %d of %d", name, date, done, levels)

    seed = Keyring.load(config).day_seed(name, date)
    ceiling = ceiling_of_seed(rules, seed, progress if len(rules.boxes) > INLINE_BOXES else None)
    log.info("fair-play ceiling of %s %s: computed in %.1f s", name, date, ceiling.seconds)
    return ceiling


def _compute(conn: redis.Redis | None, config: Config, rules: Ruleset, date: dt.date,
             full: bool) -> _Solved:
    """Solve the day's ceiling, share its value (Redis) and keep what is needed (the
    whole table of values only with ``full``: 170 MB for Maxi Yatzy)."""
    ceiling = _solve(config, rules, date)
    key = _key(rules, date, config)
    _keep(_VALUES, key, (ceiling.value, ceiling.slots))
    if conn is not None and not rules.non_default_options():
        store_hindsight(conn, config.key_prefix, date, rules.name, ceiling.values)
        store_prepared(conn, config.key_prefix, date, rules.name, ceiling.value,
                       ceiling.seconds)
    if full:
        _keep(_CEILINGS, key, ceiling)
    return ceiling.value, ceiling.slots, ceiling if full else None


def _solved(conn: redis.Redis | None, config: Config, rules: Ruleset, date: dt.date,
            full: bool) -> _Solved:
    """Solve now (small rulesets) or in the background thread (raises
    :class:`CeilingPending` until it is done; a failure there is raised here)."""
    if len(rules.boxes) <= INLINE_BOXES:
        return _compute(conn, config, rules, date, full)
    job = (_key(rules, date, config), full)
    with _LOCK:
        future = _PENDING.get(job)
        if future is None:
            future = _BACKGROUND.submit(_compute, conn, config, rules, date, full)
            _PENDING[job] = future
            waiting = (rules.name, date)
            _WAITING.add(waiting)
            future.add_done_callback(lambda _f: _WAITING.discard(waiting))
            if full:
                log.warning("the fair-play check of %s %s needs the ceiling's whole table,"
                            " which is not kept: computing it in the background; its results"
                            " wait", rules.name, date)
            else:
                log.warning("the fair-play ceiling of %s %s is not computed yet (its job has"
                            " not run): computing it in the background; its results wait",
                            rules.name, date)
    if not future.done():
        raise CeilingPending(f"the ceiling of {rules.name} {date} is being computed")
    with _LOCK:
        _PENDING.pop(job, None)
    return future.result()  # raises what the computation raised


def ceiling_value(conn: redis.Redis | None, config: Config, rules: Ruleset,
                  date: dt.date) -> tuple[int, np.ndarray]:
    """The ceiling's value and the day's slot matrix: kept, else one GET of the prepared
    value (the slots come from the seed), else computed (see :func:`_solved`)."""
    from daily.fairplay.ceiling import slots_of_seed

    key = _key(rules, date, config)
    hit = _kept(_VALUES, key)
    if hit is not None:
        return hit
    figures = (prepared_figures(conn, config.key_prefix, date, rules.name)
               if conn is not None and not rules.non_default_options() else None)
    if figures is None:
        value, slots, _ = _solved(conn, config, rules, date, full=False)
        return value, slots
    slots = slots_of_seed(rules, Keyring.load(config).day_seed(rules.name, date))
    found = (int(figures["ceiling"]), slots)
    _keep(_VALUES, key, found)
    return found


def _from_prepared(conn: redis.Redis, config: Config, rules: Ruleset,
                   date: dt.date) -> Ceiling | None:
    """The ceiling rebuilt from its prepared table (one GET), or None."""
    from daily.fairplay.ceiling import Ceiling, slots_of_seed
    from daily.strategy.spec import GameSpec

    values = prepared_hindsight(conn, config.key_prefix, date, rules.name)
    if values is None:
        return None
    spec = GameSpec.from_rules(rules)
    if values.shape != (spec.n_states,):
        log.error("the prepared ceiling table of %s %s has %d values, expected %d: ignored",
                  rules.name, date, values.size, spec.n_states)
        return None
    slots = slots_of_seed(rules, Keyring.load(config).day_seed(rules.name, date))
    return Ceiling(spec, slots, values)


def day_ceiling(conn: redis.Redis | None, config: Config, rules: Ruleset,
                date: dt.date) -> Ceiling:
    """The ceiling of a day set with its table of values (computed once per process)."""
    hit = _kept(_CEILINGS, _key(rules, date, config))
    if hit is not None:
        return hit
    if conn is not None and not rules.non_default_options():
        found = _from_prepared(conn, config, rules, date)
        if found is not None:
            _keep(_CEILINGS, _key(rules, date, config), found)
            return found
    ceiling = _solved(conn, config, rules, date, full=True)[2]
    assert ceiling is not None  # full=True keeps it
    return ceiling


def warm_up(config: Config) -> Future[None] | None:
    """Import the check's engine and compile its kernels (numba: seconds from its cache,
    a minute on a fresh clone's first start) in the background thread, so that the
    consumer's loop starts at once and the first results find the engine ready; nothing
    when no ruleset is checked. Returns the future of the compilation.

    >>> from daily.service.config import load_config
    >>> warm_up(load_config({}).with_overrides(fairplay_rulesets=())) is None
    True
    """
    if not config.fairplay_rulesets:
        return None
    import daily.fairplay.foresight
    import daily.strategy.tables.lookup  # noqa: F401

    return _BACKGROUND.submit(compile_check)


def compile_check() -> None:
    """Run the fair-play check once on the smallest game (Yacht in forced order), which
    compiles (or loads from numba's cache) every kernel a check uses."""
    from daily.fairplay.ceiling import ceiling_of_seed
    from daily.fairplay.foresight import assess
    from daily.rules import get_ruleset
    from daily.strategy.solver import solve

    started = time.monotonic()
    # This thread (the background one: the compilation, then the ceilings it computes)
    # runs at a lower priority than the consumer's loop and the web server, which a first
    # start begins at the same time (Linux: a thread's own nice value).
    with contextlib.suppress(OSError, AttributeError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), COMPILE_NICENESS)
    rules = get_ruleset("yacht", {"forced_order": True})
    ceiling = ceiling_of_seed(rules, bytes(32))
    assess(ceiling.perfect_log(seed=bytes(32)), ceiling, solve(rules))
    log.info("fair-play check engine ready in %.1f s", time.monotonic() - started)


def day_params(config: Config, rules: Ruleset, date: dt.date) -> DayParams:
    """The day set's secret parameters of the check (:mod:`daily.fairplay.daykey`),
    derived once per process from the master secret. Never logged or served before the
    reveal."""
    from daily.fairplay.daykey import DayParams

    key = _key(rules, date, config)
    hit = _kept(_PARAMS, key)
    if hit is None:
        hit = DayParams.from_key(Keyring.load(config).fairplay_key(rules.name, date),
                                  rules.name)
        _keep(_PARAMS, key, hit)
    return hit


def _table(config: Config, rules: Ruleset) -> StrategyTable | None:
    """The strategy table the check of ``rules`` uses (Triple Yahtzee: its columns'),
    or None when it is not built."""
    from daily.strategy.spec import StrategyError
    from daily.strategy.tables.lookup import get_table

    if len(rules.weights) > 1:
        from daily.strategy.triple import column_rules

        rules = column_rules(rules)
    try:
        return get_table(rules, config.tables_dir)
    except StrategyError:
        return None


def _log_of(result: Result) -> MoveLog | None:
    if not result.log:
        return None
    log = MoveLog.from_text(result.log)
    if not log.complete:
        return None
    if log.day is not None and log.day != result.date:
        raise LogFormatError(f"the log is of {log.day}, the result of {result.date}",
                             field="log")
    return log


def check_result(conn: redis.Redis | None, config: Config, result: Result) -> Verdict | None:
    """The verdict on a ranked result, or None when it has no complete log or its
    ruleset is not checked (``DAILY_FAIRPLAY_RULESETS``).

    The ordinary test, on the day's secret line. Raises :class:`CeilingPending` while
    the day's ceiling (or Triple Yahtzee's column table) is computed in the background.
    """
    return _check(conn, config, result, strict=False)


def strict_check(conn: redis.Redis | None, config: Config, result: Result) -> Verdict | None:
    """The stricter test of a ranked result on its way into the top of its board
    (:func:`daily.fairplay.strict.strict_assess`, on the day's secret parameters).

    None when the result has no complete log or its ruleset is not checked. Raises
    :class:`CeilingPending` while the day's ceiling (or Triple Yahtzee's column table)
    is computed in the background (ask again later), and a :class:`DailyError` when the
    test cannot run (no keyring, a log that does not replay: hold the game, with that
    reason). Without the ruleset's strategy table (Maxi Yatzy's while it is built, or a
    set of ``DAILY_FAIRPLAY_CEILING_ONLY``) it is the ordinary check, ceiling-only.
    """
    return _check(conn, config, result, strict=True)


def _check(
    conn: redis.Redis | None, config: Config, result: Result, *, strict: bool
) -> Verdict | None:
    """:func:`check_result` or, with ``strict``, :func:`strict_check`."""
    game = _log_of(result)
    if game is None:
        return None
    rules = game.rules
    if rules.name not in config.fairplay_rulesets:
        return None
    params = day_params(config, rules, result.date)
    if len(rules.weights) > 1:
        from daily.fairplay.columns import assess_columns

        return assess_columns(game, _day_slots(config, rules, result.date),
                              _column_table(config, rules), params, strict=strict,
                              game_id=result.game_id)
    from daily.fairplay.foresight import assess, assess_ceiling_value
    from daily.fairplay.strict import strict_assess

    table = None if rules.name in config.fairplay_ceiling_only else _table(config, rules)
    if table is None:  # not built yet (Maxi Yatzy's, in the background): what can run
        if strict and rules.name not in _NO_TABLE_WARNED:
            _NO_TABLE_WARNED.add(rules.name)
            log.warning("the stricter fair-play check of %s needs its strategy table, not"
                        " built: its top games are checked for the ceiling only", rules.name)
        value, slots = ceiling_value(conn, config, rules, result.date)
        # The total is the server's, computed when the game finished: no replay needed.
        return assess_ceiling_value(game, value, slots, total=result.total)
    ceiling = day_ceiling(conn, config, rules, result.date)
    if strict:
        return strict_assess(game, ceiling, table, params, result.game_id)
    return assess(game, ceiling, table, params)


def _day_slots(config: Config, rules: Ruleset, date: dt.date) -> np.ndarray:
    from daily.fairplay.ceiling import slots_of_seed

    return slots_of_seed(rules, Keyring.load(config).day_seed(rules.name, date))


_COLUMN_TABLE: dict[str, Future[StrategyTable]] = {}
_NO_TABLE_WARNED: set[str] = set()


def _column_table(config: Config, rules: Ruleset) -> StrategyTable:
    """Triple Yahtzee's column table: the built one, else solved once in the background
    thread (about 20 s; :class:`CeilingPending` meanwhile)."""
    found = _table(config, rules)
    if found is not None:
        return found
    from daily.strategy.solver import solve
    from daily.strategy.triple import column_rules

    wanted = column_rules(rules)
    with _LOCK:
        future = _COLUMN_TABLE.get(repr(wanted.non_default_options()))
        if future is None:
            log.warning("the column table of %s is not built: solving it in the background;"
                        " its results wait", rules.name)
            future = _BACKGROUND.submit(solve, wanted)
            _COLUMN_TABLE[repr(wanted.non_default_options())] = future
    if not future.done():
        raise CeilingPending(f"the column table of {rules.name} is being solved")
    return future.result()


def review_gate(conn: redis.Redis, config: Config, result: Result) -> str | None:
    """Run the check for a result on its way to the board; None lets it through.

    Returns ``"pending"`` (a game on its way into the top of its board that the stricter
    test flagged: pending review, shown there once an operator clears it), ``"held"``
    (flagged by the ordinary test, now or earlier, waiting for an operator),
    ``"disqualified"``, or :data:`DEFERRED` (its day's ceiling is being computed: the
    consumer leaves it pending and asks again later); a game an operator cleared goes
    through without a new check.
    """
    return review_gates(conn, config, [result])[0]


def review_gates(
    conn: redis.Redis, config: Config, results: list[Result]
) -> list[str | None]:
    """:func:`review_gate` for a batch of results, with a handful of pipelined round
    trips for the whole batch (the review index; the players' networks; the board's
    review statistics) instead of five per result."""
    queue = ReviewQueue(conn, config.key_prefix, config.clock)
    out: list[str | None] = [None] * len(results)
    todo = [i for i, r in enumerate(results) if (r.ruleset, r.date) not in _WAITING]
    for i in set(range(len(results))) - set(todo):
        out[i] = DEFERRED
    if not todo:
        return out
    with conn.pipeline(transaction=False) as pipe:
        for i in todo:
            pipe.hget(queue.index_key, results[i].game_id)
        indexed = pipe.execute()
    checked: list[tuple[int, Verdict]] = []
    standing = PublicStanding(conn, config.key_prefix, Policy.from_config(config))
    now = config.clock()
    tops = dict(zip(todo, reaches_top(conn, config.key_prefix, [results[i] for i in todo],
                                      standing, now), strict=True))
    fresh = [i for i, where in zip(todo, indexed, strict=True) if where is None]
    sightings = sightings_of(conn, config.key_prefix, [results[i] for i in fresh])
    keep_sightings(conn, config.key_prefix, sightings)
    scouts = {result.game_id: sighting.kind for result, sighting in sightings}
    for i, where in zip(todo, indexed, strict=True):
        result = results[i]
        entry = queue.entry(result.game_id) if where is not None else None
        if entry is not None:
            out[i] = None if entry.state == CLEARED else entry.state
            continue
        try:
            verdict = (strict_check if tops[i] else check_result)(conn, config, result)
        except CeilingPending:
            out[i] = DEFERRED
            continue
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
    # Split scouts are seen once checked: kept before the evidence, so that a game of the
    # same batch that follows one is linked to it.
    blind = blind_sightings(conn, config.key_prefix, [
        (results[i], verdict.expected_loss or 0.0, verdict.decisions) for i, verdict in checked
        if verdict.expected_loss is not None])
    keep_sightings(conn, config.key_prefix, blind)
    blind_ids = {result.game_id for result, _ in blind}
    copies = dict(zip([i for i, _ in checked],
                      copied_games(conn, config.key_prefix, [results[i] for i, _ in checked]),
                      strict=True))
    # The young players' games are kept for the links, and every game's foresight goes
    # into its player's record, before the evidence: a game counts in its own record.
    young = _provisional(standing, [results[i] for i, _ in checked], now)
    keep_young(conn, config.key_prefix, [results[i] for i, _ in checked], young)
    recorded = [(i, verdict) for i, verdict in checked if verdict.method.startswith("foresight")]
    record_foresight(conn, config.key_prefix,
                     [(results[i], verdict.statistic) for i, verdict in recorded])
    raised = [(i, verdict) for i, verdict in checked if tops[i] and not verdict.flagged]
    evidence = dict(zip([i for i, _ in raised],
                        top_evidence(conn, config, [results[i] for i, _ in raised],
                                     [copies[i] for i, _ in raised],
                                     [verdict.to_json() for _, verdict in raised]),
                        strict=True))
    below = [i for i, verdict in recorded if not tops[i] and not verdict.flagged]
    records = foresight_records(conn, config.key_prefix, [results[i].player_id for i in below])
    for i, values in zip(below, records, strict=True):  # the record holds below the top too
        found = foresight_evidence(values)
        if found is not None:
            evidence[i] = found
    queue.note_signals_many([
        (results[i].date.isoformat(), results[i].ruleset, results[i].game_id, {
            "scout_like": verdict.scouting >= SCOUT_SHARE,
            "reveal_unused": scouts.get(results[i].game_id) == "reveals_unused",
            "busy_network": network is not None and network >= BUSY_NETWORK,
            "scout_linked": (evidence.get(i) or {}).get("reason_code") == "scout_link",
            "plays_blind": results[i].game_id in blind_ids,
            "copied": (evidence.get(i) or {}).get("reason_code") == "copy",
        })
        for (i, verdict), network in zip(checked, networks, strict=True)
    ])
    for (i, verdict), network in zip(checked, networks, strict=True):
        found = evidence.get(i)
        if verdict.flagged or found is not None:
            state = PENDING if tops[i] else HELD
            queue.hold(results[i], {**verdict.to_json(), "network_new_players": network,
                                    **(found or {})}, state)
            out[i] = state
    return out


def optimal_total(config: Config, rules: Ruleset, date: dt.date) -> int | None:
    """The score of optimal play (the hard bot) on the day's dice, computed once per
    process from the day seed (secret while the day is open: never served); None without
    the ruleset's strategy table (and for Triple Yahtzee, which has no hard bot)."""
    key = _key(rules, date, config)
    hit = _kept(_OPTIMAL, key)
    if hit is not None:
        return int(hit)
    if len(rules.weights) > 1 or rules.name in config.fairplay_ceiling_only:
        return None
    table = _table(config, rules)
    if table is None:
        return None
    from daily.game import Game
    from daily.strategy.bots import Bot

    seed = Keyring.load(config).day_seed(rules.name, date)
    total = Bot(table, "hard").play(Game.from_seed(rules, seed)).card.total
    _keep(_OPTIMAL, key, total)
    return total


def _provisional(standing: PublicStanding, results: list[Result],
                 now: dt.datetime) -> dict[str, bool]:
    """Whether each result's player is provisional (by game id; one round trip a board)."""
    boards: dict[tuple[str, str], list[Result]] = {}
    for r in results:
        boards.setdefault((r.date.isoformat(), canonical_name(r.ruleset)), []).append(r)
    out: dict[str, bool] = {}
    for (date, name), rows in boards.items():
        found = standing.of_games(date, name, [(r.game_id, r.player_id) for r in rows], now)
        out.update({g: s.provisional for g, s in found.items()})
    return out


def top_evidence(conn: redis.Redis, config: Config, results: list[Result],
                 copies: list[list[dict[str, Any]]],
                 verdicts: list[dict[str, Any] | None] | None = None,
                 ) -> list[dict[str, Any] | None]:
    """The evidence that makes each result at the top of its board pending review
    (``{"reason_code", "reason", ...}``), or None: a copy (``copies``, from
    :func:`daily.service.review.evidence.copied_games`) of an earlier game of another
    player, for a game that scores at least optimal play on the day's dice (below it a
    copy gains nothing, and honest players who follow one plain policy play alike), else
    the evidence across games and days (:func:`daily.service.review.evidence.evidence_of`;
    ``verdicts``: each result's verdict as JSON, whose tells name the dice it profited
    from). Shared by the results consumer and the close-time re-check."""
    standing = PublicStanding(conn, config.key_prefix, Policy.from_config(config))
    provisional = _provisional(standing, results, config.clock())
    out = evidence_of(conn, config.key_prefix, results,
                      list(verdicts) if verdicts is not None else None,
                      [provisional.get(r.game_id, False) for r in results])
    for k, (result, found) in enumerate(zip(results, copies, strict=True)):
        if not found:
            continue
        optimal = optimal_total(config, MoveLog.from_text(result.log).rules, result.date)
        if optimal is not None and result.total >= optimal:
            out[k] = {**copy_evidence(found), "optimal": optimal}
    return out


def top_size(players: int) -> int:
    """How many games the top of a board of ``players`` holds: 100, or the top 1% where
    that is fewer (at least 1).

    >>> top_size(50_000), top_size(2_000), top_size(10)
    (100, 20, 1)
    """
    return max(1, min(100, players // 100))


def reaches_top(conn: redis.Redis, prefix: str, results: list[Result],
                standing: PublicStanding, now: dt.datetime) -> list[bool]:
    """Whether each result would enter the public top of its board as it stands, or tie
    with its last place: those pass the stricter test (:func:`strict_check`) and the
    evidence (:func:`top_evidence`) first.

    The public top is the one the board answers and the close-time re-check reads
    (:meth:`daily.service.players.standing.PublicStanding.public_top`: provisional games
    and those without a passkey left out, unless nothing stands); it holds
    :func:`top_size` of the board's games. A result whose player does not stand enters
    it only while nothing stands (a new deployment's top shows every game, marked), and
    a result whose player stands always enters a top where nothing else does; a game
    that comes to stand by the close is re-checked then. One read of each board's
    public top per batch, and one of the results' standing."""
    boards: dict[tuple[dt.date, str], list[Result]] = {}
    for r in results:
        boards.setdefault((r.date, canonical_name(r.ruleset)), []).append(r)
    lines: dict[tuple[dt.date, str], tuple[int | None, bool]] = {}
    stands: dict[str, bool] = {}
    for (date, name), rows in boards.items():
        board = Leaderboard(conn, date, name, prefix=prefix)
        size = top_size(int(conn.zcard(board.key("rank"))) + 1)
        top = standing.public_top(board, size, now)
        entries = top.entries
        lines[(date, name)] = (entries[size - 1].score if len(entries) >= size else None,
                               top.open or not entries)
        found = standing.of_games(date, name, [(r.game_id, r.player_id) for r in rows], now)
        stands.update({g: s.eligible for g, s in found.items()})
    out = []
    for r in results:
        last, open_top = lines[(r.date, canonical_name(r.ruleset))]
        own = stands.get(r.game_id, True)
        if open_top:  # nothing stands: a game that does is the top, one that does not shows
            out.append(own or last is None or r.total >= last)
        else:
            out.append(own and (last is None or r.total >= last))
    return out


def _networks(conn: redis.Redis, prefix: str, player_ids: list[str]) -> list[int | None]:
    """:func:`daily.service.players.creation.players_from_network` of many players, in two
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
    """The ceiling the ceiling job stored for a revealed day (None until it ran, and for
    a ruleset without one)."""
    raw = conn.get(keymap.ceiling(prefix, parse_date(date), canonical_name(ruleset)))
    value = json.loads(raw).get("ceiling") if raw is not None else None
    return int(value) if value is not None else None  # Triple Yahtzee has none


def _no_log_result() -> Result:
    return Result("g_1", "p_1", "", dt.date(2026, 11, 29), "yahtzee", 1, 1.0, "", "")
