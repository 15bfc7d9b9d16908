"""Finish-to-leaderboard latency: results appended at a fixed rate, applied by N consumers.

``--producers`` processes (default 2) append ``--rate`` finished games per second in
all (default 500) for ``--seconds`` (default 10) exactly as the API's finish does: one
MULTI/EXEC transaction that stores the game record and appends the result
(:meth:`daily.service.results.stream.ResultStream.append`). ``--consumers`` real
``daily worker results`` processes (default 2) apply them, with the fair-play check of
the service (ceiling-only: the bench has no strategy table); :data:`WARM_UP` results
applied first let each consumer compute the day's ceiling (once per day and process)
before the measurement. The main process polls the
board every 2 ms for the games due and not seen yet; latency per game = the first poll
that saw it minus the moment its transaction returned (wall clock of one machine; it
includes up to about 2 ms of polling delay). ``--rate 0`` appends everything at once
(the consumers stopped with SIGSTOP meanwhile), then lets the consumers go (SIGCONT)
and measures the sustained drain rate (no latency figures then).

Prints the offered and achieved rates, p50/p90/p99/max latency, CPU per finish (the
consumers, Redis, the appending side), Redis memory per finish beyond the board entry
(the whole server's ``used_memory`` growth minus the board's keys and the game records
the producer wrote), and the load average. Runs its own Valkey server (AOF everysec,
as in production) in a temporary directory; everything is stopped at the end.

    .venv/bin/python bench/finish_latency.py                       # 500/s for 10 s
    .venv/bin/python bench/finish_latency.py --rate 1000 --seconds 10
    .venv/bin/python bench/finish_latency.py --rate 0 --count 20000  # drain rate
    .venv/bin/python bench/finish_latency.py --ruleset maxi-yatzy --prepare

``--ruleset maxi-yatzy`` appends Maxi Yatzy results (a valid 20-turn log); ``--fairplay``
sets the consumers' ``DAILY_FAIRPLAY_RULESETS`` (default: the service's default, which
checks both sets); ``--prepare`` first runs the ceiling job
(:func:`workers.ceilings.prepare_day_ceiling`, in this process, not timed) so that the
consumers find the day's ceiling as they would in production.
"""

from __future__ import annotations

import argparse
import datetime as dt
import functools
import multiprocessing
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path

import redis

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import benchjson  # noqa: E402
from benchjson import figure  # noqa: E402

from daily import calendar  # noqa: E402
from daily.service.config import load_config  # noqa: E402
from daily.service.days.keyring import init_keys  # noqa: E402
from daily.service.ops.embedded import valkey_server  # noqa: E402
from daily.service.results.leaderboard import Leaderboard  # noqa: E402
from daily.service.results.stream import ResultStream  # noqa: E402

DATE = dt.date(2026, 11, 29)
PREFIX = "bench:"
LOG = "dl1~yahtzee~-~d2026-11-29~YcA.YcB.YcC.YcD.YcE.YcF.YcG.YcH.YcI.YcJ.YcK.YcL.YcM"


@functools.cache
def log_of(ruleset: str) -> str:
    """A complete move log of the day (Yahtzee: :data:`LOG`; else every box in turn)."""
    if ruleset == "yahtzee":
        return LOG
    from daily.movelog import MoveLog, Turn
    from daily.rules import get_ruleset

    rules = get_ruleset(ruleset)
    turns = tuple(Turn(("1" * (rules.dice - 1) + "0",), box) for box in rules.box_ids)
    return MoveLog(ruleset, turns, (), None, DATE).to_text()


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def redis_cpu(conn: redis.Redis) -> float:
    info = conn.info("cpu")
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


def percentile(values: list[float], q: float) -> float:
    return values[min(len(values) - 1, int(len(values) * q))]


def result(n: int, opens: float, ruleset: str = "yahtzee") -> dict[str, object]:
    """Game ``n``'s result; totals stay under any day's ceiling (150-249), since the
    fair-play gate holds a result that reaches it, and a held one never shows."""
    return {
        "game_id": f"g_{n:08d}", "player_id": f"p_{n:08d}", "player_name": f"P{n}",
        "date": DATE.isoformat(), "ruleset": ruleset, "total": 150 + n % 100,
        "finished_at": opens + n / 1000, "code": f"DD-{n:010d}", "log": log_of(ruleset),
    }


def produce(url: str, first: int, count: int, step: int, rate: float, t0: float,
            out: Connection, ruleset: str = "yahtzee") -> None:
    """Append games first, first + step, ... on schedule; send back their append times."""
    conn = redis.Redis.from_url(url)
    stream = ResultStream(conn, prefix=PREFIX)
    opens = calendar.opens_at(DATE).timestamp()
    times: dict[int, float] = {}
    late = 0
    cpu0 = time.process_time()
    for n in range(first, count, step):
        if rate:
            pause = t0 + n / rate - time.time()
            if pause > 0:
                time.sleep(pause)
            elif pause < -0.05:
                late += 1
        with conn.pipeline(transaction=True) as pipe:
            pipe.set(f"{PREFIX}game:g_{n:08d}", "x" * 600)  # the finished game record
            stream.append(pipe, result(n, opens, ruleset))
            pipe.execute()
        times[n] = time.time()
    out.send((times, late, time.process_time() - cpu0))


def watch(conn: redis.Redis, board: Leaderboard, count: int, rate: float, t0: float,
          deadline: float) -> dict[int, float]:
    """Poll the board every 2 ms for the games due by now and not seen yet."""
    key = board.key("entries")
    seen: dict[int, float] = {}
    unseen = 0  # every game below this index was seen
    while unseen < count and time.time() < deadline:
        due = count if not rate else min(count, int((time.time() - t0) * rate) + 1)
        waiting = [n for n in range(unseen, due) if n not in seen][:2000]
        if waiting:
            found = conn.hmget(key, [f"g_{n:08d}" for n in waiting])
            now = time.time()
            for n, blob in zip(waiting, found, strict=True):
                if blob is not None:
                    seen[n] = now
            while unseen < count and unseen in seen:
                unseen += 1
        time.sleep(0.002)
    return seen


#: Results applied before the measurement: each consumer process computes the day's
#: ceiling for the fair-play check at its first result of the day (about 1-2 s once per
#: day and process), which is not the steady state the figures describe.
WARM_UP = 40


def warm_up(conn: redis.Redis, stream: ResultStream, first: int,
            ruleset: str = "yahtzee") -> None:
    """Trickle :data:`WARM_UP` results (ids after the measured ones) over 2 s so that
    every consumer gets some, then wait until all are applied."""
    opens = calendar.opens_at(DATE).timestamp()
    for n in range(first, first + WARM_UP):
        with conn.pipeline(transaction=True) as pipe:
            stream.append(pipe, result(n, opens, ruleset))
            pipe.execute()
        time.sleep(2.0 / WARM_UP)
    deadline = time.time() + 120
    while stream.backlog() and time.time() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rate", type=int, default=500, help="finishes per second (0: at once)")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--count", type=int, help="finishes (default rate x seconds)")
    parser.add_argument("--consumers", type=int, default=2)
    parser.add_argument("--producers", type=int, default=2, help="appending processes")
    parser.add_argument("--ruleset", default="yahtzee", choices=["yahtzee", "maxi-yatzy"])
    parser.add_argument("--fairplay", help="the consumers' DAILY_FAIRPLAY_RULESETS")
    parser.add_argument("--prepare", action="store_true",
                        help="compute the day's ceiling ahead (the ceiling job), not timed")
    args = parser.parse_args()
    count = args.count or int(args.rate * args.seconds)
    with tempfile.TemporaryDirectory(prefix="dd-bench-") as tmp, \
            valkey_server(Path(tmp) / "valkey", appendfsync="everysec") as url:
        data = Path(tmp) / "data"
        init_keys(load_config({"DAILY_DATA_DIR": str(data)}).keys_dir)  # the fair-play check
        env = dict(os.environ, REDIS_URL=url, DAILY_KEY_PREFIX=PREFIX, PYTHONPATH=str(ROOT),
                   DAILY_DATA_DIR=str(data))
        if args.fairplay is not None:
            env["DAILY_FAIRPLAY_RULESETS"] = args.fairplay
        if args.prepare:
            os.environ.update(REDIS_URL=url, DAILY_KEY_PREFIX=PREFIX, DAILY_DATA_DIR=str(data))
            from workers.ceilings import prepare_day_ceiling

            took = prepare_day_ceiling(DATE.isoformat(), args.ruleset)["seconds"]
            print(f"the day's {args.ruleset} ceiling prepared ahead in {took:.1f} s (not timed)")
        conn = redis.Redis.from_url(url)
        stream = ResultStream(conn, prefix=PREFIX)
        stream.ensure_group()
        consumers = [
            subprocess.Popen(
                [sys.executable, "-m", "daily", "worker", "results", "--name", f"bench-{i}",
                 "--quiet"],
                env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )
            for i in range(args.consumers)
        ]
        try:
            time.sleep(2.0)  # let the consumers start
            board = Leaderboard(conn, DATE, args.ruleset, prefix=PREFIX)
            warm_up(conn, stream, count, args.ruleset)
            memory0 = conn.info("memory")["used_memory"]
            cpu_consumers0 = sum(cpu_seconds(c.pid) for c in consumers)
            cpu_redis0 = redis_cpu(conn)
            if not args.rate:  # drain rate: the consumers wait until everything is in
                for c in consumers:
                    c.send_signal(signal.SIGSTOP)
            t0 = time.time() + 0.2
            pipes, producers = [], []
            for i in range(args.producers):
                mine, theirs = multiprocessing.Pipe(duplex=False)
                proc = multiprocessing.Process(
                    target=produce,
                    args=(url, i, count, args.producers, args.rate, t0, theirs, args.ruleset),
                )
                proc.start()
                pipes.append(mine)
                producers.append(proc)
            if not args.rate:
                while stream.backlog() < count:
                    time.sleep(0.01)
                t0 = time.time()  # from here on, the consumers drain a full stream
                for c in consumers:
                    c.send_signal(signal.SIGCONT)
            seen = watch(conn, board, count, args.rate, t0, time.time() + 300)
            drained = max(seen.values(), default=time.time()) - t0
            cpu_consumers = sum(cpu_seconds(c.pid) for c in consumers) - cpu_consumers0
            cpu_redis = redis_cpu(conn) - cpu_redis0
            load = os.getloadavg()
            appended: dict[int, float] = {}
            late, cpu_producer = 0, 0.0
            for mine, proc in zip(pipes, producers, strict=True):
                times, their_late, their_cpu = mine.recv()
                appended.update(times)
                late += their_late
                cpu_producer += their_cpu
                proc.join()
            produced = max(appended.values()) - min(appended.values())
            memory = conn.info("memory")["used_memory"] - memory0
            board_bytes = sum(
                conn.memory_usage(k) or 0 for k in conn.scan_iter(f"{PREFIX}lb:*")
            )
            games_bytes = sum(
                conn.memory_usage(k) or 0 for k in conn.scan_iter(f"{PREFIX}game:*", count=1000)
            )
            players = board.players() - WARM_UP
            backlog = stream.backlog()
            latencies = sorted(seen[n] - appended[n] for n in seen)
        finally:
            for c in consumers:
                c.send_signal(signal.SIGTERM)
            for c in consumers:
                try:
                    c.wait(30)
                except subprocess.TimeoutExpired:
                    c.kill()
            conn.close()
    checked = env.get("DAILY_FAIRPLAY_RULESETS", "the default")
    print(f"{args.ruleset} results; fair-play check of the consumers: {checked}")
    offered = f"{count / produced:.0f}/s offered" if args.rate else "appended first"
    print(f"{count} finishes appended in {produced:.2f} s ({offered}, {late} >50 ms late);"
          f" all {players} on the board {drained:.2f} s after the start"
          f" = {count / drained:.0f} finishes/s; {args.consumers} consumers;"
          f" {backlog} left in the streams")
    if latencies and args.rate:
        print(
            "finish-to-board latency: "
            f"p50 {statistics.median(latencies) * 1000:.1f} ms  "
            f"p90 {percentile(latencies, 0.90) * 1000:.1f} ms  "
            f"p99 {percentile(latencies, 0.99) * 1000:.1f} ms  "
            f"max {latencies[-1] * 1000:.1f} ms  ({len(latencies)} games seen)"
        )
    per = {k: v / count * 1000 for k, v in
           {"consumers": cpu_consumers, "Redis": cpu_redis,
            "append (API side)": cpu_producer}.items()}
    total = sum(per.values())
    print("CPU per finish: " + ", ".join(f"{k} {v:.2f} ms" for k, v in per.items())
          + f"; total {total:.2f} ms (about {2000 / total:.0f} finishes/s on 2 free cores)")
    beyond = (memory - board_bytes - games_bytes) / count
    print(f"Redis memory per finish: {memory / count:.0f} B in all; board {board_bytes / count:.0f}"
          f" B, game records {games_bytes / count:.0f} B, beyond those {beyond:.0f} B"
          " (player statistics, stream leftovers)")
    print(f"load average during the run: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
          f" on {os.cpu_count()} cores (a shared machine: other work runs too)")
    figures = {
        "applied_per_s": figure(round(count / drained), "finishes/s"),
        "cpu_consumers": figure(round(per["consumers"], 3), "ms/finish"),
        "cpu_redis": figure(round(per["Redis"], 3), "ms/finish"),
        "cpu_append": figure(round(per["append (API side)"], 3), "ms/finish"),
        "redis_bytes_beyond_board_and_record": figure(round(beyond), "bytes/finish"),
        "not_applied": figure(count - players + backlog, "finishes"),
    }
    if args.rate:
        figures["offered_per_s"] = figure(round(count / produced), "finishes/s")
    if latencies and args.rate:
        figures["p50"] = figure(round(statistics.median(latencies) * 1000, 1), "ms")
        figures["p99"] = figure(round(percentile(latencies, 0.99) * 1000, 1), "ms",
                                max=round(latencies[-1] * 1000, 1))
    name = f"finish_latency-{args.rate}" if args.rate else "finish_latency-drain"
    if args.ruleset != "yahtzee":
        name += f"-{args.ruleset}"
    benchjson.record(name, figures, notes=f"fair-play check: {checked}")
    return 0 if players == count and backlog == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
