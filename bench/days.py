"""Benchmark of keys and day descriptors: signing, offline verification, and the
``GET /api/v1/days/<date>/<ruleset>`` and ``GET /api/v1/keys`` calls (Flask test client,
real Redis, cached descriptors).

Run: ``.venv/bin/python bench/days.py [--redis redis://127.0.0.1:6379/14] [-n 2000]``.
It uses (and flushes) only keys under the prefix ``ddbench-days:``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import benchjson  # noqa: E402
from benchjson import figure  # noqa: E402

from daily.audit.verify import verify_day  # noqa: E402
from daily.service.app import create_app  # noqa: E402
from daily.service.clock import FixedClock  # noqa: E402
from daily.service.config import load_config  # noqa: E402
from daily.service.days.descriptors import sign_descriptor  # noqa: E402
from daily.service.days.keyring import Keyring, init_keys  # noqa: E402
from daily.service.extensions import Basics, of  # noqa: E402

PREFIX = "ddbench-days:"
FIGURES: dict[str, benchjson.Figure] = {}
DAY = dt.date(2026, 11, 27)


def timed(label: str, n: int, fn: Callable[[int], object]) -> None:
    samples = []
    start = time.perf_counter()
    for i in range(n):
        t0 = time.perf_counter()
        fn(i)
        samples.append(time.perf_counter() - t0)
    total = time.perf_counter() - start
    samples.sort()
    p50 = statistics.median(samples) * 1e3
    p99 = samples[min(len(samples) - 1, int(0.99 * len(samples)))] * 1e3
    print(f"{label:<44} {n / total:>9.0f}/s   p50 {p50:7.3f} ms   p99 {p99:7.3f} ms")
    key = "_".join(re.findall(r"[a-z0-9]+", label.lower()))
    FIGURES[f"{key}_p50"] = figure(round(p50, 3), "ms")
    FIGURES[f"{key}_p99"] = figure(round(p99, 3), "ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/14")
    parser.add_argument("-n", type=int, default=2000)
    args = parser.parse_args()
    data = Path(tempfile.mkdtemp(prefix="ddbench-days-"))
    config = load_config(
        {"REDIS_URL": args.redis, "DAILY_KEY_PREFIX": PREFIX, "DAILY_DATA_DIR": str(data)}
    )
    init_keys(config.keys_dir)
    ring = Keyring.load(config)
    keys = {"keys": ring.public_keys()}
    descriptor = {
        **sign_descriptor(ring, "yahtzee", DAY),
        "seed": ring.day_seed("yahtzee", DAY).hex(),
    }
    n = args.n
    print(f"n = {n} per line")
    timed("day seed + commitment", n, lambda i: ring.commitment("yahtzee", DAY))
    timed("sign a descriptor", n, lambda i: sign_descriptor(ring, "yahtzee", DAY))
    timed("verify_day (signature, commitment, dice)", n, lambda i: verify_day(descriptor, keys))

    clock = FixedClock(dt.datetime(2026, 11, 29, 11, 0, tzinfo=dt.UTC))
    app = create_app(config, {"CLOCK": clock, "RATELIMIT_ENABLED": False})
    conn = of(app, Basics).conn
    client = app.test_client()
    client.get("/api/v1/days/2026-11-27/yahtzee")
    client.get("/api/v1/days/2026-11-29/yahtzee")
    timed(
        "GET /days/<revealed date>/yahtzee",
        n,
        lambda i: client.get("/api/v1/days/2026-11-27/yahtzee"),
    )
    timed(
        "GET /days/<open date>/yahtzee", n, lambda i: client.get("/api/v1/days/2026-11-29/yahtzee")
    )
    timed(
        "GET /days (default range, 12 descriptors)",
        max(n // 10, 10),
        lambda i: client.get("/api/v1/days"),
    )
    timed("GET /keys", n, lambda i: client.get("/api/v1/keys"))
    for key in conn.scan_iter(PREFIX + "*"):
        conn.delete(key)
    conn.close()
    benchjson.record("days", FIGURES)


if __name__ == "__main__":
    main()
