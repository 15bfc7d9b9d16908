"""The close-time re-check: the games that stand on the final public top, checked again.

The checks of the results consumer (:mod:`daily.service.review.gates`) run once, when a
game arrives, on the board as it stood then. A game that arrived below the top and was
pushed up by later removals, a tie (a copy of a top game stands tied), or a game whose
evidence grew after it arrived (a scout seen later, a record written by the residual
job of an earlier day) stands on the final top without the tests of the top. So before
a day set's board freezes (:mod:`workers.rollover`, the step ``rechecked``), once every
result of the day is applied, :func:`recheck_top` runs the stricter test (with the
audit's draw, :func:`daily.service.review.gates.strict_check`) and the evidence
(copies, scout links, the record: :func:`daily.service.review.gates.top_evidence`)
again on every game that stands on the top :attr:`Config.recheck_top` places
(``DAILY_RECHECK_TOP``, 10 by default; ties with the last place included).

A game whose verdict changes is taken off the board and held *pending* review (its
entry says ``"recheck": "close"``); the games it uncovers are checked in turn, until
every game on the top has been re-checked. The sealed results log then records each
decision (:meth:`daily.service.audit.day_log.DayLog.games`: the review's decision of
every game in review). A game whose re-check fails (an error, or its ceiling not ready
within :data:`CEILING_WAIT` seconds) is held pending too, with the reason in the
service's log and in its entry: the close is never blocked by one game.

Idempotent: each game re-checked is written to ``lb:{D:R}:rechecked`` (game id -> its
outcome) after its decision, so a rerun (or a run after a crash) checks only the games
not done yet; a game left held but still on the board by a crash is taken off.

The top is the public top as the board answers it (:mod:`daily.service.players.standing`),
so a game that stands there because provisional games above it are left out is checked.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import time
from collections.abc import Sequence
from typing import Any

import redis

from daily.rules import canonical_name
from daily.service import keymap
from daily.service.config import Config
from daily.service.connections import as_text
from daily.service.players.standing import Policy, PublicStanding
from daily.service.results.leaderboard import Leaderboard
from daily.service.results.result import Result
from daily.service.review.evidence import copied_games
from daily.service.review.gates import UNCHECKED, CeilingPending, strict_check, top_evidence
from daily.service.review.queue import CLEARED, PENDING, ReviewQueue

#: Seconds the re-check waits for a day's ceiling being computed in the background
#: (Maxi Yatzy's takes 10 to 90 s when it was not prepared) before holding the game.
CEILING_WAIT = 300.0
#: What the verdict of a game held by the re-check says.
RECHECK = "close"

log = logging.getLogger(__name__)


def standing_ids(rows: Sequence[tuple[str, int]], places: int) -> list[str]:
    """The games that stand on the top ``places`` of a public top read best first (game
    id, total): the first ``places``, and those tied with the last of them.

    >>> standing_ids([("g_1", 250), ("g_2", 250), ("g_3", 240)], 1)
    ['g_1', 'g_2']
    """
    if places <= 0 or not rows:
        return []
    last = rows[min(places, len(rows)) - 1][1]
    return [game_id for game_id, total in rows if total >= last]


def _standing(board: Leaderboard, places: int, standing: PublicStanding,
              now: dt.datetime) -> list[str]:
    """The games on the board's public top of ``places`` now, as the board answers it
    (:class:`daily.service.players.standing.PublicStanding`: provisional players' games
    and those of players without a passkey left out, unless nothing stands), and the
    games tied with its last place."""
    limit = max(places, 1)
    while True:
        rows = [(e.game_id, e.score) for e in standing.public_top(board, limit, now).entries]
        if len(rows) < limit or rows[-1][1] < rows[min(places, len(rows)) - 1][1]:
            return standing_ids(rows, places)
        limit *= 2  # the last row read ties the last place: read further


def _strict(conn: redis.Redis, config: Config, result: Result) -> Any:
    """:func:`strict_check`, waiting up to :data:`CEILING_WAIT` for a ceiling computed in
    the background."""
    deadline = time.monotonic() + CEILING_WAIT
    while True:
        try:
            return strict_check(conn, config, result)
        except CeilingPending:
            if time.monotonic() >= deadline:
                raise
            time.sleep(1.0)


def _verdict_of(conn: redis.Redis, config: Config, result: Result) -> dict[str, Any] | None:
    """The re-check of one game: the verdict and evidence that hold it, or None."""
    verdict = _strict(conn, config, result)
    if verdict is None:  # no complete log, or a ruleset not checked: nothing to test
        return None
    if verdict.flagged:
        return verdict.to_json()
    found = top_evidence(conn, config, [result],
                         copied_games(conn, config.key_prefix, [result]),
                         [verdict.to_json()])[0]
    return {**verdict.to_json(), **found} if found is not None else None


def _recheck(conn: redis.Redis, config: Config, queue: ReviewQueue, board: Leaderboard,
             game_id: str) -> dict[str, Any]:
    """Re-check one game on the top; returns its outcome."""
    entry = queue.entry(game_id)
    if entry is not None and entry.state == CLEARED:
        return {"outcome": "cleared"}  # an operator looked: no new check
    result = board.result_of(game_id)
    if entry is not None:  # held by a run that died before taking it off the board
        board.remove(game_id)
        return {"outcome": entry.state, "reason_code": entry.reason_code}
    if result is None:
        return {"outcome": "gone"}
    try:
        held = _verdict_of(conn, config, result)
    except redis.RedisError:
        raise  # the store itself: the whole step fails and the next run retries it
    except Exception as exc:  # one game's failure never blocks the close
        log.error("the close-time re-check of game %s could not run: %s", game_id, exc)
        held = {"method": UNCHECKED, "flagged": True, "total": result.total,
                "reason": f"the close-time re-check could not run ({exc})"}
    if held is None:
        return {"outcome": "passed"}
    queue.hold(result, {**held, "recheck": RECHECK}, PENDING)
    board.remove(game_id)
    code = queue.decision(game_id).reason
    log.warning("the close-time re-check holds game %s of %s %s (%s)", game_id,
                result.date, result.ruleset, code)
    return {"outcome": PENDING, "reason_code": code}


def recheck_top(conn: redis.Redis, config: Config, day: dt.date,
                ruleset: str) -> dict[str, Any]:
    """Re-check the games that stand on the final top of a day set's board (see the
    module text); call it once every result of the day is applied, before the board
    freezes. Returns ``{"checked": n, "held": [game ids]}`` for this run (a rerun
    checks nothing again)."""
    name = canonical_name(ruleset)
    if config.recheck_top <= 0 or name not in config.fairplay_rulesets:
        return {"checked": 0, "held": []}
    board = Leaderboard(conn, day, name, prefix=config.key_prefix)
    queue = ReviewQueue(conn, config.key_prefix)
    key = keymap.board(config.key_prefix, day, name, "rechecked")
    done = {as_text(k) for k in conn.hkeys(key)}
    standing = PublicStanding(conn, config.key_prefix, Policy.from_config(config))
    now = config.clock()
    checked, held = 0, []
    while True:
        todo = [g for g in _standing(board, config.recheck_top, standing, now)
                if g not in done]
        if not todo:
            break
        for game_id in todo:
            outcome = _recheck(conn, config, queue, board, game_id)
            conn.hset(key, game_id, json.dumps(outcome, sort_keys=True))
            done.add(game_id)
            checked += 1
            if outcome["outcome"] == PENDING:
                held.append(game_id)
    return {"checked": checked, "held": held}
