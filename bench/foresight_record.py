"""The line of the foresight record (:mod:`daily.fairplay.history.sequential`), measured on honest
play, and how soon it holds the cheaters of ``bench/fairplay.py``.

    .venv/bin/python bench/foresight_record.py --ruleset yahtzee --days 30 --games 200

On ``--days`` random days (seeded), the compiled noisy-optimal players (a softmax over
the optimal expected values, :data:`TEMPERATURES` points; the honest populations of
``bench/fairplay.py`` and ``bench/evidence.py``, and a stronger one at 0.1) play
``--games`` games each, walked through the foresight test: each game's ``Λ``
(:func:`daily.fairplay.foresight.statistic`). Player-seasons of ``--season`` ranked
games are then drawn from these (each game from a random day, as a player's days are
independent days of dice), ``--seasons`` per temperature, and the record's cumulative
sum run over each: the share of honest player-seasons it holds at :data:`LINE`, and for
a grid of drifts the line that holds at most 1 in 10,000 at every temperature.

The cheaters are those of ``bench/fairplay.py`` (its per-day figures in
``bench/results/fairplay-informed-<ruleset>.json``): the gambling cheater and the
cheater under the top, each ``Λ`` of a day drawn from its 200 days; for each, the days
until the record holds it (median, 90th centile) and the share held within the season.
Counts of games and seasons, not timings.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import benchjson
from benchjson import figure

from daily.fairplay import kernel
from daily.fairplay.daykey import DayParams, fairplay_key
from daily.fairplay.foresight import statistic
from daily.fairplay.history.sequential import DRIFT, LINE
from daily.fairplay.informed import SimDay
from daily.rules import get_ruleset
from daily.strategy.simulate import random_slots
from daily.strategy.tables.lookup import table_or_solve

TEMPERATURES = (0.1, 0.25, 0.5, 1.0, 2.0, 4.0)
DRIFTS = (0.5, 1.0, 1.5, 2.0)
CHEATERS = ("gambling", "under the top", "informed")
AIM = 1e-4


def honest_pool(ruleset: str, days: int, games: int, seed: int) -> np.ndarray:
    """``Λ`` of honest games: shape (temperatures, days, games)."""
    rules = get_ruleset(ruleset)
    table = table_or_solve(rules)
    slots = random_slots(rules, days, seed)
    out = np.zeros((len(TEMPERATURES), days, games))
    for d in range(days):
        params = DayParams.from_key(fairplay_key(bytes(32), rules.name, f"rec-{d}"), rules.name)
        sim = SimDay(rules, table, slots[d], params)
        for t, tau in enumerate(TEMPERATURES):
            for g in range(games):
                out[t, d, g] = statistic(sim.walk(kernel.SOFTMAX, tau, d * 1_000_003
                                                  + t * 10_007 + g + 1).loglik)
        print(f"  day {d + 1}/{days}", file=sys.stderr, flush=True)
    return out


def season_max(draws: np.ndarray, drift: float) -> tuple[np.ndarray, np.ndarray]:
    """For each season (rows of ``draws``): the largest cumulative sum, and the sum
    after each game (read by :func:`first_at`)."""
    s = np.zeros(draws.shape[0])
    peak = np.zeros(draws.shape[0])
    path = np.zeros_like(draws)
    for n in range(draws.shape[1]):
        s = np.maximum(0.0, s + draws[:, n] - drift)
        path[:, n] = s
        peak = np.maximum(peak, s)
    return peak, path


def honest_peaks(pool: np.ndarray, count: int, length: int, drift: float,
                 rng: np.random.Generator, block: int = 20_000) -> np.ndarray:
    """The largest cumulative sum of ``count`` honest seasons, drawn in blocks."""
    out = []
    for start in range(0, count, block):
        out.append(season_max(seasons_of(pool, min(block, count - start), length, rng),
                              drift)[0])
    return np.concatenate(out)


def first_at(path: np.ndarray, line: float) -> np.ndarray:
    """The first game at which each season's sum reached ``line`` (0: never)."""
    over = path >= line
    first = over.argmax(axis=1) + 1
    return np.where(over.any(axis=1), first, 0)


def seasons_of(pool: np.ndarray, count: int, length: int,
               rng: np.random.Generator) -> np.ndarray:
    """``count`` seasons of ``length`` games drawn from a pool (days, games)."""
    days, games = pool.shape
    return pool[rng.integers(0, days, (count, length)), rng.integers(0, games, (count, length))]


def cheater_stats(ruleset: str) -> dict[str, np.ndarray]:
    """Each cheater's ``Λ`` day by day, from ``bench/fairplay.py``'s results."""
    found = benchjson.load(f"fairplay-informed-{ruleset}")
    if found is None:
        return {}
    days = found["details"]["per_day"]
    return {name: np.array([d["cheaters"][name]["statistic"] for d in days]) for name in CHEATERS}


def quant(x: np.ndarray) -> dict[str, float | None]:
    held = x[x > 0]
    if not len(held):
        return {"p50": None, "p90": None}
    return {"p50": float(np.quantile(held, 0.5)), "p90": float(np.quantile(held, 0.9))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ruleset", default="yahtzee")
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--games", type=int, default=200, help="games per temperature per day")
    parser.add_argument("--season", type=int, default=200, help="ranked games of a season")
    parser.add_argument("--seasons", type=int, default=200_000, help="seasons per temperature")
    parser.add_argument("--seed", type=int, default=37)
    parser.add_argument("--pool", type=Path, help="read (or, when missing, write) the honest"
                        " games' statistics here (.npy) to re-run the analysis alone")
    args = parser.parse_args()
    if args.pool is not None and args.pool.exists():
        pool = np.load(args.pool)
    else:
        pool = honest_pool(args.ruleset, args.days, args.games, args.seed)
        if args.pool is not None:
            np.save(args.pool, pool)
    rng = np.random.default_rng(args.seed)
    per_temp: dict[str, Any] = {}
    lines: dict[str, dict[str, float]] = {f"{d:g}": {} for d in DRIFTS}
    held_at_line = []
    for t, tau in enumerate(TEMPERATURES):
        row: dict[str, Any] = {
            "games": int(pool[t].size), "mean": round(float(pool[t].mean()), 4),
            "p99": round(float(np.quantile(pool[t], 0.99)), 3),
            "max": round(float(pool[t].max()), 3)}
        for drift in DRIFTS:
            peak = honest_peaks(pool[t], args.seasons, args.season, drift, rng)
            need = float(np.quantile(peak, 1 - AIM))
            lines[f"{drift:g}"][f"{tau:g}"] = round(need, 3)
            if drift == DRIFT:
                row["held_per_10000_seasons"] = round(float((peak >= LINE).mean()) * 1e4, 3)
                row["peak_quantiles"] = {q: round(float(np.quantile(peak, p)), 3) for q, p in
                                         (("p50", 0.5), ("p99", 0.99), ("p99.99", 0.9999))}
                held_at_line.append(row["held_per_10000_seasons"])
        per_temp[f"{tau:g}"] = row
    needed = {d: max(v.values()) for d, v in lines.items()}
    cheaters: dict[str, Any] = {}
    for name, stats in cheater_stats(args.ruleset).items():
        draws = stats[rng.integers(0, len(stats), (20_000, args.season))]
        row = {"mean_statistic": round(float(stats.mean()), 3)}
        for drift in DRIFTS:
            line = LINE if drift == DRIFT else needed[f"{drift:g}"]
            _, path = season_max(draws, drift)
            first = first_at(path, line)
            row[f"drift {drift:g}"] = {"line": round(line, 3),
                                       "held_within_season": round(float((first > 0).mean()), 4),
                                       "days_to_hold": quant(first.astype(float))}
        cheaters[name] = row
    worst = max(held_at_line)
    figures = {
        "honest_seasons_held": figure(worst, "per 10,000 player-seasons (worst temperature)",
                                      season_games=args.season, seasons=args.seasons),
        "line_needed": figure(needed[f"{DRIFT:g}"], "cumulative sum at 1 in 10,000 seasons",
                              drift=DRIFT, line=LINE),
    }
    for name in ("gambling", "under the top"):
        if name in cheaters:
            got = cheaters[name][f"drift {DRIFT:g}"]
            figures[f"{name.replace(' ', '_')}_days_to_hold_p50"] = figure(
                got["days_to_hold"]["p50"] or 0, "days", p90=got["days_to_hold"]["p90"],
                held_within_season=got["held_within_season"])
    details = {"ruleset": args.ruleset, "days": args.days, "games": args.games,
               "season": args.season, "seasons": args.seasons, "drift": DRIFT, "line": LINE,
               "temperatures": per_temp, "line_needed_per_drift": lines,
               "line_needed_worst": needed, "cheaters": cheaters}
    print(json.dumps(details, indent=1))
    benchjson.record(f"foresight_record-{args.ruleset}", figures, details=details)


if __name__ == "__main__":
    main()
