"""Ranked at once, checked once the engine is ready: the results consumer's gate.

The fair-play check (:func:`daily.service.review.gates.review_gates`) runs on the
engine's compiled kernels (numba). A consumer starts compiling them in its background
thread (:func:`daily.service.review.gates.warm_up`): about a second from numba's cache,
but a minute or more on a fresh clone's first start on a busy machine, and the first
game of that start must not wait for it. :func:`start` begins the compilation, and
:func:`gate` is the consumer's gate:

* once the engine is ready, every batch takes the check before its board, as
  :mod:`daily.service.review.gates` describes. Without ``daily worker results
  --rank-first`` (which ``daily serve`` passes), and with ``--burst`` (it ends when the
  streams are empty), a batch waits for the engine;
* with ``--rank-first``, a batch waits for it up to :data:`ENGINE_WAIT` seconds (a warm
  start's engine is usually ready by then); when it is still not ready, the results of a
  checked ruleset that are not in review already are **ranked at once** (the board, the
  player's rank and statistics) and their check is **postponed**: each is first written
  to ``review:postponed`` and to its board's ``unchecked`` set (one pipelined round trip
  per batch). A game of that set never stands on the public top, not even under the
  new-deployment exemption (:mod:`daily.service.players.standing`): a game reaches the top
  only checked.

A thread of the consumer (:func:`check_postponed`, every :data:`CHECK_EVERY` seconds
once its engine is ready) runs the same check, :func:`review_gates`, on the postponed
games that are on their board: a game it holds (pending review for a game of the top,
held otherwise) is taken off the board, as the close-time re-check does (its player's
statistics keep it); a game that passes leaves the set and stands where the rule puts
it. A game postponed by a consumer that died is checked by the next one that is ready;
one that never reached its board (refused there) is forgotten after
:data:`FORGET_AFTER` seconds.

Redis keys (``P`` = prefix): ``P review:postponed`` HASH (game id -> JSON ``{"result",
"at"}``) and ``P lb:{D:R}:unchecked`` SET (see :mod:`daily.service.keymap`).

>>> engine_ready()  # no consumer started in this process: nothing to wait for
True
"""

from __future__ import annotations

import json
import logging
import threading
import time
from concurrent.futures import Future

import redis

from daily.rules import canonical_name
from daily.service import keymap
from daily.service.config import Config
from daily.service.connections import as_text
from daily.service.results.leaderboard import Leaderboard
from daily.service.results.result import Result, ResultError
from daily.service.results.stream import DEFERRED
from daily.service.review.gates import review_gates, warm_up

#: Seconds a batch waits for the engine before its check is postponed (a warm start's
#: engine is ready within them: its checks run before the board as ever).
ENGINE_WAIT = 0.5
#: Seconds between two passes over the postponed games.
CHECK_EVERY = 1.0
#: A postponed game not on its board after this many seconds (its board refused it) is
#: forgotten.
FORGET_AFTER = 120.0

log = logging.getLogger(__name__)

_warm: Future[None] | None = None
_wait = ENGINE_WAIT
_told = False


def unchecked_key(prefix: str, result: Result) -> str:
    """The set of a board's games whose check is postponed."""
    return keymap.board(prefix, result.date, canonical_name(result.ruleset), "unchecked")


def start(conn: redis.Redis, config: Config, *, postpone: bool = True) -> Future[None] | None:
    """Begin compiling the check's engine in the background (:func:`warm_up`) and start
    the thread that checks the postponed games; returns the compilation's future (None
    when no ruleset is checked). With ``postpone`` False (``--burst``) every batch waits
    for the engine instead."""
    global _warm, _wait
    _warm = warm_up(config)
    _wait = ENGINE_WAIT if postpone else float("inf")
    if _warm is not None and postpone:
        threading.Thread(target=_check_loop, args=(conn, config), name="postponed-checks",
                         daemon=True).start()
    return _warm


def engine_ready(wait: float = 0.0) -> bool:
    """Whether the check's engine is compiled (or failed to: the check then holds the
    game with the reason), waiting for it up to ``wait`` seconds."""
    warm = _warm
    if warm is None or warm.done():
        return True
    if wait <= 0:
        return False
    try:
        warm.result(timeout=None if wait == float("inf") else wait)
    except TimeoutError:
        return False
    except Exception:  # the check raises it again, and holds the game
        return True
    return True


def gate(conn: redis.Redis, config: Config, results: list[Result]) -> list[str | None]:
    """The consumer's gate (see the module text): :func:`review_gates` once the engine
    is ready; before, the checked results not in review are ranked now (None) and their
    check is postponed."""
    if not results or engine_ready(_wait):
        return review_gates(conn, config, results)
    indexed = conn.hmget(keymap.review_index(config.key_prefix),
                         [r.game_id for r in results])
    later = [i for i, (r, where) in enumerate(zip(results, indexed, strict=True))
             if where is None and canonical_name(r.ruleset) in config.fairplay_rulesets]
    postpone(conn, config.key_prefix, [results[i] for i in later])
    rest = [i for i in range(len(results)) if i not in set(later)]
    out: list[str | None] = [None] * len(results)
    for i, verdict in zip(rest, review_gates(conn, config, [results[i] for i in rest])
                          if rest else [], strict=True):
        out[i] = verdict
    return out


def postpone(conn: redis.Redis, prefix: str, results: list[Result]) -> None:
    """Write the results' postponed checks (before their board: one round trip)."""
    global _told
    if not results:
        return
    now = time.time()
    with conn.pipeline(transaction=False) as pipe:
        for r in results:
            pipe.hset(keymap.review_postponed(prefix), r.game_id,
                      json.dumps({"result": r.dumps(), "at": now}))
            pipe.sadd(unchecked_key(prefix, r), r.game_id)
        pipe.execute()
    if not _told:
        _told = True
        log.warning("the fair-play check's engine is still compiling (a first start):"
                    " results are ranked at once and checked once it is ready; until then"
                    " they stay off the public top")


def check_postponed(conn: redis.Redis, config: Config) -> dict[str, int]:
    """One pass over the postponed games (see the module text); returns ``{"passed",
    "held", "waiting", "forgotten"}``."""
    key = keymap.review_postponed(config.key_prefix)
    found: list[tuple[str, Result, float]] = []
    broken: list[str] = []
    for game_id, raw in conn.hgetall(key).items():
        try:
            obj = json.loads(raw)
            found.append((as_text(game_id), Result.from_json(json.loads(obj["result"])),
                          float(obj["at"])))
        except (ValueError, KeyError, TypeError, ResultError):
            broken.append(as_text(game_id))
    if broken:
        conn.hdel(key, *broken)
    counts = {"passed": 0, "held": 0, "waiting": 0, "forgotten": 0}
    if not found:
        return counts
    with conn.pipeline(transaction=False) as pipe:
        for _id, r, _at in found:
            pipe.zscore(keymap.board(config.key_prefix, r.date, canonical_name(r.ruleset),
                                     "rank"), r.game_id)
        on_board = pipe.execute()
    ready = [r for (_id, r, _at), score in zip(found, on_board, strict=True)
             if score is not None]
    done: list[Result] = []
    for (_id, r, at), score in zip(found, on_board, strict=True):
        if score is None:
            if time.time() - at > FORGET_AFTER:
                done.append(r)
                counts["forgotten"] += 1
            else:
                counts["waiting"] += 1
    for r, verdict in zip(ready, review_gates(conn, config, ready) if ready else [],
                          strict=True):
        if verdict == DEFERRED:  # its day's ceiling is being computed: the next pass
            counts["waiting"] += 1
            continue
        if verdict is not None:
            Leaderboard(conn, r.date, r.ruleset, prefix=config.key_prefix).remove(r.game_id)
            log.warning("the postponed fair-play check of game %s of %s %s: %s, taken off"
                        " the board", r.game_id, r.date, r.ruleset, verdict)
            counts["held"] += 1
        else:
            counts["passed"] += 1
        done.append(r)
    if done:
        with conn.pipeline(transaction=False) as pipe:
            pipe.hdel(key, *[r.game_id for r in done])
            for r in done:
                pipe.srem(unchecked_key(config.key_prefix, r), r.game_id)
            pipe.execute()
    return counts


def _check_loop(conn: redis.Redis, config: Config) -> None:
    """The consumer's thread: :func:`check_postponed` every :data:`CHECK_EVERY` seconds
    once the engine is ready, while there is anything postponed."""
    while True:
        time.sleep(CHECK_EVERY)
        if not engine_ready():
            continue
        try:
            if conn.hlen(keymap.review_postponed(config.key_prefix)):
                counts = check_postponed(conn, config)
                if counts["passed"] or counts["held"]:
                    log.info("postponed fair-play checks: %s", counts)
        except redis.RedisError as exc:  # the consumer's loop reports a lost Redis
            log.debug("postponed fair-play checks: %s", exc)
        except Exception:  # one bad pass must not end the thread
            log.exception("postponed fair-play checks failed; trying again")
