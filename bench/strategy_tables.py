"""Benchmark: build time and peak memory of each strategy table.

Each table is built in a fresh child process so that its peak RSS is its own.

    .venv/bin/python bench/strategy_tables.py                 # yahtzee and yatzy
    .venv/bin/python bench/strategy_tables.py maxi-yatzy      # minutes
    .venv/bin/python bench/strategy_tables.py yahtzee --against /tmp/dd-main  # old vs new

Each build reports its wall time and its CPU time (all threads): on a shared machine the
CPU time is the figure to compare. ``--against DIR`` builds each table with the code of
another checkout too (``git worktree add DIR main``), alternating the two, and prints the
ratio of their CPU times (old / new) in the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import benchjson
from benchjson import figure

CHILD = """
import json, resource, sys, time
from daily.rules import get_ruleset
from daily.strategy.solver import solve
name, options = sys.argv[1], json.loads(sys.argv[2])
rules = get_ruleset(name, options)
solve(get_ruleset("yacht", {"forced_order": True}))  # compile (or load) the kernels first
start, cpu_start = time.perf_counter(), time.process_time()
table = solve(rules)
seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu_start
cpu = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"expected": table.expected, "seconds": seconds,
                  "states": table.spec.n_states,
                  "cpu_seconds": cpu_seconds,
                  "peak_rss_mb": cpu.ru_maxrss / 1024}))
"""

DEFAULT = [("yahtzee", {}), ("yatzy", {}),
           ("yahtzee", {"joker": False, "extra_yahtzee_bonus": False})]


def build(name: str, options: dict[str, object], root: Path | None) -> dict[str, float]:
    """One build in a fresh child process (with the code of ``root`` if given)."""
    env = dict(os.environ)
    if root is not None:
        env["PYTHONPATH"] = str(root.resolve())
    out = subprocess.run(
        [sys.executable, "-c", CHILD, name, json.dumps(options)],
        check=True, capture_output=True, text=True, env=env, cwd=root,
    ).stdout
    result: dict[str, float] = json.loads(out.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rulesets", nargs="*", help="ruleset names (default yahtzee, yatzy)")
    parser.add_argument("--against", type=Path, help="another checkout to compare with")
    args = parser.parse_args()
    todo = [(r, {}) for r in args.rulesets] or DEFAULT
    print(f"{'ruleset':<44} {'expected':>12} {'build s':>8} {'cpu s':>8} {'peak MB':>8}")
    figures: dict[str, benchjson.Figure] = {}
    for name, options in todo:
        label = name + (" " + json.dumps(options) if options else "")
        if args.against is not None:
            old = build(name, options, args.against)
            print(f"{label + ' (against)':<44} {old['expected']:12.7f} {old['seconds']:8.2f} "
                  f"{old['cpu_seconds']:8.1f} {old['peak_rss_mb']:8.0f}")
        started = time.perf_counter()
        res = build(name, options, None)
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
        if args.against is not None:
            ratio = old["cpu_seconds"] / res["cpu_seconds"]
            print(f"{'':<44} CPU time against / this: {ratio:.2f}")
            figures[f"{key}_cpu_ratio_against"] = figure(round(ratio, 2), "x",
                                                         against=str(args.against))
    benchjson.record("strategy_tables" + "".join(f"-{r}" for r in args.rulesets), figures)


if __name__ == "__main__":
    main()
