"""The day's ceiling: time and memory per day set, and the distribution of its value.

    .venv/bin/python bench/ceiling.py --days 20                     # yahtzee, yatzy, yacht
    .venv/bin/python bench/ceiling.py --rulesets maxi-yatzy --days 3

Every day is a random seed; the first solve (numba compilation) is not timed. Prints
median and worst time, the value array's size and the peak resident memory, with the
machine's load (the machine may be shared).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import benchjson
from benchjson import figure

from daily.fairplay.ceiling import ceiling_of_seed
from daily.rules import get_ruleset


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rulesets", nargs="+", default=["yahtzee", "yatzy", "yacht"])
    parser.add_argument("--days", type=int, default=20)
    args = parser.parse_args()
    print(f"load before: {os.getloadavg()} (shared machine)")
    figures: dict[str, benchjson.Figure] = {}
    for name in args.rulesets:
        rules = get_ruleset(name)
        ceiling_of_seed(rules, bytes(32))  # compile (cached on disk after the first run)
        times, values = [], []
        for day in range(args.days):
            start = time.perf_counter()
            ceiling = ceiling_of_seed(rules, os.urandom(32) if day else bytes(32))
            times.append(time.perf_counter() - start)
            values.append(ceiling.value)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"{name:11} days {args.days:4}  median {statistics.median(times) * 1000:8.1f} ms"
              f"  worst {max(times) * 1000:8.1f} ms  table {ceiling.values.nbytes / 2**20:7.1f} MB"
              f"  peak RSS {peak:7.0f} MB  ceiling mean {statistics.mean(values):6.1f}"
              f" min {min(values)} max {max(values)}")
        key = name.replace("-", "_")
        figures[f"{key}_median"] = figure(round(statistics.median(times), 3), "s",
                                          worst=round(max(times), 3))
        figures[f"{key}_ceiling_mean"] = figure(round(statistics.mean(values), 1), "points",
                                                min=min(values), max=max(values))
        figures[f"{key}_peak_rss"] = figure(round(peak), "MB")
    print(f"load after: {os.getloadavg()}")
    benchjson.record("ceiling-" + "-".join(args.rulesets), figures)


if __name__ == "__main__":
    main()
