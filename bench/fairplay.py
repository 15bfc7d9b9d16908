"""Calibrate foresight detection by simulation: false positives and detection rates.

Honest populations: the easy bot (greedy), the hard bot (optimal), and noisy-optimal
players (softmax over the optimal expected values) at several temperatures, the medium
bot's 1.0 among them. Cheaters: full foresight (plays the ceiling, choosing among the
best moves in hindsight the one that looks best in expectation), next-roll foresight
(knows the dice the next reroll shows), and an optimal player who uses full foresight on
1, 2, 3 or 5 decisions of the game (those where it gains at least ``--gain`` points).

Every game of a day is played on the same random slots, as on the real service, and
checked with the production statistic (:func:`daily.fairplay.foresight.verdict_of`)::

    .venv/bin/python bench/fairplay.py --days 1000 --per-temperature 20   # 100,000+ honest

Prints the counts, rates, quantiles of the statistic, a threshold table and the cost of
one check; the machine load is printed with them.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from daily.fairplay import kernel
from daily.fairplay.ceiling import solve_ceiling
from daily.fairplay.foresight import BETAS_E, BETAS_V, THRESHOLD, statistic
from daily.rules import get_ruleset
from daily.strategy.simulate import random_slots
from daily.strategy.tables.lookup import table_or_solve

TEMPERATURES = (0.5, 1.0, 2.0, 4.0, 8.0)
BUDGETS = (1, 2, 3, 5)


def populations() -> list[tuple[str, bool, int, float, int]]:
    """(name, honest, policy, temperature, budget) of every simulated population."""
    out: list[tuple[str, bool, int, float, int]] = [
        ("easy bot", True, kernel.GREEDY, 0.0, 0),
        ("hard bot", True, kernel.SOFTMAX, 0.0, 0),
    ]
    out += [(f"noisy-optimal t={t:g}", True, kernel.SOFTMAX, t, 0) for t in TEMPERATURES]
    out += [
        ("full foresight", False, kernel.FORESIGHT, 0.0, 0),
        ("next-roll foresight", False, kernel.NEXT_ROLL, 0.0, 0),
    ]
    out += [(f"foresight on {b} decisions", False, kernel.PARTIAL, 0.0, b) for b in BUDGETS]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="yahtzee")
    parser.add_argument("--days", type=int, default=50)
    parser.add_argument("--per-temperature", type=int, default=4,
                        help="noisy-optimal games per temperature per day")
    parser.add_argument("--gain", type=float, default=5.0,
                        help="a partial cheater uses foresight when it gains this much")
    parser.add_argument("--seed", type=int, default=20261130)
    args = parser.parse_args()

    rules = get_ruleset(args.ruleset)
    table = table_or_solve(rules)
    spec = table.spec
    pops = populations()
    stats: dict[str, list[float]] = {p[0]: [] for p in pops}
    totals: dict[str, list[int]] = {p[0]: [] for p in pops}
    slots_all = random_slots(rules, args.days, args.seed)
    ceilings: list[int] = []
    t_ceiling = t_walk = 0.0
    walks = 0
    none = np.zeros(1, dtype=np.int64)
    rng_stream = 0
    started = time.perf_counter()
    for day in range(args.days):
        t0 = time.perf_counter()
        ceiling = solve_ceiling(rules, slots_all[day])
        t_ceiling += time.perf_counter() - t0
        ceilings.append(ceiling.value)
        py_order, code_index = ceiling.orders
        for name, _honest, policy, temp, budget in pops:
            games = args.per_temperature if policy == kernel.SOFTMAX and temp > 0 else 1
            for _ in range(games):
                rng_stream += 1
                t0 = time.perf_counter()
                loglik, _d, _e, total, _p = kernel.walk(
                    ceiling.slots, policy, temp, args.gain, budget, rng_stream, none, BETAS_E,
                    BETAS_V,
                    table.values, ceiling.values, spec.params, spec.raw,
            spec.raw_served, spec.alike,
                    spec.upper_face, spec.joker_points, spec.child, spec.parent, spec.keeps,
                    py_order, code_index,
                )
                t_walk += time.perf_counter() - t0
                walks += 1
                stats[name].append(statistic(loglik))
                totals[name].append(int(total))
        if (day + 1) % max(1, args.days // 20) == 0:
            print(f"  day {day + 1}/{args.days}, {walks} games,"
                  f" {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)

    print(f"fairplay calibration: {args.ruleset}, {args.days} days of random slots,"
          f" threshold {THRESHOLD:g}, load {os.getloadavg()} (shared machine)")
    print(f"ceiling: mean {np.mean(ceilings):.1f}, min {min(ceilings)}, max {max(ceilings)};"
          f" optimal play expects {table.expected:.1f}")
    print(f"{'population':28} {'games':>7} {'flagged':>7} {'rate':>9} {'mean total':>10}"
          f" {'stat p50':>8} {'p99':>8} {'max':>8}")
    honest_n = honest_f = 0
    for name, honest, *_ in pops:
        s = np.array(stats[name])
        flagged = int(np.sum(s >= THRESHOLD))
        if honest:
            honest_n += len(s)
            honest_f += flagged
        print(f"{name:28} {len(s):7d} {flagged:7d} {flagged / len(s):9.4%}"
              f" {np.mean(totals[name]):10.1f} {np.median(s):8.1f}"
              f" {np.quantile(s, 0.99):8.1f} {s.max():8.1f}")
    print(f"honest games: {honest_n}, flagged {honest_f}"
          f" ({honest_f / honest_n * 10000:.2f} per 10,000)")
    honest_all = np.concatenate([np.array(stats[p[0]]) for p in pops if p[1]])
    print("threshold  honest flagged per 10k  " + "  ".join(
        p[0].replace("foresight", "fs") for p in pops if not p[1]))
    for thr in (4.0, 6.0, 8.0, 10.0, 12.0, 14.0, 16.0, 20.0):
        fp = np.sum(honest_all >= thr) / len(honest_all) * 10000
        det = "  ".join(f"{np.mean(np.array(stats[p[0]]) >= thr):6.1%}" for p in pops
                        if not p[1])
        print(f"{thr:9.1f}  {fp:22.2f}  {det}")
    print(f"cost: ceiling {t_ceiling / args.days * 1000:.1f} ms per day;"
          f" walk (play + check) {t_walk / walks * 1000:.2f} ms per game over {walks} games")


if __name__ == "__main__":
    main()
