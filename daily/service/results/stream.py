"""Finished ranked games on their way to the boards: Redis Streams and a consumer group.

The finish (:mod:`daily.service.games`) calls :meth:`ResultStream.append` inside the
transaction that stores the finished game, so a finished game and its pending result
exist together or not at all. ``daily worker results`` runs :class:`ResultConsumer`,
which reads the streams through the consumer group :data:`GROUP` in batches and
records each result with one pipelined script call.

One atomic, idempotent unit per result
--------------------------------------
:data:`_APPLY` is one Lua script per result: the board entry
(:data:`daily.service.results.leaderboard.BOARD_LUA`), the player's statistics
(:data:`daily.service.results.stats.STATS_LUA`), the acknowledgement (XACK), the deletion of
the entry from the stream (XDEL: the stream holds only results not yet applied) and
the day's count of unapplied results, all or nothing. Applying an entry twice changes
nothing (the board knows the game id, the statistics row is HSETNX, XACK answers 0 the
second time). A result the board refuses (the player has another game on it, or the
board was frozen: see below) is kept in ``results:{rN}:rejected`` with the reason and
acknowledged: never lost, never retried for ever.

Delivery is at least once
-------------------------
A consumer killed mid-batch leaves the entries it read and did not apply in the
group's pending list. Every consumer runs XAUTOCLAIM every :data:`CLAIM_EVERY` seconds
and takes over entries idle for :data:`CLAIM_IDLE_MS` (5 s), so another consumer (or
the same one restarted) applies them within seconds.

The same mechanism defers a result: when the gate (the fair-play check,
:func:`daily.service.review.gates.review_gate`) answers :data:`DEFERRED` (its day's
ceiling is still being computed), the entry is neither applied nor acknowledged; it
stays pending and a claim takes it again once idle, while the other entries of the
batch, and of every other day set, are applied as usual.

The close of a day waits for its results
----------------------------------------
``results:{rN}:open`` counts, per date, the results appended and not yet applied (the
finish adds one, the apply script takes it away). The rollover
(:mod:`workers.rollover`) freezes a day's boards only once :meth:`ResultStream.unapplied`
is 0 for that date, so a game finished while its day was open always counts, whatever
the backlog or outage at the close.

Shards and cluster hash tags
----------------------------
Results are spread over :data:`daily.service.shards.SHARDS` streams by the game id
(:func:`daily.service.shards.shard_of`). A stream's keys share the hash tag ``{rN}``
with the games that finish into it, so on a Redis Cluster the finish transaction, the
stream, its counter and its rejects stay in one slot. On a cluster the consumer applies
a batch in three pipelined rounds (boards, statistics, acknowledgements: each in its
own slot), each idempotent, acknowledging last; on one server one script does all.

Redis keys (``P`` = the configured key prefix, ``{rN}`` = the shard's hash tag)::

    P results:{rN}           STREAM  results not yet applied; field ``r`` = Result.dumps()
    P results:{rN}:open      HASH    date -> number of that date's results not yet applied
    P results:{rN}:rejected  HASH    game id -> JSON {"reason", "result"} (refused results)

>>> shard_of("g_7k3m9q"), stream_key("dd:", 3), open_key("dd:", 3)
(0, 'dd:results:{r3.40}', 'dd:results:{r3.40}:open')
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import os
import socket
import time
import zlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import redis
from redis.cluster import ClusterNode, RedisCluster

from daily.service import keymap
from daily.service.connections import as_text
from daily.service.results.leaderboard import (
    BOARD_LUA,
    BOARD_RECORD,
    Leaderboard,
)
from daily.service.results.result import Result, ResultError
from daily.service.results.stats import STATS_LUA, STATS_RECORD
from daily.service.results.stats import record_args as stats_args
from daily.service.results.stats import record_keys as stats_keys
from daily.service.shards import SHARDS, shard_of

#: The consumer group of the board writers.
GROUP = "boards"
#: Entries read per stream and call.
BATCH = 256
#: After a batch smaller than that, ``daily worker results`` waits this long before
#: reading again, so that the next batch gathers what arrived meanwhile: a batch pays
#: its round trips (the fair-play gate, the pipelined scripts) once, whatever its size.
LINGER_MS = 10
#: A pending entry idle this long belongs to a consumer presumed dead and is claimed.
CLAIM_IDLE_MS = 5000
#: Seconds between two claim rounds of a consumer.
CLAIM_EVERY = 1.0
#: On a cluster (no blocking read across slots) an idle consumer polls this often.
CLUSTER_POLL_MS = 10
#: Seconds between attempts to reach Redis again after it dropped (the last one repeats).
RECONNECT_WAITS = (0.2, 0.5, 1.0, 2.0, 5.0)
#: Consumers without pending entries, idle this long, are removed from the group.
FORGET_IDLE_MS = 3600 * 1000

log = logging.getLogger(__name__)
#: One script call: ("apply" | "reject", keys, args, game id).
_Call = tuple[str, list[Any], list[Any], str]
#: What the gate answers to leave a result pending and see it again later.
DEFERRED = "deferred"

# KEYS: board (6: BOARD_LUA) stats (4: STATS_LUA) stream open rejected
# ARGV: board (6) stats (8) entry_id group date raw_entry [player ttl seconds]
_APPLY = (
    BOARD_LUA
    + STATS_LUA
    + """
local board = record_board({KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]},
  {ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6]})
local stats = 0
if board >= 0 then
  stats = record_stats({KEYS[7], KEYS[8], KEYS[9], KEYS[10]},
    {ARGV[7], ARGV[8], ARGV[9], ARGV[10], ARGV[11], ARGV[12], ARGV[13], ARGV[14], ARGV[19]})
else
  local reason = 'frozen'
  if board == -2 then reason = 'duplicate_player' end
  redis.call('HSET', KEYS[13], ARGV[1], cjson.encode({reason = reason, result = ARGV[18]}))
end
if redis.call('XACK', KEYS[11], ARGV[16], ARGV[15]) == 1 then
  redis.call('XDEL', KEYS[11], ARGV[15])
  if redis.call('HINCRBY', KEYS[12], ARGV[17], -1) <= 0 then
    redis.call('HDEL', KEYS[12], ARGV[17])
  end
end
return {board, stats}
"""
)

# KEYS: stream open rejected   ARGV: entry_id group date game_id reason raw_entry
# Acknowledge and delete an entry, count it off its date; with a reason, keep it in the
# rejects (an entry that is not a valid result, or one the board refused).
_ACK = """
if ARGV[5] ~= '' then
  redis.call('HSET', KEYS[3], ARGV[4], cjson.encode({reason = ARGV[5], result = ARGV[6]}))
end
if redis.call('XACK', KEYS[1], ARGV[2], ARGV[1]) == 1 then
  redis.call('XDEL', KEYS[1], ARGV[1])
  if ARGV[3] ~= '' and redis.call('HINCRBY', KEYS[2], ARGV[3], -1) <= 0 then
    redis.call('HDEL', KEYS[2], ARGV[3])
  end
end
return 1
"""
#: Why the board refused a result (BOARD_LUA's negative replies).
_REFUSALS = {-1: "frozen", -2: "duplicate_player"}


def stream_key(prefix: str, shard: int) -> str:
    """The stream of one shard."""
    return keymap.results_stream(prefix, shard)


def open_key(prefix: str, shard: int) -> str:
    """The per-date count of unapplied results of one shard."""
    return keymap.results_part(prefix, shard, "open")


def rejected_key(prefix: str, shard: int) -> str:
    """The refused results of one shard."""
    return keymap.results_part(prefix, shard, "rejected")


class ResultStream:
    """The result streams on one Redis connection: append, and what is still pending.

    >>> ResultStream(None, prefix="t:").stream_keys()[:2]  # type: ignore[arg-type]
    ['t:results:{r0.63}', 't:results:{r1.60}']
    """

    def __init__(self, conn: redis.Redis, *, prefix: str = "dd:") -> None:
        self.conn = conn
        self.prefix = prefix

    def stream_keys(self) -> list[str]:
        """The stream keys of every shard."""
        return [stream_key(self.prefix, s) for s in range(SHARDS)]

    def append(self, pipe: Any, result: Mapping[str, Any] | Result) -> Result:
        """Queue the result on ``pipe`` (the caller's transaction); returns it checked.

        Raises :class:`daily.service.results.result.ResultError` on a bad result, before
        anything is queued.
        """
        parsed = result if isinstance(result, Result) else Result.from_json(result)
        shard = shard_of(parsed.game_id)
        pipe.xadd(stream_key(self.prefix, shard), {"r": parsed.dumps()})
        pipe.hincrby(open_key(self.prefix, shard), parsed.date.isoformat(), 1)
        return parsed

    def entry(self, result: Mapping[str, Any] | Result) -> tuple[str, str, str, str]:
        """What :meth:`append` queues, for a script that appends it itself: the stream
        key, the ``open`` key, the entry's ``r`` field and the date to count."""
        parsed = result if isinstance(result, Result) else Result.from_json(result)
        shard = shard_of(parsed.game_id)
        return (stream_key(self.prefix, shard), open_key(self.prefix, shard), parsed.dumps(),
                parsed.date.isoformat())

    def add(self, result: Mapping[str, Any] | Result) -> Result:
        """:meth:`append` in a transaction of its own (tools, tests, benchmarks)."""
        with self.conn.pipeline(transaction=True) as pipe:
            parsed = self.append(pipe, result)
            pipe.execute()
        return parsed

    def unapplied(self, date: dt.date | str) -> int:
        """How many results of ``date`` were appended and not applied yet (all shards)."""
        day = date if isinstance(date, str) else date.isoformat()
        with self.conn.pipeline(transaction=False) as pipe:
            for shard in range(SHARDS):
                pipe.hget(open_key(self.prefix, shard), day)
            counts = pipe.execute()
        return sum(int(c) for c in counts if c is not None)

    def backlog(self) -> int:
        """Entries in the streams (not yet applied, read or not)."""
        with self.conn.pipeline(transaction=False) as pipe:
            for key in self.stream_keys():
                pipe.xlen(key)
            return sum(pipe.execute())

    def rejected(self) -> dict[str, dict[str, Any]]:
        """Every refused result: game id -> ``{"reason", "result"}``."""
        out: dict[str, dict[str, Any]] = {}
        for shard in range(SHARDS):
            for game_id, raw in self.conn.hgetall(rejected_key(self.prefix, shard)).items():
                out[as_text(game_id)] = json.loads(raw)
        return out

    def ensure_group(self) -> None:
        """Create the consumer group on every stream (from the start; idempotent)."""
        for key in self.stream_keys():
            try:
                self.conn.xgroup_create(key, GROUP, id="0", mkstream=True)
            except redis.ResponseError as exc:
                if "BUSYGROUP" not in str(exc):
                    raise


@dataclass
class BatchOutcome:
    """What one applied batch did."""

    recorded: int = 0
    already: int = 0
    rejected: int = 0
    #: Left pending: the fair-play gate asked to check them later (taken again by claim).
    deferred: int = 0
    game_ids: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        """Entries handled."""
        return self.recorded + self.already + self.rejected


def default_consumer_name() -> str:
    """``<host>-<pid>``: unique per process, so a restart never inherits stale entries.

    >>> default_consumer_name().endswith(str(os.getpid()))
    True
    """
    return f"{socket.gethostname()}-{os.getpid()}"


class ResultConsumer:
    """One member of the consumer group: read, apply, claim abandoned entries.

    ``pause`` is a test hook: called with the game ids of the batch after the first
    half of a batch was applied (a test kills the process there).
    """

    def __init__(
        self,
        conn: redis.Redis,
        *,
        prefix: str = "dd:",
        name: str | None = None,
        batch: int = BATCH,
        claim_idle_ms: int = CLAIM_IDLE_MS,
        pause: Callable[[list[str]], None] | None = None,
        player_ttl: int | None = None,
        gate: Callable[[list[Result]], list[str | None]] | None = None,
        linger_ms: int = 0,
    ) -> None:
        self.conn = conn
        # Wait after a partial batch (LINGER_MS): fewer, larger batches at a moderate
        # rate, each result later by at most this much. 0: read again at once.
        self.linger = linger_ms / 1000
        # The statistics of a player expire with their account (DAILY_PLAYER_DAYS).
        self.player_ttl = player_ttl
        self.prefix = prefix
        self.stream = ResultStream(conn, prefix=prefix)
        self.name = name or default_consumer_name()
        self.batch = batch
        self.claim_idle_ms = claim_idle_ms
        self.pause = pause
        self._apply = conn.register_script(_APPLY)
        self._ack = conn.register_script(_ACK)
        # The fair-play check of a batch: None lets a result onto its board.
        self.gate = gate
        self._board = conn.register_script(BOARD_RECORD)
        self._stats = conn.register_script(STATS_RECORD)
        self.cluster = isinstance(conn, RedisCluster)
        self._shards = {key: n for n, key in enumerate(self.stream.stream_keys())}
        self._stopping = False
        self._next_claim = 0.0
        self._next_forget = 0.0
        self._retries = 0

    def stop(self) -> None:
        """Finish the batch in hand, then return from :meth:`run`."""
        self._stopping = True

    def run(self, *, block_ms: int = 500, burst: bool = False) -> int:
        """Consume until :meth:`stop` (or, with ``burst``, until nothing is left).

        When Redis drops (a restart, a failover, the network), the consumer says so in
        one line, waits (:data:`RECONNECT_WAITS`) and goes on once Redis answers again:
        what it had read and not applied is pending in the group, and claimed again
        (:meth:`claim`). Returns the number of entries handled.
        """
        handled = 0
        grouped = False
        lost: float | None = None
        while not self._stopping:
            try:
                if not grouped:
                    self.stream.ensure_group()  # again after a restart: Redis may be empty
                    grouped = True
                done, finished = self._round(block_ms, burst)
            except (redis.ConnectionError, redis.TimeoutError) as exc:
                grouped = False
                wait = RECONNECT_WAITS[min(self._retries, len(RECONNECT_WAITS) - 1)]
                if lost is None:
                    lost = time.monotonic()
                    log.warning("lost Redis (%s): reconnecting", _one_line(exc))
                self._retries += 1
                self._sleep(wait)
                continue
            if lost is not None:
                log.warning("Redis is back after %.1f s: consuming again",
                            time.monotonic() - lost)
                lost, self._retries = None, 0
            handled += done
            if finished:
                break
        return handled

    def _sleep(self, seconds: float) -> None:
        """Wait ``seconds``, or less if :meth:`stop` is called meanwhile."""
        deadline = time.monotonic() + seconds
        while not self._stopping and time.monotonic() < deadline:
            time.sleep(min(0.1, seconds))

    def _round(self, block_ms: int, burst: bool) -> tuple[int, bool]:
        """One round of :meth:`run`: claim (every :data:`CLAIM_EVERY` s), read, apply;
        returns what it handled and whether a burst is done."""
        now = time.monotonic()
        claimed = 0
        if now >= self._next_claim:
            claimed = self.claim()
            self._next_claim = now + CLAIM_EVERY
        if now >= self._next_forget:
            self.forget_idle_consumers()
            self._next_forget = now + 60
        read = self.read(0 if burst else block_ms)
        if self.linger and not burst and 0 < read < self.batch and not self._stopping:
            time.sleep(self.linger)
        if burst and not claimed and not read:
            if not self._pending_anywhere():
                return 0, True
            time.sleep(0.1)  # entries of another consumer: claimable once idle
        return claimed + read, False

    def _pending_anywhere(self) -> bool:
        return any(
            self.conn.xpending(key, GROUP)["pending"] for key in self.stream.stream_keys()
        )

    def read(self, block_ms: int) -> int:
        """Read new entries of every shard (waiting up to ``block_ms``) and apply them."""
        replies: Any
        if self.cluster:
            replies = self._read_by_slot(block_ms)
        else:
            streams: dict[Any, Any] = {key: ">" for key in self.stream.stream_keys()}
            replies = self.conn.xreadgroup(
                GROUP, self.name, streams, count=self.batch, block=block_ms or None
            )
        entries: list[tuple[int, bytes, Mapping[bytes, bytes]]] = []
        for key, items in replies or []:
            shard = self._shards[as_text(key)]
            entries.extend((shard, entry_id, fields) for entry_id, fields in items)
        return self.apply(entries).total if entries else 0

    def _read_by_slot(self, block_ms: int) -> list[Any]:
        """One XREADGROUP per stream (each in its own slot), pipelined; when nothing is
        there, poll again every :data:`CLUSTER_POLL_MS` until ``block_ms`` passed."""
        deadline = time.monotonic() + block_ms / 1000
        while True:
            with self.conn.pipeline(transaction=False) as pipe:
                for key in self.stream.stream_keys():
                    pipe.xreadgroup(GROUP, self.name, {key: ">"}, count=self.batch)
                replies = [r for reply in pipe.execute() for r in (reply or [])]
            if replies or time.monotonic() >= deadline or self._stopping:
                return replies
            time.sleep(CLUSTER_POLL_MS / 1000)

    def claim(self) -> int:
        """Take over and apply entries idle for ``claim_idle_ms`` (dead consumers')."""
        handled = 0
        for shard, key in enumerate(self.stream.stream_keys()):
            start = "0-0"
            while True:
                reply = self.conn.xautoclaim(
                    key, GROUP, self.name, self.claim_idle_ms, start, count=self.batch
                )
                start, items = reply[0], reply[1]
                entries = [(shard, entry_id, f) for entry_id, f in items if f is not None]
                if entries:
                    done = self.apply(entries).total  # deferred entries stay pending
                    if done:
                        log.warning("claimed %d abandoned results of shard %d", done, shard)
                    handled += done
                if as_text(start) == "0-0":
                    break
        return handled

    def forget_idle_consumers(self) -> None:
        """Remove consumers with nothing pending that were idle for an hour."""
        for key in self.stream.stream_keys():
            try:
                consumers = self.conn.xinfo_consumers(key, GROUP)
            except redis.ResponseError:
                continue  # no group yet
            for c in consumers:
                if c["pending"] == 0 and c["idle"] > FORGET_IDLE_MS and c["name"] != self.name:
                    self.conn.xgroup_delconsumer(key, GROUP, c["name"])

    def apply(self, entries: Iterable[tuple[int, bytes, Mapping[bytes, bytes]]]) -> BatchOutcome:
        """Apply entries ``(shard, id, fields)``: one script call each, pipelined."""
        raws = [(shard, as_text(entry_id), _field(fields, "r"))
                for shard, entry_id, fields in entries]
        parsed: list[Result | ResultError] = []
        for _shard, _id, raw in raws:
            try:
                parsed.append(Result.from_json(raw))
            except ResultError as exc:
                parsed.append(exc)
        valid = [r for r in parsed if isinstance(r, Result)]
        verdicts = iter(self.gate(valid) if self.gate is not None and valid else [])
        calls = [
            self._call(shard, entry_id, raw, result,
                       next(verdicts) if isinstance(result, Result) and self.gate else None)
            for (shard, entry_id, raw), result in zip(raws, parsed, strict=True)
        ]
        outcome = BatchOutcome(game_ids=[c[3] for c in calls])
        outcome.deferred = sum(1 for c in calls if c[0] == "defer")
        calls = [c for c in calls if c[0] != "defer"]
        if self.pause and len(calls) > 1:
            half = len(calls) // 2
            self._execute(calls[:half], outcome)
            self.pause(outcome.game_ids)
            self._execute(calls[half:], outcome)
        else:
            self._execute(calls, outcome)
        if outcome.rejected:
            log.warning("%d results refused; see results:{rN}:rejected", outcome.rejected)
        if outcome.deferred:
            log.info("%d results deferred: their day's fair-play ceiling is being computed",
                     outcome.deferred)
        return outcome

    def _execute(self, calls: list[_Call], outcome: BatchOutcome) -> None:
        if self.cluster:
            replies = self._execute_by_slot(calls)
        else:
            with self.conn.pipeline(transaction=False) as pipe:
                for kind, keys, args, _game in calls:
                    script = self._apply if kind == "apply" else self._ack
                    script(keys=keys, args=args, client=pipe)
                replies = [r if kind == "apply" else [-9, 0] for (kind, *_), r in
                           zip(calls, pipe.execute(), strict=True)]
        for reply in replies:
            if int(reply[0]) < 0:
                outcome.rejected += 1
            elif int(reply[0]) == 1:
                outcome.recorded += 1
            else:
                outcome.already += 1

    def _execute_by_slot(self, calls: list[_Call]) -> list[list[int]]:
        """On a cluster the board, the player and the stream live in different slots:
        board scripts, then statistics scripts, then acknowledgements, each round
        pipelined. Each step is idempotent and the entry is acknowledged last, so a
        crash between rounds leaves it pending and a rerun completes it exactly once."""
        applying = [c for c in calls if c[0] == "apply"]
        boards = self._pipelined(
            self._board, [(keys[:6], args[:6]) for _k, keys, args, _g in applying]
        )
        counted = [c for c, b in zip(applying, boards, strict=True) if int(b) >= 0]
        stats = iter(self._pipelined(
            self._stats, [(keys[6:10], args[6:14] + args[18:19])
                          for _k, keys, args, _g in counted]
        ))
        outcomes = iter(boards)
        replies, acks = [], []
        for kind, keys, args, game in calls:
            if kind == "apply":
                board = int(next(outcomes))
                replies.append([board, int(next(stats)) if board >= 0 else 0])
                reason = _REFUSALS.get(board, "")
                acks.append((keys[10:13], [args[14], args[15], args[16], game, reason, args[17]]))
            else:
                replies.append([-9, 0])
                acks.append((keys, args))
        self._pipelined(self._ack, acks)
        return replies

    def _pipelined(self, script: Any, calls: list[tuple[list[Any], list[Any]]]) -> list[Any]:
        """Run ``script`` once per call, pipelined per cluster node (redis-py's cluster
        pipeline refuses scripts, so each node gets a plain pipeline of its own)."""
        conn = self.conn
        if not isinstance(conn, RedisCluster):
            raise TypeError("per-node pipelines are for a Redis Cluster connection")
        by_node: dict[str, list[int]] = {}
        nodes: dict[str, ClusterNode] = {}
        for index, (keys, _args) in enumerate(calls):
            node = conn.get_node_from_key(keys[0])
            nodes[node.name] = node
            by_node.setdefault(node.name, []).append(index)
        replies: list[Any] = [None] * len(calls)
        for name, indexes in by_node.items():
            client = conn.get_redis_connection(nodes[name])
            with client.pipeline(transaction=False) as pipe:
                for index in indexes:
                    keys, args = calls[index]
                    script(keys=keys, args=args, client=pipe)
                for index, reply in zip(indexes, pipe.execute(), strict=True):
                    replies[index] = reply
        return replies

    def _call(
        self, shard: int, entry_id: str, raw: str, result: Result | ResultError,
        verdict: str | None,
    ) -> _Call:
        stream_keys = [
            stream_key(self.prefix, shard), open_key(self.prefix, shard),
            rejected_key(self.prefix, shard),
        ]
        if isinstance(result, ResultError):
            date, game_id = _salvage(raw)
            rejected: list[Any] = [entry_id, GROUP, date, game_id, f"invalid: {result}", raw]
            return "reject", stream_keys, rejected, game_id
        if verdict == DEFERRED:
            # The fair-play check waits for its day's ceiling: not applied, not
            # acknowledged; claim() takes it again once idle for claim_idle_ms.
            return "defer", stream_keys, [], result.game_id
        if verdict is not None:
            # Held for review (daily.service.review.queue): acknowledged, off the board. The
            # gate is idempotent, so a re-delivered entry is skipped again.
            held: list[Any] = [entry_id, GROUP, result.date.isoformat(), result.game_id, "", raw]
            return "reject", stream_keys, held, result.game_id
        board = Leaderboard(self.conn, result.date, result.ruleset, prefix=self.prefix)
        keys = [
            *board.record_keys(), *stats_keys(result.player_id, prefix=self.prefix), *stream_keys
        ]
        args = [
            *board.record_args(result), *stats_args(result),
            entry_id, GROUP, result.date.isoformat(), raw,
            *([self.player_ttl] if self.player_ttl else []),
        ]
        return "apply", keys, args, result.game_id


def _one_line(exc: BaseException) -> str:
    """An exception as one short line of a log.

    >>> _one_line(ConnectionError("Error 111 connecting to 127.0.0.1:6379.\\nRefused."))
    'ConnectionError: Error 111 connecting to 127.0.0.1:6379. Refused.'
    """
    return f"{type(exc).__name__}: {' '.join(str(exc).split())}"[:200]


def _field(fields: Mapping[Any, Any], name: str) -> str:
    """A stream entry's field as text ("" if missing), whatever the client decodes."""
    for key, value in fields.items():
        if as_text(key) == name:
            return as_text(value)
    return ""


def _salvage(raw: str) -> tuple[str, str]:
    """Date and game id of a bad entry, as far as they can be read (for its counter)."""
    try:
        obj = json.loads(raw)
    except ValueError:
        return "", f"bad-entry-{zlib.crc32(raw.encode())}"
    if not isinstance(obj, dict):
        return "", f"bad-entry-{zlib.crc32(raw.encode())}"
    date, game_id = obj.get("date"), obj.get("game_id")
    return (
        date if isinstance(date, str) else "",
        game_id if isinstance(game_id, str) else f"bad-entry-{zlib.crc32(raw.encode())}",
    )


def pause_dir_hook(directory: Path) -> Callable[[list[str]], None]:
    """The test hook of ``DAILY_TEST_PAUSE_DIR``: write ``<dir>/batch`` (the batch's game
    ids and this pid), then wait up to 60 s until the file is removed."""

    def pause(game_ids: list[str]) -> None:
        marker = directory / "batch"
        partial = marker.with_suffix(".partial")
        partial.write_text(json.dumps({"pid": os.getpid(), "games": game_ids}))
        partial.replace(marker)
        deadline = time.monotonic() + 60
        while marker.exists() and time.monotonic() < deadline:
            time.sleep(0.05)

    return pause


__all__ = ["GROUP", "SHARDS", "BatchOutcome", "ResultConsumer", "ResultStream", "shard_of"]
