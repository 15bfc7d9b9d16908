"""Leaderboard query latency and Redis memory per entry on one big board.

Fills one (date, ruleset) board with N players (default 1,000,000) through the real
record script, then times, from a client on loopback, over random players:

* ``rank``: :meth:`Leaderboard.standing` (player -> game, then rank, size, score);
* ``around``: :meth:`Leaderboard.around` (the 11 rows around the player);
* ``top100``: :meth:`Leaderboard.top`;
* ``view``: the whole API object (top 100, me, around, histogram);
* ``public100``: the public top of 100 (:mod:`daily.service.players.standing`: the
  standing of each game read), every other player of the first 400 rows standing (days
  of play and a passkey), the others provisional;

and reports Redis memory per entry (``MEMORY USAGE`` of each board key / N, and the
server's ``used_memory`` growth). Runs its own Valkey server in a temporary directory
(AOF everysec, as in production) unless ``--url`` names a Redis; then it uses the key
prefix ``bench:`` and deletes its keys afterwards.

    .venv/bin/python bench/leaderboard_queries.py               # 1,000,000 players
    .venv/bin/python bench/leaderboard_queries.py --players 100000 --samples 2000
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import nullcontext
from pathlib import Path

import redis

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import benchjson  # noqa: E402
from benchjson import figure  # noqa: E402

from daily import calendar  # noqa: E402
from daily.game import Game  # noqa: E402
from daily.movelog import MoveLog  # noqa: E402
from daily.rules import get_ruleset  # noqa: E402
from daily.service.keymap import passkeys  # noqa: E402
from daily.service.ops.embedded import valkey_server  # noqa: E402
from daily.service.players.standing import Policy, PublicStanding  # noqa: E402
from daily.service.results.leaderboard import Leaderboard  # noqa: E402
from daily.service.results.result import Result  # noqa: E402
from daily.service.results.stats import record_keys  # noqa: E402

DATE = dt.date(2026, 11, 29)
PREFIX = "bench:"


def sample_log() -> str:
    """A real finished Yahtzee log (simple policy: keep the first two dice, score first legal)."""
    rules = get_ruleset("yahtzee")
    game = Game.from_seed(rules, bytes(range(32)))
    while not game.over:
        while game.rolls_left:
            game.reroll("11000")
        options = game.choices()
        game.score(options.legal()[0].box)
    return MoveLog.of_game(game, day=DATE).to_text()


def fill(board: Leaderboard, players: int, log: str) -> float:
    opens = calendar.opens_at(DATE).timestamp()
    rng = random.Random(7)

    def results() -> Iterator[Result]:
        for n in range(players):
            if n and n % 100_000 == 0:
                print(f"  recording {n:,}/{players:,}", file=sys.stderr, flush=True)
            total = max(0, min(1575, int(rng.gauss(230, 40))))
            yield Result(
                f"g_{n:08x}", f"p_{n:08x}", f"Player{n}", DATE, "yahtzee", total,
                opens + rng.uniform(0, 180_000), f"DD-{n:010X}", log,
            )

    started = time.perf_counter()
    board.record_many(results(), batch=2000)
    return time.perf_counter() - started


#: While the board's date is open.
NOW = dt.datetime(2026, 11, 29, 11, 0, tzinfo=dt.UTC)
#: The players given days of play and a passkey (see :func:`give_standing`).
board_rows: list[str] = []


def give_standing(conn: redis.Redis, board: Leaderboard) -> PublicStanding:
    """Every other player of the first 400 rows stands: 8 days of play and a passkey."""
    board_rows[:] = [e.player_id for e in board.top(400)[::2]]
    with conn.pipeline(transaction=False) as pipe:
        for player in board_rows:
            pipe.zadd(record_keys(player, prefix=PREFIX)[3],
                      {f"2026-11-{d:02d}": dt.date(2026, 11, d).toordinal() for d in range(1, 9)})
            pipe.hset(passkeys(PREFIX, player), "Y3JlZA", "{}")
        pipe.execute()
    return PublicStanding(conn, PREFIX, Policy(7, True))


def timed(samples: int, call: Callable[[], object]) -> dict[str, float]:
    times = []
    for _ in range(samples):
        t0 = time.perf_counter()
        call()
        times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    return {
        "p50": statistics.median(times),
        "p99": times[int(len(times) * 0.99) - 1],
        "max": times[-1],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=1_000_000)
    parser.add_argument("--samples", type=int, default=5000)
    parser.add_argument("--url", help="use this Redis (prefix bench:, cleaned up) instead")
    args = parser.parse_args()
    tmp = tempfile.TemporaryDirectory(prefix="dd-bench-")
    server = nullcontext(args.url) if args.url else valkey_server(Path(tmp.name) / "valkey")
    with server as url:
        conn = redis.Redis.from_url(url)
        board = Leaderboard(conn, DATE, "yahtzee", prefix=PREFIX)
        board.clear()
        log = sample_log()
        mem_before = conn.info("memory")["used_memory"]
        seconds = fill(board, args.players, log)
        mem_after = conn.info("memory")["used_memory"]
        n = board.players()
        print(f"board: {n:,} players, filled in {seconds:.1f} s ({n / seconds:,.0f} records/s,"
              " pipelined record script)")
        standing = give_standing(conn, board)
        conn.config_resetstat()
        rng = random.Random(11)
        ids = [f"p_{rng.randrange(n):08x}" for _ in range(args.samples)]
        it = iter(ids * 4)
        rows = {
            "rank (standing)": timed(args.samples, lambda: board.standing(next(it))),
            "around (11 rows)": timed(args.samples, lambda: board.around(next(it))),
            "top 100": timed(min(args.samples, 1000), lambda: board.top(100)),
            "view (API object)": timed(min(args.samples, 1000),
                                       lambda: board.view(100, next(it))),
            "public top 100": timed(min(args.samples, 1000),
                                    lambda: standing.public_top(board, 100, NOW)),
        }
        print(f"latency over loopback, ms ({args.samples} random players):")
        for name, r in rows.items():
            print(f"  {name:<18} p50 {r['p50']:.3f}  p99 {r['p99']:.3f}  max {r['max']:.3f}")
        stats = conn.info("commandstats")
        print("server time per command (INFO commandstats, microseconds):")
        for name in ("cmdstat_evalsha", "cmdstat_zrange", "cmdstat_hmget"):
            if name in stats:
                print(f"  {name.removeprefix('cmdstat_'):<8} {stats[name]['usec_per_call']:.1f}"
                      f" per call over {stats[name]['calls']:,} calls")
        print("Redis memory per entry (MEMORY USAGE / players):")
        total = 0
        for part in ("rank", "entries", "players", "hist", "logs"):
            used = conn.memory_usage(board.key(part), samples=0) or 0
            total += used
            print(f"  {part:<8} {used / n:7.1f} bytes")
        print(f"  total    {total / n:7.1f} bytes  (log kept until archived: compact text"
              f" of {len(log)} chars)")
        print(f"  used_memory growth {(mem_after - mem_before) / n:.1f} bytes/entry")
        board.clear()
        for entry in board_rows:
            conn.delete(record_keys(entry, prefix=PREFIX)[3], passkeys(PREFIX, entry))
        conn.close()
    tmp.cleanup()
    figures = {"fill": figure(round(n / seconds), "records/s")}
    for name, key in (("rank (standing)", "rank"), ("around (11 rows)", "around"),
                      ("top 100", "top100"), ("view (API object)", "view"),
                      ("public top 100", "public100")):
        figures[f"{key}_p50"] = figure(round(rows[name]["p50"], 3), "ms")
        figures[f"{key}_p99"] = figure(round(rows[name]["p99"], 3), "ms",
                                       max=round(rows[name]["max"], 3))
    figures["bytes_per_entry"] = figure(round(total / n), "bytes")
    figures["used_memory_per_entry"] = figure(round((mem_after - mem_before) / n), "bytes")
    suffix = "" if args.players == 1_000_000 else f"-{args.players}"
    benchjson.record(f"leaderboard_queries{suffix}", figures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
