"""Finish-to-leaderboard latency: results enqueued at a fixed rate, recorded by N workers.

A producer enqueues ``--rate`` finished games per second (default 500) for
``--seconds`` (default 10) exactly as the API does (:func:`workers.results.enqueue_result`),
while ``--workers`` real ``daily worker results`` processes (default 4) record them.
Latency per game = the job's ``ended_at`` (set by the worker after the board and the
player statistics were written) minus its ``enqueued_at``. Prints the achieved rate and
p50/p90/p99/max. Runs its own Valkey server (AOF everysec, as in production) in a
temporary directory, so it touches nothing else; everything is stopped at the end.

    .venv/bin/python bench/finish_latency.py
    .venv/bin/python bench/finish_latency.py --rate 500 --seconds 10 --workers 4
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import redis
from rq.job import Job

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from daily import calendar  # noqa: E402
from daily.service.connections import RESULTS_QUEUE  # noqa: E402
from daily.service.embedded import valkey_server  # noqa: E402
from daily.service.leaderboard import Leaderboard  # noqa: E402
from workers.results import enqueue_result  # noqa: E402

DATE = dt.date(2026, 11, 29)
LOG = {
    "format": "daily-log/1", "ruleset": "yahtzee", "day": DATE.isoformat(),
    "turns": [{"holds": ["11000", "11100"], "category": "chance"}] * 13,
}


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def redis_cpu(conn: redis.Redis) -> float:
    info = conn.info("cpu")
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


def percentile(values: list[float], q: float) -> float:
    return values[min(len(values) - 1, int(len(values) * q))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rate", type=int, default=500, help="finishes per second")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--fork", action="store_true",
                        help="RQ's forking Worker instead of SimpleWorker (daily worker --simple)")
    args = parser.parse_args()
    count = int(args.rate * args.seconds)
    opens = calendar.opens_at(DATE).timestamp()
    with tempfile.TemporaryDirectory(prefix="dd-bench-") as tmp, \
            valkey_server(Path(tmp) / "valkey", appendfsync="everysec") as url:
        env = dict(os.environ, REDIS_URL=url, DAILY_KEY_PREFIX="bench:", PYTHONPATH=str(ROOT))
        workers = [
            subprocess.Popen(
                [sys.executable, "-m", "daily", "worker", RESULTS_QUEUE, "--name", f"bench-{i}",
                 "--quiet", *([] if args.fork else ["--simple"])],
                env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )
            for i in range(args.workers)
        ]
        conn = redis.Redis.from_url(url)
        try:
            time.sleep(2.0)  # let the workers start
            board = Leaderboard(conn, DATE, "yahtzee", prefix="bench:")
            ids = []
            cpu_workers0 = sum(cpu_seconds(w.pid) for w in workers)
            cpu_redis0 = redis_cpu(conn)
            cpu_producer0 = time.process_time()
            started = time.perf_counter()
            late = 0
            for n in range(count):
                due = started + n / args.rate
                pause = due - time.perf_counter()
                if pause > 0:
                    time.sleep(pause)
                elif pause < -0.05:
                    late += 1
                job = enqueue_result(conn, {
                    "game_id": f"g_{n:08d}", "player_id": f"p_{n:08d}",
                    "player_name": f"P{n}", "date": DATE.isoformat(), "ruleset": "yahtzee",
                    "total": 150 + n % 200, "finished_at": opens + n, "code": f"DD-{n}",
                    "log": LOG,
                })
                ids.append(job.id)
            produced = time.perf_counter() - started
            cpu_producer = time.process_time() - cpu_producer0
            deadline = time.monotonic() + 120
            while board.players() < count and time.monotonic() < deadline:
                time.sleep(0.05)
            drained = time.perf_counter() - started
            cpu_workers = sum(cpu_seconds(w.pid) for w in workers) - cpu_workers0
            cpu_redis = redis_cpu(conn) - cpu_redis0
            load = os.getloadavg()[0]
            latencies = []
            for base in range(0, len(ids), 1000):
                for job in Job.fetch_many(ids[base:base + 1000], connection=conn):
                    if job is not None and job.ended_at and job.enqueued_at:
                        latencies.append((job.ended_at - job.enqueued_at).total_seconds())
            latencies.sort()
        finally:
            for w in workers:
                w.send_signal(signal.SIGTERM)
            for w in workers:
                try:
                    w.wait(30)
                except subprocess.TimeoutExpired:
                    w.kill()
            conn.close()
    print(f"{count} finishes enqueued in {produced:.2f} s ({count / produced:.0f}/s offered,"
          f" {late} enqueued >50 ms late), all on the board after {drained:.2f} s,"
          f" {args.workers} {'forking' if args.fork else 'simple'} workers")
    print(f"jobs finished: {len(latencies)}/{count}")
    if latencies:
        print(
            "finish-to-leaderboard latency: "
            f"p50 {statistics.median(latencies) * 1000:.0f} ms  "
            f"p90 {percentile(latencies, 0.90) * 1000:.0f} ms  "
            f"p99 {percentile(latencies, 0.99) * 1000:.0f} ms  "
            f"max {latencies[-1] * 1000:.0f} ms"
        )
    per = {k: v / count * 1000 for k, v in
           {"enqueue (API side)": cpu_producer, "workers": cpu_workers,
            "Redis": cpu_redis}.items()}
    total = sum(per.values())
    print("CPU per finish: " + ", ".join(f"{k} {v:.2f} ms" for k, v in per.items())
          + f"; total {total:.2f} ms -> about {2000 / total:.0f} finishes/s on 2 free cores")
    print(f"machine load average during the run: {load:.1f} on {os.cpu_count()} cores")
    return 0 if len(latencies) == count else 1


if __name__ == "__main__":
    sys.exit(main())
