"""Benchmark: the heuristic player (no table) against the exact bots, on the same dice.

The heuristic player of :mod:`daily.strategy.heuristic` stands in for the medium and
hard computer opponents until a ruleset's table is built. Every player plays the same
games: the slot dice of seeds ``sha256("bench-heuristic-<i>")`` (the daily generator),
one game per "day". Players, all compiled (same decisions as the service's):

* ``exact``: the hard bot on the table (optimal);
* ``heuristic``: :class:`daily.strategy.heuristic.HeuristicAdvisor` (its pars calibrated
  by self-play on other dice, as in the service);
* ``greedy``: this turn's points only (the easy bot; it needs no table).

For each: the mean with its standard error; the paired difference heuristic - exact
(same dice) gets its own. The table comes from ``var/tables`` (or is solved in memory:
minutes for Maxi Yatzy).

    .venv/bin/python bench/heuristic_bots.py [--ruleset maxi-yatzy] [--games 2000]
"""

from __future__ import annotations

import argparse
import hashlib
import math
import os
import time

import benchjson
import numpy as np

from daily.rules import get_ruleset
from daily.strategy.heuristic import HeuristicAdvisor
from daily.strategy.simulate import play_slots, slot_array
from daily.strategy.tables.lookup import table_or_solve


def stats(totals: np.ndarray) -> tuple[float, float]:
    """Mean and standard error."""
    return float(totals.mean()), float(totals.std(ddof=1)) / math.sqrt(len(totals))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="maxi-yatzy")
    parser.add_argument("--games", type=int, default=2000)
    args = parser.parse_args()
    rules = get_ruleset(args.ruleset)
    table = table_or_solve(rules)
    seeds = [hashlib.sha256(f"bench-heuristic-{i}".encode()).digest()
             for i in range(args.games)]
    slots = slot_array(rules, seeds)
    start = time.process_time()
    heuristic = HeuristicAdvisor(rules)
    calibration = time.process_time() - start
    greedy = HeuristicAdvisor(rules, greedy=True)
    players = {
        "exact": lambda s: play_slots(table, s, "hard"),
        "heuristic": heuristic.play_slots,
        "greedy": greedy.play_slots,
    }
    print(f"{rules.name}: {args.games} games on the same dice; table expected "
          f"{table.expected:.4f}; heuristic estimate {heuristic.expected:.2f}; its "
          f"calibration {calibration:.1f} s CPU")
    totals = {}
    for name, play in players.items():
        play(slots[:1])  # compile or load the kernels
        start = time.process_time()
        totals[name] = play(slots)
        took = time.process_time() - start
        mean, se = stats(totals[name])
        print(f"  {name:<10} mean {mean:8.2f} ± {se:4.2f} (standard error)  "
              f"{len(slots) / took:7.0f} games per CPU second")
    diff = totals["heuristic"] - totals["exact"]
    mean, se = stats(diff)
    wins = float((diff > 0).mean()), float((diff == 0).mean())
    print(f"  heuristic - exact, paired: {mean:.2f} ± {se:.2f}; the heuristic scores more in "
          f"{100 * wins[0]:.1f}% of the games, the same in {100 * wins[1]:.1f}%")
    print(f"load average {os.getloadavg()} (machine shared; the figures are CPU time)")
    key = rules.name.replace("-", "_")
    figures = {}
    for name, values in (*totals.items(), ("heuristic_minus_exact", diff)):
        mean, se = stats(values)
        figures[f"{key}_{name}_mean"] = benchjson.figure(round(mean, 2), "points",
                                                         se=round(se, 2), games=len(values))
    benchjson.record(f"heuristic_bots-{rules.name}", figures)


if __name__ == "__main__":
    main()
