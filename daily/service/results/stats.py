"""Per-player statistics of ranked daily games: games, average, best and streaks.

Only ranked games of the daily sets count (the workers record them when a ranked game
finishes). ``average`` is the mean total over all those games, rounded to one decimal;
``best`` the highest total; ``by_ruleset`` gives the same three per ruleset (a Maxi
Yatzy score is not comparable with a Yahtzee score).

Daily streaks
-------------
A date *counts* when the player finished a ranked game of any daily ruleset for that
date (the game's date, not the UTC day it was played on). A streak is a run of
consecutive counting dates.

* ``longest_streak``: the longest run ever.
* ``current_streak``: the run that ends at the player's latest counting date ``L``,
  provided the streak can still be extended, i.e. the date ``L + 1`` is not yet closed
  (``daily.calendar.status(L + 1, now) != "revealed"``, equivalently
  ``L >= last_revealed(now)``); otherwise 0. Because up to three dates are open at once,
  a player who played the 28th and the 30th has a current streak of 1 until they also
  play the 29th (while it is open), which joins the run into 3.

Days of play
------------
A player's *days of play* (:func:`play_day`) are the days of the service clock on
which they finished a ranked game: the date that opened last at the finish, so that
the three dates open at one moment count once. They come from the game's
``finished_at`` (the service clock's time), so a rebuild from the archive records the
same days; :func:`ranked_days` counts them (up to a day) and gives the first.
:mod:`daily.service.players.standing` makes a player provisional until they have
``DAILY_PROVISIONAL_DAYS`` of them.

Recording is idempotent by game id (one Lua script: the game's row is added with
HSETNX and the counters move only if it was new). The keys expire with the player's
account: the results consumer passes ``DAILY_PLAYER_DAYS`` in seconds to the script,
and :class:`daily.service.players.accounts.Players` renews them with the account on each day of
use.

Redis keys (``P`` = prefix; the ``{player}`` hash tag keeps a player in one slot)::

    P player:{ID}:games  HASH  game id -> JSON {"date","ruleset","total","code","finished_at"}
    P player:{ID}:agg    HASH  games, sum, best, and games:R, sum:R, best:R per ruleset
    P player:{ID}:days   ZSET  date (YYYY-MM-DD) -> proleptic ordinal
    P player:{ID}:played ZSET  day of play (YYYY-MM-DD, :func:`play_day`) -> ordinal

>>> import datetime as dt
>>> d = dt.date(2026, 11, 29)
>>> now = dt.datetime(2026, 11, 30, 0, 0, tzinfo=dt.UTC)   # 28, 29, 30 ... open
>>> streaks([d - dt.timedelta(days=k) for k in range(4)] + [dt.date(2026, 10, 1)], now)
(4, 4)
>>> streaks([dt.date(2026, 11, 20)], now)
(0, 1)
"""

from __future__ import annotations

import datetime as dt
import itertools
import json
from collections.abc import Iterable
from typing import Any

import redis

from daily import calendar
from daily.service import keymap
from daily.service.connections import as_text
from daily.service.results.result import Result

#: Lua function ``record_stats(k, a)``: k = games agg days played keys, a = game_id
#: row_json total ruleset date ordinal play_day play_ordinal [ttl]. Returns 1 if the game
#: was counted now, 0 if it was already.
#: The results consumer (:mod:`daily.service.results.stream`) composes it with the
#: board's function into one script.
STATS_LUA = """
local function record_stats(k, a)
  if redis.call('HSETNX', k[1], a[1], a[2]) == 0 then return 0 end
  local total = tonumber(a[3])
  redis.call('HINCRBY', k[2], 'games', 1)
  redis.call('HINCRBY', k[2], 'sum', total)
  redis.call('HINCRBY', k[2], 'games:' .. a[4], 1)
  redis.call('HINCRBY', k[2], 'sum:' .. a[4], total)
  for _, field in ipairs({'best', 'best:' .. a[4]}) do
    local best = tonumber(redis.call('HGET', k[2], field) or '-1')
    if total > best then redis.call('HSET', k[2], field, total) end
  end
  redis.call('ZADD', k[3], a[6], a[5])
  redis.call('ZADD', k[4], a[8], a[7])
  if a[9] then
    for i = 1, 4 do redis.call('EXPIRE', k[i], a[9]) end
  end
  return 1
end
"""
#: The statistics script alone (KEYS and ARGV as for ``record_stats``).
STATS_RECORD = STATS_LUA + "return record_stats(KEYS, ARGV)\n"


def _keys(prefix: str, player_id: str) -> list[str]:
    return [keymap.player_stats(prefix, player_id, part)
            for part in ("games", "agg", "days", "played")]


def play_day(moment: float | dt.datetime) -> dt.date:
    """The day of play of an instant (epoch seconds or an aware time): the date that
    opened last by then (dates open at midnight UTC+14), so that the dates open at one
    moment are one day of play.

    >>> play_day(dt.datetime(2026, 11, 29, 9, 59, tzinfo=dt.UTC)).isoformat()
    '2026-11-29'
    >>> play_day(dt.datetime(2026, 11, 29, 10, 0, tzinfo=dt.UTC)).isoformat()
    '2026-11-30'
    """
    if not isinstance(moment, dt.datetime):
        moment = dt.datetime.fromtimestamp(moment, dt.UTC)
    return (moment.astimezone(dt.UTC) + calendar.EARLIEST_OFFSET).date()


def ranked_days(
    conn: redis.Redis, player_id: str, *, prefix: str = "dd:", until: dt.date | None = None,
) -> tuple[int, dt.date | None]:
    """``(days, first)``: how many days of play the player has (up to the day of play
    ``until``, if given) and the first of them (None before any ranked game)."""
    key = _keys(prefix, player_id)[3]
    with conn.pipeline(transaction=False) as pipe:
        pipe.zcount(key, "-inf", until.toordinal() if until else "+inf")
        pipe.zrange(key, 0, 0)
        count, first = pipe.execute()
    return int(count), (dt.date.fromisoformat(as_text(first[0])) if first else None)


def streaks(dates: Iterable[dt.date], now: dt.datetime) -> tuple[int, int]:
    """``(current, longest)`` daily streaks over the counting ``dates`` at ``now``.

    >>> now = dt.datetime(2026, 11, 29, 13, 0, tzinfo=dt.UTC)  # 28th closed at 12:00
    >>> streaks([dt.date(2026, 11, 27), dt.date(2026, 11, 28)], now)  # the 29th is open
    (2, 2)
    >>> streaks([dt.date(2026, 11, 26), dt.date(2026, 11, 27)], now)  # the 28th closed
    (0, 2)
    >>> streaks([dt.date(2026, 11, 28), dt.date(2026, 11, 30)], now)
    (1, 1)
    >>> streaks([], now)
    (0, 0)
    """
    ordered = sorted(set(dates))
    if not ordered:
        return 0, 0
    longest = run = 1
    for prev, cur in itertools.pairwise(ordered):
        run = run + 1 if (cur - prev).days == 1 else 1
        longest = max(longest, run)
    last = ordered[-1]
    alive = calendar.status(last + dt.timedelta(days=1), now) != "revealed"
    return (run if alive else 0), longest


def record_keys(player_id: str, *, prefix: str = "dd:") -> list[str]:
    """The keys of :data:`STATS_LUA` for a player.

    >>> record_keys("p_1", prefix="t:")[1]
    't:player:{p_1}:agg'
    """
    return _keys(prefix, player_id)


def record_args(result: Result) -> list[Any]:
    """The arguments of :data:`STATS_LUA` for ``result``."""
    row = json.dumps(
        {
            "date": result.date.isoformat(),
            "ruleset": result.ruleset,
            "total": result.total,
            "code": result.code,
            "finished_at": result.finished_at,
        },
        separators=(",", ":"),
    )
    date = result.date.isoformat()
    played = play_day(result.finished_at)
    return [result.game_id, row, result.total, result.ruleset, date, result.date.toordinal(),
            played.isoformat(), played.toordinal()]


def record_game(conn: redis.Redis, result: Result, *, prefix: str = "dd:") -> bool:
    """Count a finished ranked game in the player's statistics; False if already counted."""
    script = conn.register_script(STATS_RECORD)
    added = script(keys=_keys(prefix, result.player_id), args=record_args(result))
    return added == 1


def _average(total: int, games: int) -> float | None:
    return round(total / games, 1) if games else None


def player_stats(
    conn: redis.Redis, player_id: str, now: dt.datetime | None = None, *, prefix: str = "dd:"
) -> dict[str, Any]:
    """``{"games","average","best","current_streak","longest_streak","by_ruleset"}``.

    ``average`` and ``best`` are None before the first game (the days of play:
    :func:`ranked_days`).
    """
    now = now or dt.datetime.now(dt.UTC)
    _games_key, agg_key, days_key, _played = _keys(prefix, player_id)
    with conn.pipeline(transaction=False) as pipe:
        pipe.hgetall(agg_key)
        pipe.zrange(days_key, 0, -1)
        raw_agg, raw_days = pipe.execute()
    agg = {as_text(k): int(v) for k, v in raw_agg.items()}
    current, longest = streaks((dt.date.fromisoformat(as_text(d)) for d in raw_days), now)
    by_ruleset = {}
    for field, games in agg.items():
        if field.startswith("games:"):
            name = field.removeprefix("games:")
            by_ruleset[name] = {
                "games": games,
                "average": _average(agg.get(f"sum:{name}", 0), games),
                "best": agg.get(f"best:{name}"),
            }
    games = agg.get("games", 0)
    return {
        "games": games,
        "average": _average(agg.get("sum", 0), games),
        "best": agg.get("best"),
        "current_streak": current,
        "longest_streak": longest,
        "by_ruleset": dict(sorted(by_ruleset.items())),
    }


def ranked_dates(conn: redis.Redis, player_id: str, *, prefix: str = "dd:") -> list[dt.date]:
    """The dates the player finished a ranked game of, oldest first (one read)."""
    raw: list[bytes] = conn.zrange(_keys(prefix, player_id)[2], 0, -1)  # type: ignore[assignment]
    return [dt.date.fromisoformat(as_text(d)) for d in raw]


def current_streak(
    conn: redis.Redis, player_id: str, now: dt.datetime, *, prefix: str = "dd:",
    also: dt.date | None = None,
) -> int:
    """The player's current daily streak at ``now`` (one read), counting the date
    ``also`` too (a game just finished that the workers may not have counted yet)."""
    found = ranked_dates(conn, player_id, prefix=prefix)
    if also is not None:
        found.append(also)
    return streaks(found, now)[0]


def player_history(
    conn: redis.Redis, player_id: str, *, prefix: str = "dd:", limit: int = 100
) -> list[dict[str, Any]]:
    """The player's ranked games, newest date first: ``[{"date","ruleset","total","code"}]``."""
    games_key = _keys(prefix, player_id)[0]
    rows = [json.loads(v) for v in conn.hvals(games_key)]
    rows.sort(key=lambda r: (r["date"], r["finished_at"]), reverse=True)
    return [
        {"date": r["date"], "ruleset": r["ruleset"], "total": r["total"], "code": r["code"]}
        for r in rows[:limit]
    ]
