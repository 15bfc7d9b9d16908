"""Cross-check of a saved table: simulate optimal games and compare with its expectation.

The optimal policy plays N games on seeded random dice (compiled player); the mean
must lie within a few standard errors of the table's expected score. This is how the
Maxi Yatzy value, which has no published reference, is checked at full size (the
tests check the same solver exactly on reduced Maxi games).

    .venv/bin/python bench/strategy_check.py maxi-yatzy --games 40000
"""

from __future__ import annotations

import argparse
import math
import time

import benchjson
from benchjson import figure

from daily.rules import get_ruleset
from daily.strategy.simulate import play_slots, random_slots
from daily.strategy.tables.lookup import get_table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ruleset")
    parser.add_argument("--games", type=int, default=40_000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    table = get_table(get_ruleset(args.ruleset))
    start = time.perf_counter()
    totals = play_slots(table, random_slots(table.rules, args.games, args.seed), "hard")
    took = time.perf_counter() - start
    mean = float(totals.mean())
    se = float(totals.std(ddof=1)) / math.sqrt(len(totals))
    z = (mean - table.expected) / se
    print(f"{args.ruleset}: table {table.expected:.7f}; {args.games} optimal games "
          f"mean {mean:.3f} ± {se:.3f} (z = {z:+.2f}) in {took:.1f}s")
    benchjson.record(f"strategy_check-{args.ruleset}", {
        "table_expected": figure(round(table.expected, 7), "points"),
        "simulated_mean": figure(round(mean, 3), "points", se=round(se, 3), z=round(z, 2),
                                 games=args.games),
        "games_per_s": figure(round(args.games / took), "games/s"),
    })


if __name__ == "__main__":
    main()
