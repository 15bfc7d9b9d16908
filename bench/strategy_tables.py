"""Benchmark: build time and peak memory of each strategy table.

Each table is built in a fresh child process so that its peak RSS is its own.

    .venv/bin/python bench/strategy_tables.py                 # yahtzee and yatzy
    .venv/bin/python bench/strategy_tables.py maxi-yatzy      # ~15+ minutes
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

import benchjson
from benchjson import figure

CHILD = """
import json, resource, sys, time
from daily.rules import get_ruleset
from daily.strategy.solver import solve
name, options = sys.argv[1], json.loads(sys.argv[2])
rules = get_ruleset(name, options)
solve(get_ruleset("yacht", {"forced_order": True}))  # compile (or load) the kernels first
start = time.perf_counter()
table = solve(rules)
seconds = time.perf_counter() - start
cpu = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"expected": table.expected, "seconds": seconds,
                  "states": table.spec.n_states,
                  "cpu_seconds": cpu.ru_utime + cpu.ru_stime,
                  "peak_rss_mb": cpu.ru_maxrss / 1024}))
"""

DEFAULT = [("yahtzee", {}), ("yatzy", {}),
           ("yahtzee", {"joker": False, "extra_yahtzee_bonus": False})]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rulesets", nargs="*", help="ruleset names (default yahtzee, yatzy)")
    args = parser.parse_args()
    todo = [(r, {}) for r in args.rulesets] or DEFAULT
    print(f"{'ruleset':<44} {'expected':>12} {'build s':>8} {'cpu s':>8} {'peak MB':>8}")
    figures: dict[str, benchjson.Figure] = {}
    for name, options in todo:
        started = time.perf_counter()
        out = subprocess.run(
            [sys.executable, "-c", CHILD, name, json.dumps(options)],
            check=True, capture_output=True, text=True,
        ).stdout
        res = json.loads(out.strip().splitlines()[-1])
        label = name + (" " + json.dumps(options) if options else "")
        print(f"{label:<44} {res['expected']:12.7f} {res['seconds']:8.2f} "
              f"{res['cpu_seconds']:8.1f} {res['peak_rss_mb']:8.0f}"
              f"   (child {time.perf_counter() - started:.1f}s wall)")
        key = "_".join([name.replace("-", "_"), *(f"{k}_{v}".lower()
                                                   for k, v in sorted(options.items()))])
        figures[f"{key}_build"] = figure(round(res["seconds"], 2), "s",
                                         cpu_seconds=round(res["cpu_seconds"], 1))
        figures[f"{key}_peak_rss"] = figure(round(res["peak_rss_mb"]), "MB")
        figures[f"{key}_states"] = figure(res["states"], "states")
        figures[f"{key}_expected"] = figure(round(res["expected"], 7), "points")
    benchjson.record("strategy_tables" + "".join(f"-{r}" for r in args.rulesets), figures)


if __name__ == "__main__":
    main()
