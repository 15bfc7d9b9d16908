"""Benchmark of what a request pays for its token and its rate limits: the token check
(``Players.authenticate``: one ``HMGET``, plus the once-a-day expiry renewal) and the
limiter's one script call, on a real Redis, next to a bare ``PING`` round trip.

Run: ``.venv/bin/python bench/auth_check.py [--redis redis://127.0.0.1:6379/14] [-n 5000]``.
It uses (and deletes) only keys under the prefix ``ddbench-auth:``. It prints the load
average with the figures: on a shared machine they move with it.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import redis

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import benchjson  # noqa: E402
from benchjson import figure  # noqa: E402

from daily.service.clock import system_clock  # noqa: E402
from daily.service.config import load_config  # noqa: E402
from daily.service.http.ratelimit import RateLimiter, parse_limits  # noqa: E402
from daily.service.players.accounts import Players  # noqa: E402

PREFIX = "ddbench-auth:"
FIGURES: dict[str, benchjson.Figure] = {}


def timed(label: str, n: int, fn: Callable[[int], object], key: str) -> None:
    samples = []
    for i in range(n):
        t0 = time.perf_counter()
        fn(i)
        samples.append(time.perf_counter() - t0)
    samples.sort()
    p50 = statistics.median(samples) * 1e3
    p99 = samples[min(len(samples) - 1, int(0.99 * len(samples)))] * 1e3
    print(f"{label:<46} p50 {p50:7.3f} ms   p99 {p99:7.3f} ms   ({n} calls)")
    FIGURES[f"{key}_p50"] = figure(round(p50, 3), "ms")
    FIGURES[f"{key}_p99"] = figure(round(p99, 3), "ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/14")
    parser.add_argument("-n", type=int, default=5000)
    args = parser.parse_args()
    if not 1 <= args.n <= 1_000_000:
        parser.error("-n is 1..1000000")
    config = load_config({"REDIS_URL": args.redis, "DAILY_KEY_PREFIX": PREFIX})
    conn = redis.Redis.from_url(args.redis)
    players = Players(conn, config, system_clock)
    _, token = players.create("Bench")
    forged = token.partition(".")[0] + ".forged"
    huge = "1000000000/minute"  # counted, never refused
    limiter = RateLimiter(conn, PREFIX, parse_limits(huge, huge, huge))
    try:
        timed("PING (one round trip)", args.n, lambda _: conn.ping(), "ping")
        timed("authenticate, a valid token", args.n, lambda _: players.authenticate(token),
              "authenticate")
        timed("authenticate, a forged token", args.n, lambda _: players.authenticate(forged),
              "authenticate_forged")
        timed("rate limits, verified player (1 script call)", args.n,
              lambda _: limiter.check("10.0.0.1", "p_bench", "write"), "rate_limits")
    finally:
        for key in conn.scan_iter(f"{PREFIX}*"):
            conn.delete(key)
    print(f"load average {os.getloadavg()[0]:.1f} (a shared machine moves these figures)")
    benchjson.record("auth_check", FIGURES)


if __name__ == "__main__":
    main()
