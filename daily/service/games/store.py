"""Game records in Redis: reading, the ranked-start script, compare-and-set, finishing.

Every write of a game checks, in the same atomic step, that the stored record is the
one the caller decided on. On a single server that is one call of the move script
(:data:`_MOVE`, redis-py's ``Script``): it spends the request's rate-limit counters
(the :class:`~daily.service.limits.Pending` its caller hands it, once),
compares the SHA-1 of the stored text with the caller's copy and writes (for the
finish: claims the result code, stores the record and appends the result to the
results stream); when the text differs it answers the record as it is. On a cluster
(the code and the counters live in other slots) the position (``v``, the first field
of the record's JSON, see :mod:`daily.service.games.record`) is compared by a Lua
script for a move and by ``WATCH``/``MULTI`` for the finish. A write whose record
moved on changes nothing and reports it, so no decision is ever applied to a position
it was not decided at. Keys: :mod:`daily.service.keymap` (``game``, ``ranked``, ``code``).

Lifetimes: a practice game and its code expire :data:`PRACTICE_TTL` after their last
write (each move restarts it; the finish writes both). A ranked game, its ``ranked``
entry and its code expire ``DAILY_RANKED_DAYS`` days after the day closes
(:meth:`GameStore.ranked_expiry`, fixed at the start; moves keep it); the day's archive
on disk keeps every result after that.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import redis
from redis.cluster import RedisCluster

from daily import calendar
from daily.service import keymap
from daily.service.connections import as_text
from daily.service.games.codes import new_code
from daily.service.games.record import GameRecord, plausible_id
from daily.service.limits import SPEND_LUA, Pending
from daily.service.refusals import NotFound, RateLimited
from daily.service.shards import shard_of

#: Practice games (and their result codes) are forgotten this long after their last write.
PRACTICE_TTL = 30 * 24 * 3600
#: Default of ``DAILY_RANKED_DAYS``: days ranked records stay after their day closes.
RANKED_DAYS = 400
#: Seconds the index of a day set's started ranked games stays after the day closes
#: (the scouts of the day are found there: :mod:`daily.service.review.evidence`).
STARTED_KEPT = 8 * 86400

# The ranked-start script: one call per ranked start on a single server.
# KEYS: ranked index, game, the day set's started games of the shard, the rate-limit
# counters (n)
# ARGV: n, limit/window pairs (2n), game id, record JSON, expiry (epoch seconds), start
# time (epoch seconds), expiry of the started games' index (epoch seconds)
# -> {'limited', counter, seconds} | {'new'} when this start recorded the game
#    | {'existing', id} of the game recorded before
# The counters are spent first, as by the move script (on a cluster there are none).
_START_RANKED = SPEND_LUA + """
local n = tonumber(ARGV[1])
local over = spend_limits(3, 1, n)
if over then return {'limited', over[1], over[2]} end
local a = 2 * n + 1
local existing = redis.call('GET', KEYS[1])
if existing then return {'existing', existing} end
redis.call('SET', KEYS[1], ARGV[a + 1], 'EXAT', ARGV[a + 3])
redis.call('SET', KEYS[2], ARGV[a + 2], 'EXAT', ARGV[a + 3])
redis.call('ZADD', KEYS[3], ARGV[a + 4], ARGV[a + 1])
redis.call('EXPIREAT', KEYS[3], ARGV[a + 5])
return {'new'}
"""

# KEYS: game   ARGV: expected position, new JSON, ttl seconds (0 = keep the expiry it
# has), expected JSON
# of a record written before positions existed (else "")   -> 1 written, 0 moved on
_SET_IF_AT = """
local raw = redis.call('GET', KEYS[1])
if not raw then return 0 end
local v = string.match(raw, '^{"v":(%d+),')
if v then
  if tonumber(v) ~= tonumber(ARGV[1]) then return 0 end
elseif raw ~= ARGV[4] then
  return 0
end
if tonumber(ARGV[3]) > 0 then
  redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3])
else
  redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
end
return 1
"""


# The move script: one call per move on a single server.
# KEYS: game, the rate-limit counters (n), then for 'finish': code, stream, open
# ARGV: n, limit/window pairs (2n), mode ('read' | 'set' | 'finish'), SHA-1 of the record
#       the move was decided on, new JSON, ttl (0 = keep the expiry),
#       and for 'finish': expiry (epoch s), game id, stream entry ('' for none), date
# -> {'limited', counter, seconds} | {'read', record or nil} | {'gone'}
#    | {'moved', record} | {'code_taken'} | {'ok'}
# The counters are spent first (a refused request changes nothing else); a write happens
# only if the stored text is still, byte for byte, the one the move was decided on.
_MOVE = SPEND_LUA + """
local n = tonumber(ARGV[1])
local over = spend_limits(1, 1, n)
if over then return {'limited', over[1], over[2]} end
local a = 2 * n + 2
local mode = ARGV[a]
local raw = redis.call('GET', KEYS[1])
if mode == 'read' then return {'read', raw} end
if not raw then return {'gone'} end
if redis.sha1hex(raw) ~= ARGV[a + 1] then return {'moved', raw} end
if mode == 'finish' then
  local k = n + 1
  if not redis.call('SET', KEYS[k + 1], ARGV[a + 5], 'NX', 'EXAT', ARGV[a + 4]) then
    return {'code_taken'}
  end
  redis.call('SET', KEYS[1], ARGV[a + 2], 'EXAT', ARGV[a + 4])
  if ARGV[a + 6] ~= '' then
    redis.call('XADD', KEYS[k + 2], '*', 'r', ARGV[a + 6])
    redis.call('HINCRBY', KEYS[k + 3], ARGV[a + 7], 1)
  end
elseif tonumber(ARGV[a + 3]) > 0 then
  redis.call('SET', KEYS[1], ARGV[a + 2], 'EX', ARGV[a + 3])
else
  redis.call('SET', KEYS[1], ARGV[a + 2], 'KEEPTTL')
end
return {'ok'}
"""


def _epoch(created: str | None) -> float:
    """A record's start time (ISO 8601) in epoch seconds (0 when it has none).

    >>> _epoch("2026-11-29T11:00:00Z")
    1795950000.0
    """
    if not created:
        return 0.0
    return dt.datetime.fromisoformat(created.replace("Z", "+00:00")).timestamp()


def digest(raw: str) -> str:
    """The SHA-1 (hex) of a stored record's text, as the move script computes it.

    >>> digest('{"v":0}')
    '7f6c348a27f0ccab0c24ecc05e3d3a0b0d15ccdf'
    """
    return hashlib.sha1(raw.encode()).hexdigest()


def _counter_parts(counters: Pending | None) -> tuple[list[str], list[int]]:
    """The keys and the leading arguments (their number, then limit/window pairs) that
    hand ``counters`` to a script's ``spend_limits``.

    >>> from daily.service.limits import Limit
    >>> _counter_parts(Pending([("k", Limit(3, 60, "3 per 1 minute"), "player")], "write"))
    (['k'], [1, 3, 60])
    >>> _counter_parts(None)
    ([], [0])
    """
    if counters is None:
        return [], [0]
    return counters.keys(), [len(counters.counters), *counters.args()]


def _unspent(counters: Pending | None) -> Pending | None:
    """``counters`` unless a script has spent them already (a request counts once).

    >>> from daily.service.limits import Limit
    >>> pending = Pending([("k", Limit(3, 60, "3 per 1 minute"), "player")], "write")
    >>> _unspent(pending) is pending, _unspent(None)
    (True, None)
    """
    return counters if counters is not None and not counters.spent else None


def _spent(counters: Pending | None, reply: list[Any]) -> str:
    """The kind of a script's ``reply`` once ``counters`` went with it (now spent);
    :class:`RateLimited` when the script refused them."""
    if counters is not None:
        counters.spent = True
    kind = as_text(reply[0])
    if kind == "limited":
        refusal = counters.refusal(int(reply[1]), int(reply[2]))  # type: ignore[union-attr]
        raise RateLimited(refusal.message, retry_after=refusal.retry_after)
    return kind


class MovedOn(Exception):
    """The stored game is no longer at the position the caller read (raced)."""


@dataclass(frozen=True)
class Stored:
    """A record as read, with its text (for records written before positions)."""

    record: GameRecord
    raw: str

    @property
    def legacy_raw(self) -> str:
        """The text to compare instead of the position, for a record without ``v``."""
        return "" if self.raw.startswith('{"v":') else self.raw


class GameStore:
    """The game records of one deployment (``prefix``) on a Redis connection."""

    def __init__(self, conn: redis.Redis, prefix: str, ranked_days: int = RANKED_DAYS) -> None:
        self.conn = conn
        self.prefix = prefix
        self.ranked_days = ranked_days
        #: Cluster (code and counters in other slots): positions, WATCH/MULTI; else scripts.
        self.cluster = isinstance(conn, RedisCluster)
        self._start_ranked = conn.register_script(_START_RANKED)
        self._set_if_at = conn.register_script(_SET_IF_AT)
        self._move = conn.register_script(_MOVE)  # once per move

    def key(self, game_id: str) -> str:
        """The Redis key of a game."""
        return keymap.game(self.prefix, game_id)

    def ranked_expiry(self, day: dt.date) -> int:
        """When the records of a ranked game of ``day`` expire (epoch seconds): the
        configured number of days after the day closes.

        >>> store = GameStore(redis.Redis(), "dd:", ranked_days=1)
        >>> dt.datetime.fromtimestamp(store.ranked_expiry(dt.date(2026, 11, 29)), dt.UTC)
        datetime.datetime(2026, 12, 1, 12, 0, tzinfo=datetime.timezone.utc)
        """
        return int(calendar.closes_at(day).timestamp()) + self.ranked_days * 86400

    def _lifetime(self, record: GameRecord) -> dict[str, Any]:
        """The expiry of a finished game's keys, as ``SET`` arguments."""
        if record.mode == "ranked" and record.day is not None:
            return {"exat": self.ranked_expiry(record.day)}
        return {"ex": PRACTICE_TTL}

    def read(self, game_id: str) -> Stored:
        """The record of ``game_id``; :class:`NotFound` when there is none."""
        raw = self.conn.get(self.key(game_id)) if plausible_id(game_id) else None
        if raw is None:
            raise NotFound(f"no game {game_id!r}", field="id")
        text = as_text(raw)
        return Stored(GameRecord.loads(text), text)

    def _call(
        self, game_id: str, mode: str, args: list[Any], keys: tuple[str, ...] = (),
        counters: Pending | None = None,
    ) -> list[Any]:
        """One call of the move script; spends ``counters`` (the request's, if still
        unspent) first."""
        counters = _unspent(counters)
        keys_n, args_n = _counter_parts(counters)
        reply = self._move(keys=[self.key(game_id), *keys_n, *keys],
                           args=[*args_n, mode, *args])
        kind = _spent(counters, reply)
        if kind == "gone":
            raise NotFound(f"no game {game_id!r}", field="id")
        return [kind, *reply[1:]]

    def _stored(self, game_id: str, raw: Any) -> Stored:
        if raw is None:
            raise NotFound(f"no game {game_id!r}", field="id")
        text = as_text(raw)
        return Stored(GameRecord.loads(text), text)

    def read_spending(self, game_id: str, counters: Pending | None = None) -> Stored:
        """:meth:`read`, spending the request's unspent rate-limit ``counters`` in the
        same call (:class:`RateLimited` when over a limit); a plain read when there are
        none."""
        if _unspent(counters) is None:
            return self.read(game_id)
        if not plausible_id(game_id):
            raise NotFound(f"no game {game_id!r}", field="id")
        return self._stored(game_id, self._call(game_id, "read", [], counters=counters)[1])

    def write_if_same(
        self, before: Stored, after: Stored, counters: Pending | None = None,
    ) -> Stored | None:
        """Write ``after`` (a record and its text) if the stored text is still
        ``before``'s (one call, spending the request's ``counters`` first); ``None`` when
        written, else the record as it is now."""
        ttl = PRACTICE_TTL if after.record.mode == "practice" else 0
        reply = self._call(after.record.id, "set", [digest(before.raw), after.raw, ttl],
                           counters=counters)
        return None if reply[0] == "ok" else self._stored(after.record.id, reply[1])

    def finish_if_same(
        self, before: Stored, after: GameRecord,
        result: Callable[[], tuple[str, str, str, str] | None],
        counters: Pending | None = None,
    ) -> Stored | None:
        """Store a finished game, claim its code (``after.code``, drawn here) and append
        ``result()`` (stream key, open key, entry, date; called once the code is drawn;
        ``None``: no result to append) to its results stream, in one script call
        (spending ``counters`` first), if the stored text is still ``before``'s.
        ``None`` when done, else the record as it is now. Single server only (the code
        key has a slot of its own on a cluster: :meth:`finish` there)."""
        life = self._lifetime(after)
        expiry = life.get("exat") or int(dt.datetime.now(dt.UTC).timestamp()) + life["ex"]
        while True:
            after.code = new_code()
            appended = result()
            stream, opened, entry, date = appended or ("", "", "", "")
            keys = (keymap.code(self.prefix, after.code), *((stream, opened) if appended else ()))
            reply = self._call(
                after.id, "finish",
                [digest(before.raw), after.dumps(), 0, expiry, after.id, entry, date], keys,
                counters,
            )
            if reply[0] != "code_taken":
                break
        if reply[0] == "ok":
            return None
        after.code = None
        return self._stored(after.id, reply[1])

    def load(self, game_id: str) -> GameRecord:
        """The record of ``game_id``; :class:`NotFound` when there is none."""
        return self.read(game_id).record

    def ranked_id(self, date: str, ruleset: str, player_id: str) -> str | None:
        """The id of a player's ranked game of a day set, if started."""
        raw = self.conn.get(keymap.ranked(self.prefix, date, ruleset, player_id))
        return as_text(raw) if raw is not None else None

    def game_id_of_code(self, code: str) -> str | None:
        """The game id a result code names, if any."""
        raw = self.conn.get(keymap.code(self.prefix, code))
        return as_text(raw) if raw is not None else None

    def start_ranked(self, record: GameRecord, counters: Pending | None = None) -> str | None:
        """Record a new ranked game unless the player has one; returns that one's id.
        Spends the request's unspent ``counters`` in the same call (:class:`RateLimited`
        when over a limit: then nothing is recorded)."""
        if record.day is None:
            raise ValueError("a ranked game has a date")
        counters = _unspent(counters)
        keys_n, args_n = _counter_parts(counters)
        started = keymap.started(self.prefix, record.day, record.ruleset,
                                 shard_of(record.player))
        reply = self._start_ranked(
            keys=[keymap.ranked(self.prefix, record.date or "", record.ruleset, record.player),
                  self.key(record.id), started, *keys_n],
            args=[*args_n, record.id, record.dumps(), self.ranked_expiry(record.day),
                  _epoch(record.created),
                  int(calendar.closes_at(record.day).timestamp()) + STARTED_KEPT],
        )
        return as_text(reply[1]) if _spent(counters, reply) == "existing" else None

    def create_practice(self, record: GameRecord) -> None:
        """Store a new practice game (forgotten after :data:`PRACTICE_TTL` idle)."""
        self.conn.set(self.key(record.id), record.dumps(), ex=PRACTICE_TTL)

    def advance(self, before: Stored, after: Stored, counters: Pending | None = None) -> None:
        """Write a move's ``after`` if the game is still as ``before``, else
        :class:`MovedOn` (with the record as it is now, when known): one script call
        spending ``counters`` on a single server (:meth:`write_if_same`), a position
        check on a cluster (:meth:`set_if_at`)."""
        if self.cluster:
            self.set_if_at(before, after.record)
            return
        now = self.write_if_same(before, after, counters)
        if now is not None:
            raise MovedOn(now)

    def complete(
        self, before: Stored, after: GameRecord, publish: Callable[[Any], None],
        entry: Callable[[], tuple[str, str, str, str] | None],
        coded: Callable[[], None] = lambda: None, counters: Pending | None = None,
    ) -> None:
        """Store a finished game with its result, atomically, else :class:`MovedOn`
        (with the record as it is now, when known). On a single server one script call
        (:meth:`finish_if_same`, which appends ``entry()``; ``entry`` calls ``coded``
        itself), on a cluster one transaction (:meth:`finish`: ``coded()`` once the
        code is drawn, ``publish(pipeline)`` queues the result)."""
        if self.cluster:
            self.finish(before, after, publish, coded)
            return
        now = self.finish_if_same(before, after, entry, counters)
        if now is not None:
            raise MovedOn(now)

    def set_if_at(self, before: Stored, after: GameRecord) -> None:
        """Write ``after`` if the game is still at ``before``'s position, else :class:`MovedOn`."""
        ttl = PRACTICE_TTL if after.mode == "practice" else 0
        written = self._set_if_at(
            keys=[self.key(after.id)],
            args=[before.record.v, after.dumps(), ttl, before.legacy_raw],
        )
        if not written:
            raise MovedOn

    def finish(
        self, before: Stored, after: GameRecord, publish: Callable[[Any], None],
        coded: Callable[[], None] = lambda: None,
    ) -> None:
        """Store a finished game and (``publish``) its result, atomically; claim its code.

        ``after`` gets a fresh result code (then ``coded()`` is called, before the
        record is written: the receipt is signed there). The transaction runs only if
        the game is still at ``before``'s position (else :class:`MovedOn`);
        ``publish(pipeline)`` adds the finished game's result to the same ``MULTI``.
        """
        key = self.key(after.id)
        with self.conn.pipeline(transaction=True) as pipe:  # also on a cluster client
            try:
                pipe.watch(key)
                raw = pipe.get(key)
                if raw is None or GameRecord.loads(raw).v != before.record.v:
                    raise MovedOn
                after.code = self._claim_code(after)
                coded()
                pipe.multi()
                pipe.set(key, after.dumps(), **self._lifetime(after))
                publish(pipe)
                pipe.execute()
            except redis.WatchError:
                raise MovedOn from None

    def _claim_code(self, record: GameRecord) -> str:
        """A fresh result code, claimed for ``record`` (SET NX, with the game's lifetime)
        before the finish transaction: its key lives in another cluster slot than the
        game. A claim whose finish then fails names a game without that code: not found."""
        code = new_code()
        key = keymap.code(self.prefix, code)
        while not self.conn.set(key, record.id, nx=True, **self._lifetime(record)):
            code = new_code()  # pragma: no cover - 50 random bits
            key = keymap.code(self.prefix, code)
        return code

    def update(self, game_id: str, fields: dict[str, Any]) -> None:
        """Set ``fields`` of a stored record, keeping its position and expiry."""
        key = self.key(game_id)
        with self.conn.pipeline() as pipe:
            while True:
                try:
                    pipe.watch(key)
                    raw = pipe.get(key)
                    if raw is None:
                        raise NotFound(f"no game {game_id!r}", field="id")
                    ttl = pipe.ttl(key)
                    record = replace(GameRecord.loads(raw), **fields)
                    pipe.multi()
                    pipe.set(key, record.dumps(), ex=ttl if ttl and ttl > 0 else None)
                    pipe.execute()
                    return
                except redis.WatchError:
                    continue

    def ranked_totals(self, queries: list[tuple[str, str, str]]) -> list[int | None]:
        """The total of each (player, date, ruleset)'s finished ranked game, or None."""
        with self.conn.pipeline(transaction=False) as pipe:
            for player_id, date, ruleset in queries:
                pipe.get(keymap.ranked(self.prefix, date, ruleset, player_id))
            ids = pipe.execute()
        with self.conn.pipeline(transaction=False) as pipe:
            for game_id in ids:
                if game_id is not None:
                    pipe.get(self.key(game_id.decode()))
            records = iter(pipe.execute())
        out: list[int | None] = []
        for game_id in ids:
            raw = next(records) if game_id is not None else None
            record = GameRecord.loads(raw) if raw is not None else None
            out.append(record.total if record is not None and record.finished else None)
        return out
