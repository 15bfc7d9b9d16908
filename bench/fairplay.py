"""The fair-play check by simulation: honest games held, the review load, and the
informed cheater.

Every simulated day has random slots shared by all its players, as on the service, and
its own secret parameters, derived exactly as the service derives them
(:class:`daily.fairplay.daykey.DayParams`, from a fair-play key made with a master of
this run). On each day:

* **the board**: ``--board`` honest players (noisy-optimal: a softmax over the optimal
  expected values at temperatures 0.25, 0.5, 1, 2 and 4 points, in equal numbers; the
  compiled players of :mod:`daily.strategy.simulate`), for the day's top 10 and its top
  line (the top 100, or the top 1% where that is fewer);
* **honest games, checked**: ``--honest`` games of the same populations, walked through
  the detector: the ordinary test on the day's line, and the stricter test for those
  that reach the board's top line (what the service runs before a game enters the top);
* **the informed cheater**: it knows the code, every slot of the day and every published
  range, not the day's parameters. It plays the best-scoring game, among the mixed
  foresight games (``argmax E + rho V`` for a grid of ``rho``) and the partial foresight
  games (optimal play with full foresight on its ``b`` best decisions), that the public
  parts of the detector would not hold: the ordinary statistic under the lowest line of
  its range and, since it aims at the top, the scrutiny statistic under the lowest strict
  line for each of ``--cheater-subsets`` subsets it draws itself. The game it keeps is then
  judged with the day's real parameters: held, or not; its gain over optimal play on the
  same dice; and whether it would have entered the board's top 10.

The summary is printed and recorded (``bench/benchjson.py``) as
``bench/results/fairplay-informed-<ruleset>.json`` (``--out`` names another folder), the
aims as figures and the whole summary as details; a long run also keeps what is done so
far in ``--out``'s folder as ``fairplay-informed-<ruleset>.partial.json``::

    nice -n 10 .venv/bin/python bench/fairplay.py --ruleset yahtzee --days 200

Triple Yahtzee is checked by its turn-foresight test (:mod:`daily.fairplay.columns`);
its board is walked too (no compiled player at a temperature), so use a smaller
``--board`` for it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import benchjson
from benchjson import figure

from daily.fairplay import kernel
from daily.fairplay.daykey import (
    POSITIONAL_RANGE,
    SCRUTINY_SHARE,
    STRICT_POSITIONAL_RANGE,
    STRICT_RANGE,
    THRESHOLD_RANGE,
    DayParams,
    fairplay_key,
)
from daily.fairplay.foresight import Walked, positional_statistic, statistic
from daily.fairplay.informed import SimDay, candidates, own_subsets
from daily.rules import Ruleset, get_ruleset
from daily.strategy.simulate import play_slots, random_slots
from daily.strategy.solver import StrategyTable
from daily.strategy.tables.lookup import table_or_solve
from daily.strategy.triple import column_rules

TEMPERATURES = (0.25, 0.5, 1.0, 2.0, 4.0)
#: Other lowest strict lines measured side by side (each a range of the same width as
#: STRICT_RANGE), for the trade-off between the review load and the informed cheater.
STRICT_LOWS = (4.0, 5.0, 6.0, STRICT_RANGE[0])
#: The blind cheaters of the first calibration: (name, policy, foresight budget).
BLIND = (("full foresight", kernel.FORESIGHT, 0), ("next-roll foresight", kernel.NEXT_ROLL, 0),
         ("foresight on 1 decision", kernel.PARTIAL, 1),
         ("foresight on 3 decisions", kernel.PARTIAL, 3),
         ("foresight on 5 decisions", kernel.PARTIAL, 5))


def top_line(n: int) -> int:
    """How many games the top of a board of ``n`` holds: 100, or 1% where that is fewer
    (at least 1).

    >>> top_line(10_000), top_line(2_000), top_line(50)
    (100, 20, 1)
    """
    return max(1, min(100, n // 100))


def top_tests(players: int) -> float:
    """Expected number of games that enter the top of a board of ``players`` as they
    arrive in random order (each is tested strictly): sum over n of top_line(n) / n.

    >>> round(top_tests(10_000)), round(top_tests(100_000))
    (102, 332)
    """
    n = np.arange(1, players + 1)
    tops = np.maximum(1, np.minimum(100, n // 100))
    return float(np.sum(np.minimum(tops, n) / n))


def held_at(sim: SimDay, walked: Walked, low: float, at_top: bool) -> bool:
    """The day's decision had its strict line been drawn in ``[low, low + width)`` (the
    same draw: the day's position within its range)."""
    p = sim.params
    width = STRICT_RANGE[1] - STRICT_RANGE[0]
    line = low + (p.strict_threshold - STRICT_RANGE[0])
    assert line < low + width + 1e-9
    moved = replace(p, strict_threshold=line)
    return SimDay(sim.rules, sim.table, sim.slots, moved, sim.ceiling).held(walked, at_top)


def honest_board(sim: SimDay, players: int, seed: int) -> np.ndarray:
    """The totals of ``players`` noisy-optimal players on the day (equal numbers at each
    of :data:`TEMPERATURES`)."""
    per_temp = players // len(TEMPERATURES)
    if sim.columns:
        return np.array([sim.walk(kernel.SOFTMAX, t, seed * 1000 + k * per_temp + i).total
                         for k, t in enumerate(TEMPERATURES) for i in range(per_temp)])
    many = np.repeat(sim.slots[None], per_temp, axis=0)
    return np.concatenate([
        play_slots(sim.table, many, "medium", temperature=t, seed=seed * 10 + k)
        for k, t in enumerate(TEMPERATURES)])


def simulate(args: argparse.Namespace) -> dict[str, Any]:
    rules = get_ruleset(args.ruleset)
    columns = len(rules.weights) > 1
    table = table_or_solve(column_rules(rules) if columns else rules)
    slots_all = random_slots(rules, args.days, args.seed)
    master = args.seed.to_bytes(8, "big") * 4
    rng = np.random.default_rng(args.seed)
    honest: list[tuple[Any, ...]] = []  # see summarise()
    days: list[dict[str, Any]] = []
    started = time.perf_counter()
    for day in range(args.days):
        params = DayParams.from_key(fairplay_key(master, rules.name, f"sim-{day}"))
        sim = SimDay(rules, table, slots_all[day], params)
        board = np.sort(honest_board(sim, args.board, args.seed + day))[::-1]
        # The lines of a board of --board-of players, from a sample of --board: its
        # quantiles (the top 10 of 10,000 is the best 0.1%).
        scale = len(board) / args.board_of
        top10 = int(board[max(0, round(10 * scale) - 1)])
        top = int(board[max(0, round(top_line(args.board_of) * scale) - 1)])
        optimal = sim.walk(kernel.SOFTMAX, 0.0).total
        for k in range(args.honest):
            tau = TEMPERATURES[k % len(TEMPERATURES)]
            walked = sim.walk(kernel.SOFTMAX, tau, seed=day * 100_003 + k + 1)
            weights = sim.weights(walked)
            honest.append((day, tau, statistic(walked.loglik), sim.scrutiny(walked),
                           positional_statistic(walked.evidence),
                           positional_statistic(walked.evidence, weights),
                           walked.total, walked.total >= top, sim.held(walked, False),
                           sim.held(walked, True),
                           *(held_at(sim, walked, low, True) for low in STRICT_LOWS)))
        blind = {}
        for name, policy, budget in BLIND:
            if sim.columns and policy not in (kernel.FORESIGHT,):
                continue
            walked = sim.walk(policy, 0.0, 0, budget, 5.0)
            blind[name] = {"gain": walked.total - optimal,
                           "held": bool(sim.held(walked, walked.total >= top))}
        # The informed cheater's candidates and its choice (at each lowest strict line).
        chosen: Walked | None = None
        tried = []
        games = candidates(sim)
        worst = [own_subsets(w, rng, args.cheater_subsets) for w in games]
        public_ok = [statistic(w.loglik) < THRESHOLD_RANGE[0] and
                     positional_statistic(w.evidence) < POSITIONAL_RANGE[0] for w in games]
        at_lows = {}
        for low in STRICT_LOWS:
            safe = [ok and w_s < low and w_p < STRICT_POSITIONAL_RANGE[0]
                    for ok, (w_s, w_p) in zip(public_ok, worst, strict=True)]
            best = max((g for g, ok in zip(games, safe, strict=True) if ok),
                       key=lambda g: g.total, default=None) or sim.walk(kernel.SOFTMAX, 0.0)
            at_top_low = best.total >= top
            at_lows[f"{low:g}"] = {
                "gain": best.total - optimal, "at_top": bool(at_top_low),
                "in_top10": bool(best.total >= top10),
                "held": bool(held_at(sim, best, low, at_top_low))}
            if low == STRICT_RANGE[0]:
                chosen = best
                tried = [(g.total, round(statistic(g.loglik), 3), ok)
                         for g, ok in zip(games, safe, strict=True)]
        assert chosen is not None
        stat, scr = statistic(chosen.loglik), sim.scrutiny(chosen)
        pos = positional_statistic(chosen.evidence)
        at_top = chosen.total >= top
        held = sim.held(chosen, at_top)
        days.append({
            "day": day, "optimal": optimal, "top10": top10, "top": top,
            "best_honest": int(board[0]),
            "ceiling": sim.ceiling.value if sim.ceiling is not None else None,
            "threshold": round(params.threshold, 3),
            "strict_threshold": round(params.strict_threshold, 3),
            "cheater": {"total": chosen.total, "gain": chosen.total - optimal,
                        "statistic": round(stat, 3), "scrutiny": round(scr, 3),
                        "positional": round(pos, 3),
                        "at_top": bool(at_top), "in_top10": bool(chosen.total >= top10),
                        "held": bool(held)},
            "best_unsafe": max((t for t, _, s in tried if not s), default=None),
            "at_strict_lows": at_lows,
            "blind": blind,
        })
        if (day + 1) % max(1, args.days // 20) == 0 or day + 1 == args.days:
            print(f"  day {day + 1}/{args.days}: {time.perf_counter() - started:.0f} s",
                  file=sys.stderr, flush=True)
            if args.out is not None and day + 1 < args.days:  # what is done so far
                partial = summarise(args, rules, table, honest, days,
                                    time.perf_counter() - started)
                path = args.out / f"fairplay-informed-{args.ruleset}.partial.json"
                path.write_text(json.dumps(partial, indent=1, sort_keys=True) + "\n")
    return summarise(args, rules, table, honest, days, time.perf_counter() - started)


def summarise(args: argparse.Namespace, rules: Ruleset, table: StrategyTable,
              honest: list[Any], days: list[dict[str, Any]], seconds: float) -> dict[str, Any]:
    h = np.array(honest, dtype=float)
    # columns: day, tau, statistic, scrutiny, positional, scrutiny positional, total,
    # at the top, held by the ordinary test, held by the stricter test
    top = h[:, 7] == 1
    held_ordinary = h[:, 8] == 1
    held = np.where(top, h[:, 9] == 1, held_ordinary)
    n_top = int(top.sum())
    fp_ordinary = float(held_ordinary.mean())
    fp_top = float((h[:, 9] == 1)[top].mean()) if n_top else float("nan")
    load = {str(n): round(n * fp_ordinary + top_tests(n) * fp_top, 3)
            for n in (1_000, 10_000, 100_000)}
    cheat = [d["cheater"] for d in days]
    unheld = [c for c in cheat if not c["held"]]
    in_top10 = sum(1 for c in unheld if c["in_top10"])
    top_stats = h[top]
    summary = {
        "ruleset": rules.name,
        "command": " ".join(["bench/fairplay.py", *sys.argv[1:]]),
        "days": len(days), "board": args.board, "board_of": args.board_of,
        "honest_per_day": args.honest,
        "cheater_subsets": args.cheater_subsets,
        "threshold_range": list(THRESHOLD_RANGE), "strict_range": list(STRICT_RANGE),
        "scrutiny_share": SCRUTINY_SHARE,
        "optimal_expected": round(table.expected, 2) if len(rules.weights) == 1 else None,
        "honest": {
            "games": len(h), "held": int(held.sum()),
            "held_per_10000": round(10_000 * float(held.mean()), 3),
            "held_ordinary": int(held_ordinary.sum()),
            "top_games": n_top, "top_held": int(held[top].sum()),
            "top_held_share": round(fp_top, 5) if n_top else None,
            "statistic_quantiles": _quantiles(h[:, 2]),
            "positional_quantiles": _quantiles(h[:, 4]),
            "top_statistic_quantiles": _quantiles(top_stats[:, 2]) if n_top else None,
            "top_scrutiny_quantiles": _quantiles(top_stats[:, 3]) if n_top else None,
            "top_positional_quantiles": _quantiles(top_stats[:, 4]) if n_top else None,
            "top_scrutiny_positional_quantiles": (_quantiles(top_stats[:, 5]) if n_top
                                                  else None),
            "held_per_10000_at_line": {
                f"{x:g}": round(10_000 * float((h[:, 2] >= x).mean()), 3)
                for x in (6, 8, 10, 12)},
        },
        "review_load_per_day": load,
        "review_load_per_100000_players": {
            n: round(v / int(n) * 100_000, 3) for n, v in load.items()},
        "informed_cheater": {
            "held_share": round(1 - len(unheld) / len(cheat), 4),
            "unheld_mean_gain": round(float(np.mean([c["gain"] for c in unheld])), 2)
            if unheld else None,
            "unheld_gain_quantiles": _quantiles(np.array([c["gain"] for c in unheld]))
            if unheld else None,
            "days_unheld_in_top10": in_top10,
            "share_of_days_unheld_in_top10": round(in_top10 / len(days), 4),
            "at_top_share": round(float(np.mean([c["at_top"] for c in cheat])), 4),
            "mean_gain_all": round(float(np.mean([c["gain"] for c in cheat])), 2),
        },
        "aims": {
            "no_unheld_top10_on_99pct_of_days": in_top10 <= 0.01 * len(days),
            "unheld_gain_at_most_10": bool(unheld) and float(
                np.mean([c["gain"] for c in unheld])) <= 10.0,
            "honest_held_at_most_1_in_10000": float(held.mean()) <= 1e-4,
            "review_load_at_most_3_per_100000": all(
                v / int(n) * 100_000 <= 3.0 for n, v in load.items()),
        },
        "strict_line_tradeoff": {
            f"{low:g}": {
                "range": [low, low + STRICT_RANGE[1] - STRICT_RANGE[0]],
                "honest_top_held_share": (round(float((h[:, 10 + k] == 1)[top].mean()), 5)
                                          if n_top else None),
                "review_load_per_100000_players": {
                    str(n): round((n * fp_ordinary + top_tests(n) * float(
                        (h[:, 10 + k] == 1)[top].mean())) / n * 100_000, 3)
                    for n in (1_000, 10_000, 100_000)} if n_top else None,
                "cheater_held_share": round(float(np.mean(
                    [d["at_strict_lows"][f"{low:g}"]["held"] for d in days])), 4),
                "cheater_unheld_mean_gain": _mean([
                    d["at_strict_lows"][f"{low:g}"]["gain"] for d in days
                    if not d["at_strict_lows"][f"{low:g}"]["held"]]),
                "days_unheld_in_top10": sum(
                    1 for d in days if d["at_strict_lows"][f"{low:g}"]["in_top10"]
                    and not d["at_strict_lows"][f"{low:g}"]["held"]),
            } for k, low in enumerate(STRICT_LOWS)},
        "blind_cheaters": {
            name: {"held_share": round(float(np.mean([d["blind"][name]["held"]
                                                      for d in days])), 4),
                   "mean_gain": round(float(np.mean([d["blind"][name]["gain"]
                                                     for d in days])), 2)}
            for name in (days[0]["blind"] if days else {})},
        "mean_optimal": round(float(np.mean([d["optimal"] for d in days])), 2),
        "mean_top10": round(float(np.mean([d["top10"] for d in days])), 2),
        "mean_top_line": round(float(np.mean([d["top"] for d in days])), 2),
        "seconds": round(seconds, 1),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "per_day": days,
    }
    return summary


def _mean(values: list[float]) -> float | None:
    return round(float(np.mean(values)), 2) if values else None


def _quantiles(x: np.ndarray) -> dict[str, float]:
    if not len(x):
        return {}
    return {q: round(float(np.quantile(x, p)), 3) for q, p in
            (("p50", 0.5), ("p90", 0.9), ("p99", 0.99), ("p99.9", 0.999), ("max", 1.0))}


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--ruleset", default="yahtzee")
    parser.add_argument("--days", type=int, default=20)
    parser.add_argument("--board", type=int, default=10_000, help="honest players per day")
    parser.add_argument("--board-of", type=int, default=10_000,
                        help="the board whose top 10 and top line are measured: from a"
                             " smaller --board, by its quantiles")
    parser.add_argument("--honest", type=int, default=200,
                        help="honest games walked through the detector per day")
    parser.add_argument("--cheater-subsets", type=int, default=32)
    parser.add_argument("--seed", type=int, default=20261202)
    parser.add_argument("--out", type=Path, help="the folder of the result (default bench/results)")
    args = parser.parse_args()
    summary = simulate(args)
    if args.out is not None:
        os.environ["BENCH_RESULTS_DIR"] = str(args.out)
    benchjson.record(f"fairplay-informed-{summary['ruleset']}", headline(summary),
                     notes=f"{summary['days']} days, boards of {summary['board']} players",
                     details=summary)
    brief = {k: v for k, v in summary.items() if k != "per_day"}
    print(json.dumps(brief, indent=1, sort_keys=True))


def headline(summary: dict[str, Any]) -> dict[str, benchjson.Figure]:
    """The figures of the issue's aims, from a run's summary."""
    cheater, honest = summary["informed_cheater"], summary["honest"]
    return {
        "informed_held": figure(round(100 * cheater["held_share"], 1), "% of games"),
        "informed_unheld_gain": figure(cheater["unheld_mean_gain"] or 0.0,
                                       "points over optimal play"),
        "informed_unheld_in_top10": figure(round(100 * cheater["share_of_days_unheld_in_top10"],
                                                 1), "% of days"),
        "honest_held": figure(honest["held_per_10000"], "per 10,000 games",
                              games=honest["games"]),
        "days": figure(summary["days"], "days"),
    }


if __name__ == "__main__":
    main()
