"""Verified replays per second, per ruleset, on one core.

Usage: ``python bench/replay.py [--games N]``

For each ruleset it plays N random legal games on one day's seed, then times:
- ``cold``: parse the JSON log and replay it with a fresh slot cache (HMAC for every slot);
- ``warm``: parse + replay with the day's slots already cached (the server's case);
- ``replay only``: replay an already parsed log on the cached slots.
It prints games per second (wall clock, and per CPU-second of this process, which is
steadier on a busy machine) and the p50/p99 wall latency of one replay.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import benchjson
from benchjson import figure

from daily.dice import SlotCache
from daily.movelog import MoveLog
from daily.randomplay import random_game
from daily.replay import replay
from daily.rules import RULESET_NAMES, get_ruleset


def random_logs(ruleset: str, seed: bytes, count: int) -> list[str]:
    rng = random.Random(7)
    rules = get_ruleset(ruleset)
    return [
        MoveLog.of_game(random_game(rules, seed, rng), seed=seed).dumps() for _ in range(count)
    ]


def timed(fn, items) -> tuple[float, float, list[float]]:
    """Wall time, CPU time of this process, and per-item wall latencies."""
    lat = []
    cpu0, start = time.process_time(), time.perf_counter()
    for item in items:
        t0 = time.perf_counter()
        fn(item)
        lat.append(time.perf_counter() - t0)
    return time.perf_counter() - start, time.process_time() - cpu0, lat


def pct(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100)[int(q) - 1] * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    args = parser.parse_args()
    seed = bytes(range(32))
    print(f"{'ruleset':<11} {'mode':<12} {'games/s':>9} {'games/cpu-s':>11} {'p50 us':>8}"
          f" {'p99 us':>8}")
    figures: dict[str, benchjson.Figure] = {}
    for name in RULESET_NAMES:
        rules = get_ruleset(name)
        logs = random_logs(name, seed, args.games)
        parsed = [MoveLog.from_json(text) for text in logs]
        cache = SlotCache(seed, rules.dice)
        for log in parsed:  # warm the day's cache, as the server does once per day
            replay(log, slots=cache)
        modes = {
            "cold": lambda text: replay(MoveLog.from_json(text)),
            "warm": lambda text, c=cache: replay(MoveLog.from_json(text), slots=c),
        }
        runs = [(mode, fn, logs) for mode, fn in modes.items()]
        runs.append(("replay only", lambda log, c=cache: replay(log, slots=c), parsed))
        for mode, fn, items in runs:
            wall, cpu, lat = timed(fn, items)
            print(f"{name:<11} {mode:<12} {len(items) / wall:>9.0f} {len(items) / cpu:>11.0f}"
                  f" {pct(lat, 50):>8.1f} {pct(lat, 99):>8.1f}")
            key = f"{name}_{mode.replace(' ', '_')}".replace("-", "_")
            figures[f"{key}_per_s"] = figure(round(len(items) / wall), "games/s")
            figures[f"{key}_per_cpu_s"] = figure(round(len(items) / cpu), "games/CPU-s")
            figures[f"{key}_p50"] = figure(round(pct(lat, 50), 1), "µs")
            figures[f"{key}_p99"] = figure(round(pct(lat, 99), 1), "µs")
    benchjson.record("replay", figures)


if __name__ == "__main__":
    main()
