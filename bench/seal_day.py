"""The service's close of a day: sealing the results log of a board in Redis.

Usage: ``python bench/seal_day.py --redis-url redis://127.0.0.1:6379/9 [--games 100000]``
(the database is flushed first, and again at the end).

It stores ``--games`` finished ranked games as the finish does (each game record with
its receipt, the board entry through the board's own script), freezes the board, then
times :meth:`daily.service.audit.day_log.DayLog.seal`: the records read back (pipelined),
the leaves, their canonical order, the chunks, hashes and index written, the tree and
the signed head, and the two files beside the archive. Figures: CPU and wall seconds of
the seal, per 1,000 games and extrapolated linearly to 1,000,000 (the work is linear:
reads, hashing, one sort), the peak resident memory of this process, and the Redis
memory of the stored log per game (``MEMORY USAGE`` of its keys). Best of ``--rounds``
seals of fresh copies (a seal of a sealed day does nothing), with the spread.
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import benchjson
import redis
from benchjson import figure

from daily import calendar
from daily.movelog import MoveLog
from daily.randomplay import random_game
from daily.rules import get_ruleset
from daily.service import keymap
from daily.service.audit.day_log import DayLog
from daily.service.audit.receipts import receipt_of
from daily.service.config import load_config
from daily.service.days.keyring import Keyring, init_keys
from daily.service.games.record import GameRecord
from daily.service.results.leaderboard import Leaderboard
from daily.service.results.result import Result

DATE = dt.date(2026, 11, 29)
RULESET = "yahtzee"


def fill(conn: redis.Redis, keyring: Keyring, prefix: str, games: int) -> None:
    """``games`` finished ranked games of the day: records with receipts, board entries."""
    rules = get_ruleset(RULESET)
    rng = random.Random(7)
    seed = keyring.day_seed(RULESET, DATE)
    logs = []
    for _ in range(50):  # a few real logs, shared (their text is all the seal reads)
        game = random_game(rules, seed, rng)
        logs.append((MoveLog.of_game(game, day=DATE).to_text(), game.card.total))
    opens = calendar.opens_at(DATE).timestamp()
    board = Leaderboard(conn, DATE, RULESET, prefix=prefix)
    batch: list[Result] = []
    with conn.pipeline(transaction=False) as pipe:
        for n in range(games):
            log, total = logs[n % len(logs)]
            record = GameRecord(
                v=26, id=f"g_{n:020d}", player=f"p_{n:08d}", mode="ranked", ruleset=RULESET,
                options={}, date=DATE.isoformat(), log=log, created="",
                finished_at=opens + 1 + n * 0.05, code=f"DD-{n:010d}", total=total)
            record.receipt = receipt_of(keyring, record)
            pipe.set(keymap.game(prefix, record.id), record.dumps())
            pipe.hset(keymap.account(prefix, record.player), "name", f"Player {n}")
            batch.append(Result(record.id, record.player, "", DATE, RULESET, total,
                                record.finished_at or 0.0, record.code or "", log))
            if len(batch) == 2000:
                pipe.execute()
                board.record_many(batch)
                batch = []
        pipe.execute()
        board.record_many(batch)
    board.freeze(time.time())


def audit_bytes(conn: redis.Redis, day_log: DayLog) -> int:
    """Redis memory of the stored log."""
    return sum(int(conn.memory_usage(day_log.key(part), samples=0) or 0)
               for part in ("heads", "hashes", "log", "index"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--redis-url", required=True)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    data = Path(tempfile.mkdtemp())
    config = load_config({"REDIS_URL": args.redis_url, "DAILY_DATA_DIR": str(data),
                          "DAILY_KEY_PREFIX": "bench:"})
    init_keys(config.keys_dir)
    keyring = Keyring.load(config)
    conn = redis.Redis.from_url(args.redis_url)
    conn.flushdb()
    print(f"storing {args.games:,} finished games...", file=sys.stderr)
    fill(conn, keyring, config.key_prefix, args.games)
    day_log = DayLog(conn, config, DATE, RULESET)
    now = calendar.books_close_at(DATE) + dt.timedelta(minutes=1)
    cpu, wall = [], []
    for round_ in range(args.rounds):
        for part in ("heads", "hashes", "log", "index"):
            conn.delete(day_log.key(part))
        c0, w0 = time.process_time(), time.perf_counter()
        sealed = day_log.seal(keyring, now)
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
        assert sealed["size"] == args.games, sealed
        print(f"round {round_ + 1}: {cpu[-1]:.2f} CPU s, {wall[-1]:.2f} s", file=sys.stderr)
    per_game = audit_bytes(conn, day_log) / args.games
    conn.flushdb()
    scale = 1_000_000 / args.games
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    figures = {
        "seal_cpu_s": figure(round(min(cpu), 2), "s", min=round(min(cpu), 2),
                             max=round(max(cpu), 2), rounds=args.rounds, games=args.games),
        "seal_wall_s": figure(round(min(wall), 2), "s", min=round(min(wall), 2),
                              max=round(max(wall), 2), rounds=args.rounds),
        "seal_cpu_s_per_million": figure(round(min(cpu) * scale, 1), "s",
                                         method="linear extrapolation"),
        "seal_wall_s_per_million": figure(round(min(wall) * scale, 1), "s",
                                          method="linear extrapolation"),
        "peak_rss_mb": figure(round(peak_mb), "MB", games=args.games),
        "redis_bytes_per_game": figure(round(per_game), "bytes"),
    }
    benchjson.record("seal_day", figures)
    for name, value in figures.items():
        print(f"{name}: {value['value']} {value['unit']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
