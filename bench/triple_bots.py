"""Benchmark: the Triple Yahtzee heuristic player against simple baselines.

Every player plays the same games: the slot dice of seeds ``sha256("bench-triple-<i>")``
(the daily generator). Players:

* ``lookahead``: :class:`daily.strategy.triple.TripleAdvisor`, exact single-column
  values as the evaluation and a one-turn expectimax over the three columns;
* ``greedy``: the same turn search, maximising this turn's weighted points only;
* ``random``: uniformly random legal moves (``daily.randomplay``; fewer games, slow).

For each: the mean with a 95% confidence interval (mean ± 1.96 standard errors), the
standard deviation, and games per second. The paired difference lookahead - greedy
(same dice) gets its own interval.

    .venv/bin/python bench/triple_bots.py [--games 10000] [--joker]
"""

from __future__ import annotations

import argparse
import hashlib
import math
import os
import random
import time

import benchjson
import numpy as np

from daily.randomplay import random_game
from daily.rules import get_ruleset
from daily.strategy.simulate import slot_array
from daily.strategy.tables.lookup import table_or_solve
from daily.strategy.triple import TripleAdvisor, column_rules


def interval(totals: np.ndarray) -> str:
    """``mean ± half-width`` of the 95% interval, and the standard deviation."""
    se = float(totals.std(ddof=1)) / math.sqrt(len(totals))
    return f"mean {totals.mean():8.2f} ± {1.96 * se:5.2f} (95% CI, sd {totals.std(ddof=1):6.1f})"


def mean_figure(totals: np.ndarray) -> benchjson.Figure:
    """The mean of ``totals`` with its 95% interval's half-width, as a result figure."""
    se = float(totals.std(ddof=1)) / math.sqrt(len(totals))
    return benchjson.figure(round(float(totals.mean()), 2), "points",
                            ci95=round(1.96 * se, 2), games=len(totals))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--random-games", type=int, default=500)
    parser.add_argument("--joker", action="store_true", help="the joker edition")
    args = parser.parse_args()
    rules = get_ruleset("triple-yahtzee", {"joker": args.joker})
    start = time.perf_counter()
    table = table_or_solve(column_rules(rules))
    print(f"triple-yahtzee {rules.non_default_options() or '(defaults)'}: column table "
          f"{column_rules(rules).non_default_options()} expected {table.expected:.4f} "
          f"({time.perf_counter() - start:.1f}s to load or solve)")
    seeds = [hashlib.sha256(f"bench-triple-{i}".encode()).digest() for i in range(args.games)]
    slots = slot_array(rules, seeds)
    results = {}
    for name, greedy in (("lookahead", False), ("greedy", True)):
        player = TripleAdvisor(table, rules, greedy=greedy)
        player.play_slots(slots[:1])  # compile/load the kernel
        start = time.perf_counter()
        totals = player.play_slots(slots)
        took = time.perf_counter() - start
        results[name] = totals
        print(f"  {name:<10} {interval(totals)}  {len(totals) / took:7.1f} games/s "
              f"({len(totals)} games)")
    diff = results["lookahead"] - results["greedy"]
    print(f"  lookahead - greedy, paired: {interval(diff)}")
    start = time.perf_counter()
    rng = random.Random(1)
    rand = np.array([random_game(rules, s, rng).card.total for s in seeds[: args.random_games]])
    took = time.perf_counter() - start
    print(f"  {'random':<10} {interval(rand)}  {len(rand) / took:7.1f} games/s "
          f"({len(rand)} games)")
    print(f"  heuristic estimate of a new game (columns apart): "
          f"{TripleAdvisor(table, rules).expected:.2f}")
    print(f"load average {os.getloadavg()} (machine shared)")
    benchjson.record("triple_bots" + ("-joker" if args.joker else ""), {
        "lookahead_mean": mean_figure(results["lookahead"]),
        "greedy_mean": mean_figure(results["greedy"]),
        "lookahead_minus_greedy": mean_figure(diff),
        "random_mean": mean_figure(rand),
    })


if __name__ == "__main__":
    main()
