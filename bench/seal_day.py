"""The service's close of a day: sealing the results log of a board in Redis.

Usage: ``python bench/seal_day.py --redis-url redis://127.0.0.1:6379/9 [--games 100000]
[--witnesses 2]`` (the database is flushed first, and again at the end).

A child process stores ``--games`` finished ranked games as the finish does (each game
record with its receipt, the board entry through the board's own script) and freezes
the board, so this process's memory is the close's. It starts ``--witnesses`` local
``daily witness serve`` processes that know the log, then times the close:
:meth:`daily.service.audit.day_log.DayLog.seal` (the records and names read back a
batch per round trip, the leaves, their canonical order, the chunks, hashes and index
written, the tree, the signed head and checkpoint, the files beside the archive) and
the cosign step (:func:`daily.service.audit.witnessing.submit_checkpoint`: each
witness's cosignature, as the job does). Figures: CPU (this process) and wall seconds
of the seal, of the cosign step and of both, extrapolated linearly to 1,000,000 games
when fewer are run (the work is linear: reads, hashing, one sort), the peak resident
memory of this process, and the Redis memory of the stored log per game (``MEMORY
USAGE`` of its keys). Best of ``--rounds`` closes of fresh copies (a seal of a sealed
day does nothing), with the spread.
"""

from __future__ import annotations

import argparse
import datetime as dt
import multiprocessing
import random
import resource
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import benchjson
import redis
from benchjson import figure

from daily import calendar
from daily.audit.c2sp.note import raw_public
from daily.movelog import MoveLog
from daily.randomplay import random_game
from daily.rules import get_ruleset
from daily.service import keymap
from daily.service.audit.checkpoints import DayCheckpoints, results_vkey
from daily.service.audit.day_log import DayLog
from daily.service.audit.receipts import receipt_of
from daily.service.audit.witnessing import submit_checkpoint
from daily.service.config import Config, load_config
from daily.service.days.keyring import Keyring, init_keys
from daily.service.games.record import GameRecord
from daily.service.ops.embedded import free_port
from daily.service.results.leaderboard import Leaderboard
from daily.service.results.result import Result

DAILY = [sys.executable, "-m", "daily"]

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


def fill_apart(config: Config, games: int) -> None:
    """:func:`fill` in a child process (its memory is not the close's)."""
    def run() -> None:
        fill(redis.Redis.from_url(config.redis_url or ""), Keyring.load(config),
             config.key_prefix, games)
    child = multiprocessing.get_context("fork").Process(target=run)
    child.start()
    child.join()
    if child.exitcode != 0:
        raise SystemExit(f"storing the games failed ({child.exitcode})")


def start_witnesses(base: Path, count: int, log_vkey: str) -> list[tuple[str, str,
                                                                           subprocess.Popen[bytes]]]:
    """``count`` local witnesses that know the log: ``(vkey, url, process)`` each."""
    found = []
    for n in range(count):
        folder = base / f"witness{n}"
        made = subprocess.run([*DAILY, "witness", "init", "--dir", str(folder), "--name",
                               f"witness{n}.bench/w"], capture_output=True, text=True,
                              check=True)
        vkey = made.stdout.strip().splitlines()[-1]
        subprocess.run([*DAILY, "witness", "add-log", "--dir", str(folder), "--vkey",
                        log_vkey], capture_output=True, check=True)
        port = free_port()
        process = subprocess.Popen([*DAILY, "witness", "serve", "--dir", str(folder),
                                    "--port", str(port)], stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
        url = f"http://127.0.0.1:{port}"
        for _ in range(300):
            try:
                urllib.request.urlopen(url + "/", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        found.append((vkey, url, process))
    return found


def audit_bytes(conn: redis.Redis, day_log: DayLog) -> int:
    """Redis memory of the stored log."""
    return sum(int(conn.memory_usage(day_log.key(part), samples=0) or 0)
               for part in ("heads", "hashes", "log", "index"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--redis-url", required=True)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--witnesses", type=int, default=2)
    args = parser.parse_args(argv)
    data = Path(tempfile.mkdtemp())
    env = {"REDIS_URL": args.redis_url, "DAILY_DATA_DIR": str(data),
           "DAILY_KEY_PREFIX": "bench:"}
    config = load_config(env)
    init_keys(config.keys_dir)
    keyring = Keyring.load(config)
    log_vkey = results_vkey(config, raw_public(keyring.results_signer(None)[1]))
    witnesses = start_witnesses(data, args.witnesses, log_vkey)
    try:
        config = load_config({**env, "DAILY_WITNESSES": ",".join(
            f"{vkey} {url}" for vkey, url, _ in witnesses)})
        conn = redis.Redis.from_url(args.redis_url)
        conn.flushdb(asynchronous=True)
        print(f"storing {args.games:,} finished games...", file=sys.stderr)
        fill_apart(config, args.games)
        figures = close_rounds(conn, config, keyring, args.games, args.rounds,
                               len(witnesses))
    finally:
        for _, _, process in witnesses:
            process.terminate()
            process.wait(timeout=20)
    benchjson.record("seal_day", figures)
    for name, value in figures.items():
        print(f"{name}: {value['value']} {value['unit']}")
    return 0


def close_rounds(conn: redis.Redis, config: Config, keyring: Keyring, games: int,
                 rounds: int, witnesses: int) -> dict[str, dict[str, object]]:
    """Time ``rounds`` closes of the stored day (each of a fresh copy); the figures."""
    day_log = DayLog(conn, config, DATE, RULESET)
    checkpoints = DayCheckpoints(conn, config, DATE, RULESET)
    now = calendar.books_close_at(DATE) + dt.timedelta(minutes=1)
    seal_cpu, seal_wall, cosign_cpu, cosign_wall = [], [], [], []
    for round_ in range(rounds):
        for part in ("heads", "hashes", "log", "index", "checkpoints", "witnessed",
                     f"cosigs:{games}"):
            conn.delete(day_log.key(part))
        for folder in config.data_dir.glob("witness*"):  # the witnesses forget the log
            for state in (folder / "state").glob("*.json"):
                state.unlink()
        c0, w0 = time.process_time(), time.perf_counter()
        sealed = day_log.seal(keyring, now)
        c1, w1 = time.process_time(), time.perf_counter()
        done = submit_checkpoint(day_log, sealed["size"])
        seal_cpu.append(c1 - c0)
        seal_wall.append(w1 - w0)
        cosign_cpu.append(time.process_time() - c1)
        cosign_wall.append(time.perf_counter() - w1)
        assert sealed["size"] == games, sealed
        assert len(done.cosigned) == witnesses and len(checkpoints.cosigners(games)) \
            == witnesses, done
        print(f"round {round_ + 1}: seal {seal_cpu[-1]:.2f} CPU s, {seal_wall[-1]:.2f} s; "
              f"cosign {cosign_cpu[-1]:.3f} CPU s, {cosign_wall[-1]:.3f} s", file=sys.stderr)
    per_game = audit_bytes(conn, day_log) / games
    conn.flushdb(asynchronous=True)
    scale = 1_000_000 / games
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    close_cpu = [a + b for a, b in zip(seal_cpu, cosign_cpu, strict=True)]
    close_wall = [a + b for a, b in zip(seal_wall, cosign_wall, strict=True)]

    def best(values: list[float], digits: int = 2, **extra: object) -> dict[str, object]:
        return figure(round(min(values), digits), "s", min=round(min(values), digits),
                      max=round(max(values), digits), rounds=rounds, **extra)

    figures = {
        "seal_cpu_s": best(seal_cpu, games=games),
        "seal_wall_s": best(seal_wall, games=games),
        "cosign_cpu_s": best(cosign_cpu, 3, witnesses=witnesses),
        "cosign_wall_s": best(cosign_wall, 3, witnesses=witnesses),
        "close_cpu_s": best(close_cpu, games=games, witnesses=witnesses),
        "close_wall_s": best(close_wall, games=games, witnesses=witnesses),
        "peak_rss_mb": figure(round(peak_mb), "MB", games=games,
                              what="this process: the close (the games are stored by a child)"),
        "redis_bytes_per_game": figure(round(per_game), "bytes"),
    }
    if scale != 1:
        figures["close_cpu_s_per_million"] = figure(round(min(close_cpu) * scale, 1), "s",
                                                    method="linear extrapolation")
        figures["close_wall_s_per_million"] = figure(round(min(close_wall) * scale, 1), "s",
                                                     method="linear extrapolation")
    return figures


if __name__ == "__main__":
    raise SystemExit(main())
