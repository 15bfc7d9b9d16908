"""The daily leaderboards: one board per (date, ruleset), kept in Redis.

Rank rules (the exact order of a board)
---------------------------------------
The order and the ranks are those of :mod:`daily.standings`, the public definition
the offline audit of a day also follows. Entries are ordered by, in turn:

1. the higher ``total`` first;
2. then the earlier finish (``finished_at``, compared at millisecond resolution);
3. then the smaller game id (plain byte-wise string order, e.g. ``"g_A" < "g_B"``).

Ranks are **standard competition ranks**: one more than the number of entries with a
strictly higher total, so equal totals share a rank and the next rank skips (1, 1, 3);
the order above only decides who is listed first among equals. A player appears at
most once per board (their first ranked game; the API guarantees it and the board
refuses a second game of the same player).

Percentile, better than, top
----------------------------
For a standing of rank ``r`` on a board of ``n``: ``percentile`` =
:func:`daily.standings.percentile` (the share at or below ``r``, rounded down to 0.1:
every leader shows 100.0), ``better_than`` = :func:`daily.standings.better_than` (the
share with a strictly lower total, rounded down: "better than 97% of today's players")
and ``top`` = :func:`daily.standings.top_share` (the share at or above ``r``, rounded
up: "top 3%").

Histogram
---------
Bins of :data:`BIN_WIDTH` points: bin ``from`` = ``total // 10 * 10``, ``to`` = from + 9.

Idempotency and atomicity
-------------------------
:meth:`Leaderboard.record` is one Lua script: either the whole entry is written
(ranking, entry, player index, histogram bin, move log) or nothing is. Recording the
same game id again changes nothing and reports ``already_recorded``. A frozen board
(closed day, see :mod:`workers.rollover`) refuses new games with
:class:`BoardFrozenError`, which a job lets raise so that RQ keeps it in the failed
registry for an operator to look at.

Redis keys (``P`` = the configured key prefix; the ``{date:ruleset}`` hash tag keeps a
board's keys in one slot, so boards could be spread over the shards of a cluster)::

    P lb:{D:R}:rank     ZSET  game id -> sort key (ascending = best first)
    P lb:{D:R}:entries  HASH  game id -> compact JSON of the entry
    P lb:{D:R}:players  HASH  player id -> game id
    P lb:{D:R}:hist     HASH  bin start -> count
    P lb:{D:R}:logs     HASH  game id -> move log, compact text form (for the archive)
    P lb:{D:R}:frozen   STRING  epoch seconds when the board was frozen
    P lb:{D:R}:final    STRING  JSON of the final statistics (set by the rollover)
    P lb:{D:R}:rolled   HASH  rollover steps done (see :mod:`workers.rollover`)

>>> sort_key(200, 0.0, dt.date(2026, 11, 29)) < sort_key(199, 0.0, dt.date(2026, 11, 29))
True
>>> d = dt.date(2026, 11, 29)
>>> band_of(sort_key(200, 5.0, d)) == band_of(sort_key(200, 0.0, d))
True
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import redis

from daily import calendar, standings
from daily.dice import parse_date
from daily.errors import StateError
from daily.rules import canonical_name
from daily.service import keymap
from daily.service.connections import as_text
from daily.service.results.result import TOTAL_LIMIT, Result, ResultError

#: Width in points of a histogram bin.
BIN_WIDTH = 10
_TIME_BITS = 32  # milliseconds after the day opens: 49 days of room
_TIME_LIMIT = (1 << _TIME_BITS) - 1
#: Rows shown above and below the player in :meth:`Leaderboard.around`, by default.
AROUND_RADIUS = 5


class BoardFrozenError(StateError):
    """The day is closed and its board frozen: no new game can be recorded."""


class DuplicatePlayerError(StateError):
    """The player already has another game on this board."""


def sort_key(total: int, finished_at: float, date: dt.date) -> int:
    """The ascending sort key of an entry: lower is better (see the rank rules above).

    ``(TOTAL_LIMIT - 1 - total) << 32 | milliseconds since the day opened`` fits in 48
    bits, exactly representable in the double a sorted set stores.

    >>> d = dt.date(2026, 11, 29)
    >>> opens = calendar.opens_at(d).timestamp()
    >>> sort_key(250, opens + 1.0, d) < sort_key(250, opens + 1.001, d)
    True
    """
    offset_ms = round((finished_at - calendar.opens_at(date).timestamp()) * 1000)
    offset_ms = min(max(offset_ms, 0), _TIME_LIMIT)
    return ((TOTAL_LIMIT - 1 - total) << _TIME_BITS) | offset_ms


def band_of(key: float) -> int:
    """The total band of a sort key: every entry of one total has the same band, and a
    higher total a lower band (``key >> 32``).

    >>> d = dt.date(2026, 11, 29)
    >>> band_of(sort_key(250, 0.0, d)) < band_of(sort_key(249, 0.0, d))
    True
    """
    return int(key) >> _TIME_BITS


@dataclass(frozen=True)
class Entry:
    """One row of a board."""

    rank: int
    game_id: str
    player_id: str
    player_name: str
    score: int
    finished_at: float
    code: str

    def to_json(self, name: str | None = None) -> dict[str, Any]:
        """The row as the API shows it (``player`` is ``{"id", "name"}``; ``name``, the
        player's current name, when known, else the name the entry was recorded with)."""
        return {
            "rank": self.rank,
            "player": {"id": self.player_id, "name": name or self.player_name},
            "score": self.score,
            "finished_at": self.finished_at,
            "code": self.code,
            "game_id": self.game_id,
        }


@dataclass(frozen=True)
class Standing:
    """A player's place on a board: the competition rank and the shares of the board
    (:mod:`daily.standings`) below and at or above it.

    >>> Standing(3, 100, 97, 240, "g_1").to_json()
    ... # doctest: +NORMALIZE_WHITESPACE
    {'rank': 3, 'percentile': 98.0, 'score': 240, 'better_than': 97.0, 'top': 3.0,
     'tied': 1, 'game_id': 'g_1'}
    >>> Standing(1, 5, 1, 240, "g_1").tied  # four share the first rank
    4
    """

    rank: int
    players: int
    lower: int  # entries with a strictly lower total
    score: int
    game_id: str

    @property
    def percentile(self) -> float:
        """The share of the board ranked at or below this rank (:func:`standings.percentile`)."""
        return standings.percentile(self.rank, self.players)

    @property
    def better_than(self) -> float:
        """The share of the board with a lower total (:func:`standings.better_than`)."""
        return standings.better_than(self.lower, self.players)

    @property
    def top(self) -> float:
        """The share of the board ranked at or above this rank (:func:`standings.top_share`)."""
        return standings.top_share(self.rank, self.players)

    @property
    def tied(self) -> int:
        """The results sharing this rank, this one included (1: no tie)."""
        return max(1, self.players - self.lower - self.rank + 1)

    def to_json(self) -> dict[str, Any]:
        """``{"rank", "percentile", "score", "better_than", "top", "tied", "game_id"}``:
        the API's ``me`` (``game_id`` tells your row from others of the same rank)."""
        return {"rank": self.rank, "percentile": self.percentile, "score": self.score,
                "better_than": self.better_than, "top": self.top, "tied": self.tied,
                "game_id": self.game_id}


#: Lua function ``record_board(k, a)``: k = rank entries players hist logs frozen keys,
#: a = game_id player_id sort_key entry_json bin log_text. Returns 1 (recorded), 0 (the
#: game is on the board already), -1 (board frozen) or -2 (the player has another game).
#: The results consumer (:mod:`daily.service.results.stream`) composes it with the
#: statistics function into one script.
BOARD_LUA = """
local function record_board(k, a)
  if redis.call('HEXISTS', k[2], a[1]) == 1 then return 0 end
  if redis.call('EXISTS', k[6]) == 1 then return -1 end
  local other = redis.call('HGET', k[3], a[2])
  if other and other ~= a[1] then return -2 end
  redis.call('ZADD', k[1], a[3], a[1])
  redis.call('HSET', k[2], a[1], a[4])
  redis.call('HSET', k[3], a[2], a[1])
  redis.call('HINCRBY', k[4], a[5], 1)
  if a[6] ~= '' then redis.call('HSET', k[5], a[1], a[6]) end
  return 1
end
"""
#: The board script alone (KEYS and ARGV as for ``record_board``).
BOARD_RECORD = BOARD_LUA + "return record_board(KEYS, ARGV)\n"

# KEYS: rank entries players hist logs   ARGV: game_id bin_width
#   -> 1 (taken off) | 0 (not on the board)
BOARD_REMOVE = """
local raw = redis.call('HGET', KEYS[2], ARGV[1])
if not raw then return 0 end
local entry = cjson.decode(raw)
local bin = math.floor(tonumber(entry['t']) / tonumber(ARGV[2])) * tonumber(ARGV[2])
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
if redis.call('HGET', KEYS[3], entry['p']) == ARGV[1] then
  redis.call('HDEL', KEYS[3], entry['p'])
end
if redis.call('HINCRBY', KEYS[4], string.format('%d', bin), -1) <= 0 then
  redis.call('HDEL', KEYS[4], string.format('%d', bin))
end
redis.call('HDEL', KEYS[5], ARGV[1])
return 1
"""


#: Lua function ``counts(key, score)``: how many entries of the ranking ``key`` have a
#: higher total than an entry of sort key ``score``, and how many a lower one (each
#: total is one band of 2**32 sort keys, see :func:`sort_key`).
_COUNTS = """
local function counts(key, score)
  local band = math.floor(tonumber(score) / 4294967296)
  local low = string.format('%.0f', band * 4294967296)
  local high = string.format('%.0f', (band + 1) * 4294967296)
  return redis.call('ZCOUNT', key, '-inf', '(' .. low), redis.call('ZCOUNT', key, high, '+inf')
end
"""

# KEYS: rank entries players   ARGV: player_id game_id (one of them "")
#   -> {higher, players, entry, game_id, lower} | nil
_STANDING = _COUNTS + """
local game = ARGV[2]
if game == '' then
  game = redis.call('HGET', KEYS[3], ARGV[1])
  if not game then return false end
end
local score = redis.call('ZSCORE', KEYS[1], game)
if not score then return false end
local higher, lower = counts(KEYS[1], score)
return {higher, redis.call('ZCARD', KEYS[1]), redis.call('HGET', KEYS[2], game), game, lower}
"""

# KEYS: rank entries players   ARGV: player_id radius
#   -> {start0, ids, entries, higher than the first} | nil
_AROUND = _COUNTS + """
local game = redis.call('HGET', KEYS[3], ARGV[1])
if not game then return false end
local rank = redis.call('ZRANK', KEYS[1], game)
if not rank then return false end
local start = math.max(rank - tonumber(ARGV[2]), 0)
local ids = redis.call('ZRANGE', KEYS[1], start, rank + tonumber(ARGV[2]))
local higher = counts(KEYS[1], redis.call('ZSCORE', KEYS[1], ids[1]))
return {start, ids, redis.call('HMGET', KEYS[2], unpack(ids)), higher}
"""


class Leaderboard:
    """The board of one (date, ruleset) on a Redis connection.

    >>> board = Leaderboard(None, "2026-11-29", "kniffel", prefix="t:")  # type: ignore[arg-type]
    >>> board.ruleset, board.key("rank")
    ('yahtzee', 't:lb:{2026-11-29:yahtzee}:rank')
    """

    def __init__(
        self, conn: redis.Redis, date: dt.date | str, ruleset: str, *, prefix: str = "dd:"
    ) -> None:
        self.conn = conn
        self.date = parse_date(date)
        self.ruleset = canonical_name(ruleset)
        self.prefix = prefix

    def key(self, part: str) -> str:
        """The Redis key of one part of this board (see the module docstring)."""
        return keymap.board(self.prefix, self.date, self.ruleset, part)

    def record_keys(self) -> list[str]:
        """The keys of :data:`BOARD_LUA`, in its order."""
        return [self.key(p) for p in ("rank", "entries", "players", "hist", "logs", "frozen")]

    # -- writing -------------------------------------------------------------

    def record_args(self, result: Result) -> list[Any]:
        """The arguments of :data:`BOARD_LUA` for ``result`` (which must be of this board)."""
        if (result.date, result.ruleset) != (self.date, self.ruleset):
            raise ResultError(
                f"belongs to {result.date} {result.ruleset}, not this board", field="game_id"
            )
        entry = json.dumps(
            {
                "p": result.player_id,
                "n": result.player_name,
                "t": result.total,
                "f": result.finished_at,
                "c": result.code,
            },
            separators=(",", ":"),
        )
        return [
            result.game_id,
            result.player_id,
            sort_key(result.total, result.finished_at, self.date),
            entry,
            result.total // BIN_WIDTH * BIN_WIDTH,
            result.log,
        ]

    def outcome(self, outcome: int, result: Result) -> str:
        """The name of :data:`BOARD_LUA`'s reply; raises on a refusal (-1, -2)."""
        if outcome == -1:
            raise BoardFrozenError(
                f"the board of {self.date} {self.ruleset} is frozen; game {result.game_id}"
                " arrived after the day closed",
                field="date",
            )
        if outcome == -2:
            raise DuplicatePlayerError(
                f"player {result.player_id} already has another game on {self.date}"
                f" {self.ruleset}",
                field="player_id",
            )
        return "recorded" if outcome == 1 else "already_recorded"

    def record(self, result: Result, *, allow_frozen: bool = False) -> str:
        """Put ``result`` on the board, atomically and idempotently.

        Returns ``"recorded"``, or ``"already_recorded"`` when the game id is on the
        board already (nothing changes). Raises :class:`BoardFrozenError` on a frozen
        board (unless ``allow_frozen``: a game cleared by review after the close) and
        :class:`DuplicatePlayerError` if the player has another game here.
        """
        script = self.conn.register_script(BOARD_RECORD)
        keys = self.record_keys()
        if allow_frozen:
            keys[-1] = self.key("never-frozen")  # a key that is never set
        outcome = script(keys=keys, args=self.record_args(result))
        return self.outcome(int(outcome), result)

    def record_many(self, results: Iterable[Result], batch: int = 1000) -> list[str]:
        """:meth:`record` for many results, pipelined in batches (rebuilds, benchmarks).

        Each result is still recorded by its own atomic script call; the first refused
        result raises after its batch was sent (the others of the batch stand).
        """
        script = self.conn.register_script(BOARD_RECORD)
        keys = self.record_keys()
        outcomes: list[str] = []
        pending: list[Result] = []

        def flush() -> None:
            with self.conn.pipeline(transaction=False) as pipe:
                for r in pending:
                    script(keys=keys, args=self.record_args(r), client=pipe)
                replies = pipe.execute()
            outcomes.extend(self.outcome(int(o), r) for o, r in zip(replies, pending, strict=True))
            pending.clear()

        for result in results:
            pending.append(result)
            if len(pending) >= batch:
                flush()
        if pending:
            flush()
        return outcomes

    def remove(self, game_id: str) -> bool:
        """Take a game off the board (the close-time re-check holds it for review),
        atomically and idempotently: its ranking, entry, player index, histogram bin and
        move log. False when it is not on the board (nothing changes). A frozen board is
        not refused: the re-check runs before the freeze, and a rerun after a crash
        between its steps must finish."""
        script = self.conn.register_script(BOARD_REMOVE)
        keys = [self.key(p) for p in ("rank", "entries", "players", "hist", "logs")]
        return bool(script(keys=keys, args=[game_id, BIN_WIDTH]))

    def result_of(self, game_id: str) -> Result | None:
        """The result of a game on the board, from its entry and move log (None when it
        is not on the board)."""
        with self.conn.pipeline(transaction=False) as pipe:
            pipe.hget(self.key("entries"), game_id)
            pipe.hget(self.key("logs"), game_id)
            raw, text = pipe.execute()
        if raw is None:
            return None
        obj = json.loads(raw)
        return Result(game_id, str(obj["p"]), str(obj.get("n") or ""), self.date,
                      self.ruleset, int(obj["t"]), float(obj["f"]), str(obj.get("c") or ""),
                      as_text(text) if text is not None else "")

    def freeze(self, at: float) -> bool:
        """Freeze the board at epoch seconds ``at``; False if it was frozen already."""
        return bool(self.conn.set(self.key("frozen"), repr(at), nx=True))

    def clear(self) -> None:
        """Delete every key of this board (used by a rebuild)."""
        self.conn.delete(*self.record_keys(), self.key("final"))

    # -- reading -------------------------------------------------------------

    def frozen(self) -> bool:
        """Whether the day is closed and the board final."""
        return bool(self.conn.exists(self.key("frozen")))

    def players(self) -> int:
        """The live number of players on the board."""
        return int(self.conn.zcard(self.key("rank")))

    def _rows(self, start: int, stop: int) -> list[Entry]:
        found: list[tuple[bytes, float]] = self.conn.zrange(  # type: ignore[assignment]
            self.key("rank"), start, stop, withscores=True)
        if not found:
            return []
        ids = [as_text(i) for i, _ in found]
        higher = 0
        if start > 0:  # the entries above the page with a higher total than its first
            band = band_of(found[0][1])
            higher = int(self.conn.zcount(self.key("rank"), "-inf", f"({band << _TIME_BITS}"))
        return self._entries(start, ids, self.conn.hmget(self.key("entries"), ids), higher)

    @staticmethod
    def _entries(start: int, ids: list[str], blobs: list[Any], higher: int) -> list[Entry]:
        """The rows of a page of the ranking that starts at 0-based ``start``, whose first
        entry has ``higher`` entries with a higher total; ranked by :mod:`daily.standings`
        (ranks depend on totals only, so a page ranks like the whole board)."""
        parsed = []
        for game_id, blob in zip(ids, blobs, strict=True):
            if blob is None:  # cannot happen: both are written by one script
                raise StateError(f"board entry {game_id} has no data", field="game_id")
            parsed.append((game_id, json.loads(blob)))
        ranked = standings.standings((g, e["t"], e["f"]) for g, e in parsed)
        local = {row.game_id: row.rank for row in ranked}
        rows = []
        for game_id, e in parsed:
            # tied with the page's first entry: that entry's rank; else one more than
            # the entries above the page and above it in the page
            rank = higher + 1 if local[game_id] == 1 else start + local[game_id]
            rows.append(Entry(rank, game_id, e["p"], e["n"], e["t"], e["f"], e["c"]))
        return rows

    def top(self, n: int = 100) -> list[Entry]:
        """The best ``n`` rows, rank 1 first."""
        if n <= 0:
            return []
        return self._rows(0, n - 1)

    def page(self, start_rank: int, count: int) -> list[Entry]:
        """``count`` rows starting at rank ``start_rank`` (1-based)."""
        if start_rank < 1 or count <= 0:
            return []
        return self._rows(start_rank - 1, start_rank - 2 + count)

    def game_of(self, player_id: str) -> str | None:
        """The game id the player has on this board, if any."""
        raw = self.conn.hget(self.key("players"), player_id)
        return as_text(raw) if raw is not None else None

    def _standing(self, player_id: str, game_id: str) -> Standing | None:
        keys = [self.key("rank"), self.key("entries"), self.key("players")]
        reply = self.conn.register_script(_STANDING)(keys=keys, args=[player_id, game_id])
        if not reply:
            return None
        higher, players, blob, game, lower = reply
        return Standing(int(higher) + 1, int(players), int(lower), json.loads(blob)["t"],
                        as_text(game))

    def standing_of_game(self, game_id: str) -> Standing | None:
        """The standing of ``game_id``, or None if it is not on the board (one round
        trip: a read-only script)."""
        return self._standing("", game_id)

    def standing(self, player_id: str) -> Standing | None:
        """The player's place on the board, or None if they have no game on it.

        One round trip (a read-only script).
        """
        return self._standing(player_id, "")

    def around(self, player_id: str, radius: int = AROUND_RADIUS) -> list[Entry]:
        """The rows from ``radius`` places above the player to ``radius`` below (or []).

        One round trip (a read-only script).
        """
        keys = [self.key("rank"), self.key("entries"), self.key("players")]
        reply = self.conn.register_script(_AROUND)(keys=keys, args=[player_id, max(radius, 0)])
        if not reply:
            return []
        start, ids, blobs, higher = reply
        return self._entries(int(start), [as_text(i) for i in ids], blobs, int(higher))

    def histogram(self) -> dict[str, Any]:
        """``{"bin_width": 10, "bins": [{"from", "to", "count"}, ...]}``, low bins first."""
        raw = self.conn.hgetall(self.key("hist"))
        bins = sorted((int(k), int(v)) for k, v in raw.items())
        return {
            "bin_width": BIN_WIDTH,
            "bins": [{"from": b, "to": b + BIN_WIDTH - 1, "count": c} for b, c in bins if c],
        }

    def final_stats(self) -> dict[str, Any] | None:
        """The statistics computed when the day was rolled over, if it was."""
        raw = self.conn.get(self.key("final"))
        return json.loads(raw) if raw is not None else None

    def compute_final_stats(self) -> dict[str, Any]:
        """Players, mean, median, best and worst score and histogram of the board.

        Reads the whole board (a few seconds for a million entries); called once per
        day by the rollover, which stores it with :meth:`store_final_stats`.
        """
        totals = [e["t"] for e in self._scan_entries()]
        totals.sort()
        n = len(totals)
        median: float | None = None
        if n:
            mid = n // 2
            median = float(totals[mid]) if n % 2 else (totals[mid - 1] + totals[mid]) / 2
        return {
            "date": self.date.isoformat(),
            "ruleset": self.ruleset,
            "players": n,
            "mean": round(sum(totals) / n, 2) if n else None,
            "median": median,
            "best": totals[-1] if n else None,
            "worst": totals[0] if n else None,
            "histogram": self.histogram(),
        }

    def store_final_stats(self, stats: Mapping[str, Any]) -> None:
        """Keep the final statistics with the board."""
        self.conn.set(self.key("final"), json.dumps(stats, separators=(",", ":")))

    def _scan_entries(self) -> Iterable[dict[str, Any]]:
        for _field, blob in self.conn.hscan_iter(self.key("entries"), count=1000):
            yield json.loads(blob)

    def iter_results(self, batch: int = 1000) -> Iterable[tuple[Entry, str]]:
        """Every row in rank order with its move log text, read in batches."""
        start = 0
        while True:
            rows = self._rows(start, start + batch - 1)
            if not rows:
                return
            logs = self.conn.hmget(self.key("logs"), [r.game_id for r in rows])
            for row, log in zip(rows, logs, strict=True):
                yield row, (as_text(log) if log is not None else "")
            start += batch

    def view(
        self, limit: int = 100, player_id: str | None = None,
        names: Callable[[list[str]], Mapping[str, str]] | None = None,
        top: list[Entry] | None = None,
    ) -> dict[str, Any]:
        """The API's leaderboard object (without ``par``, which the API adds).

        ``{"date", "ruleset", "frozen", "players", "top", "me", "around", "histogram"}``;
        ``me`` is None and ``around`` empty when ``player_id`` has no game here.
        ``names(player ids)`` gives the players' current names (one round trip), so a
        rename shows at once; a player it does not know keeps the name of the entry.
        ``top``: the rows of the top when the caller chose them (the public top of
        :mod:`daily.service.players.standing`), else the best ``limit``.
        """
        me = self.standing(player_id) if player_id else None
        top = self.top(limit) if top is None else top
        around = self.around(player_id) if me and player_id else []
        current: Mapping[str, str] = {}
        if names is not None and (top or around):
            current = names(sorted({e.player_id for e in (*top, *around)}))
        return {
            "date": self.date.isoformat(),
            "ruleset": self.ruleset,
            "frozen": self.frozen(),
            "players": self.players(),
            "top": [e.to_json(current.get(e.player_id)) for e in top],
            "me": me.to_json() if me else None,
            "around": [e.to_json(current.get(e.player_id)) for e in around],
            "histogram": self.histogram(),
        }
