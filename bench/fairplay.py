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
  the detector: the ordinary test, and the stricter test for those that reach the
  board's top line (what the service runs before a game enters the top), unaudited and
  audited, each as drawn on the day and as the probability over the draw of the day's
  lines (exact for uniform lines); the honest games held and the review load are the
  latter (the audit weighted by its share), which does not hang on one draw;
* **the cheaters who have read the code**: they know the code, every slot of the day and
  every published range, not the day's parameters. Each plays the best-scoring game,
  among the mixed foresight games (``argmax E + rho V`` for a grid of ``rho``) and the
  partial foresight games (optimal play with full foresight on its ``b`` best
  decisions), that the public parts of the detector would not hold as far as it can
  tell (:mod:`daily.fairplay.informed`), or optimal play:

  - *informed*: wants never to be held, so stays under the lowest line the stricter
    test can use, the audit's, for each of ``--cheater-subsets`` subsets it draws;
  - *gambling*: ignores the audit (one top game in 200), stays under the lowest strict
    lines only;
  - *under the top*: stays out of the top, where only the ordinary test runs, so under
    the lowest ordinary lines only.

  Each game is then judged with the day's real parameters: held or not (as drawn, and
  as a probability over the audit's draw), its gain over optimal play on the same dice,
  whether it would have entered the board's top 10; and how many days a cheater who
  plays so every day lasts before a game is held or its record of residuals is
  evidence (:mod:`daily.fairplay.history.residual`; days drawn from the run). The informed
  cheater is also measured with the audit's line drawn from other ranges
  (:data:`AUDIT_LOWS`), beside what each holds of the honest top games.

The summary is printed and recorded (``bench/benchjson.py``) as
``bench/results/fairplay-informed-<ruleset>.json`` (``--out`` names another folder), the
aims as figures and the whole summary as details; a long run also keeps what is done so
far in ``--out``'s folder as ``fairplay-informed-<ruleset>.partial.json``::

    .venv/bin/python bench/fairplay.py --ruleset yahtzee --days 200 --board 2000 --honest 200

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
from fairplay_lines import TEMPERATURES, exceeds, held_share, top_line, top_tests

from daily.fairplay import kernel
from daily.fairplay.daykey import (
    AUDIT_POSITIONAL_RANGE,
    AUDIT_SHARE,
    POSITIONAL_RANGE,
    SCRUTINY_SHARE,
    STRICT_POSITIONAL_RANGE,
    STRICT_RANGE,
    THRESHOLD_RANGE,
    DayParams,
    audit_range,
    fairplay_key,
)
from daily.fairplay.foresight import Walked, positional_statistic, statistic
from daily.fairplay.history.residual import KEPT, MIN_GAMES, SPREAD, Z_LINE
from daily.fairplay.informed import SimDay, candidates, own_subsets, safe_lines
from daily.rules import Ruleset, get_ruleset
from daily.strategy.simulate import play_slots, random_slots
from daily.strategy.solver import StrategyTable
from daily.strategy.tables.lookup import table_or_solve
from daily.strategy.triple import column_rules

#: Lowest audit lines measured side by side (each a range one wide, as the ruleset's
#: audit_range, which is one of them), for the trade-off between the review load and the
#: informed cheater.
AUDIT_LOWS = (1.0, 1.5, 2.0, 2.5, 3.0, 4.0)
AUDIT_WIDTH = 1.0
#: The cheaters measured (see the module text).
CHEATERS = ("informed", "gambling", "under the top")
#: Bootstrap runs and horizon (days) of the gambling cheater's record across days.
RECORD_RUNS, RECORD_DAYS = 400, 365
#: The blind cheaters of the first calibration: (name, policy, foresight budget).
BLIND = (("full foresight", kernel.FORESIGHT, 0), ("next-roll foresight", kernel.NEXT_ROLL, 0),
         ("foresight on 1 decision", kernel.PARTIAL, 1),
         ("foresight on 3 decisions", kernel.PARTIAL, 3),
         ("foresight on 5 decisions", kernel.PARTIAL, 5))






def moved(params: DayParams, ruleset: str, low: float) -> DayParams:
    """The day's parameters had its audit line been drawn in ``[low, low + width)`` (the
    same draw: the day's position within its range, ``audit_range(ruleset)``).

    >>> p = DayParams.from_key(bytes(32), "yahtzee")
    >>> round(moved(p, "yahtzee", 5.0).audit_threshold - p.audit_threshold, 6)
    3.5
    """
    start = audit_range(ruleset)[0]
    return replace(params, audit_threshold=low + params.audit_threshold - start)






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
        params = DayParams.from_key(fairplay_key(master, rules.name, f"sim-{day}"), rules.name)
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
            scr, scr_pos = sim.scrutiny(walked), positional_statistic(walked.evidence, weights)
            at_top = walked.total >= top
            ordinary = sim.held(walked, False)
            audited = params.audited(f"honest-{day}-{k}")
            # Held over the draw of the day's lines (exact for uniform lines, each drawn
            # on its own): by the ordinary test; by it or the unaudited stricter test; and
            # when audited, at each of AUDIT_LOWS.
            lam, pos = statistic(walked.loglik), positional_statistic(walked.evidence)
            p_ord = 1 - (1 - exceeds(lam, THRESHOLD_RANGE)) * (
                1 - exceeds(pos, POSITIONAL_RANGE))
            p_strict = 1 - (1 - p_ord) * (1 - exceeds(scr, STRICT_RANGE)) * (
                1 - exceeds(scr_pos, STRICT_POSITIONAL_RANGE))
            if_audited = [1 - (1 - p_ord) * (1 - exceeds(scr, (low, low + AUDIT_WIDTH))) * (
                1 - exceeds(scr_pos, AUDIT_POSITIONAL_RANGE)) for low in AUDIT_LOWS]
            honest.append((day, tau, lam, scr, pos, scr_pos,
                           walked.total, at_top, ordinary, sim.held(walked, True),
                           sim.held(walked, at_top, audited), p_ord, p_strict, *if_audited))
        blind = {}
        for name, policy, budget in BLIND:
            if sim.columns and policy not in (kernel.FORESIGHT,):
                continue
            walked = sim.walk(policy, 0.0, 0, budget, 5.0)
            blind[name] = {"gain": walked.total - optimal,
                           "held": bool(sim.held(walked, walked.total >= top))}
        # The cheaters' candidates, what the public parts say of each, and their choices.
        games = candidates(sim)
        worst = [own_subsets(w, rng, args.cheater_subsets) for w in games]
        public_ok = [statistic(w.loglik) < THRESHOLD_RANGE[0] and
                     positional_statistic(w.evidence) < POSITIONAL_RANGE[0] for w in games]
        optimal_game = sim.walk(kernel.SOFTMAX, 0.0)

        lines = (optimal, top, top10)
        chosen = {}
        for name in CHEATERS:
            if name == "under the top":  # stays out of the top: the ordinary test only
                ok = [k and g.total < top for g, k in zip(games, public_ok, strict=True)]
            else:
                line, line_pos = safe_lines(rules.name, gamble=name == "gambling")
                ok = [k and w_s < line and w_p < line_pos
                      for k, (w_s, w_p) in zip(public_ok, worst, strict=True)]
            chosen[name] = judged(best_of(games, ok, optimal_game), sim, lines,
                                  f"{name}-{day}")
        at_lows = {}
        for low in AUDIT_LOWS:
            ok = [k and w_s < low and w_p < AUDIT_POSITIONAL_RANGE[0]
                  for k, (w_s, w_p) in zip(public_ok, worst, strict=True)]
            day_sim = SimDay(rules, table, sim.slots, moved(params, rules.name, low),
                             sim.ceiling)
            at_lows[f"{low:g}"] = judged(best_of(games, ok, optimal_game), day_sim, lines,
                                         f"informed-{day}")
        days.append({
            "day": day, "optimal": optimal, "top10": top10, "top": top,
            "best_honest": int(board[0]),
            "ceiling": sim.ceiling.value if sim.ceiling is not None else None,
            "threshold": round(params.threshold, 3),
            "strict_threshold": round(params.strict_threshold, 3),
            "audit_threshold": round(params.audit_threshold, 3),
            "cheaters": chosen,
            "best_unsafe": max((g.total for g, k in zip(games, public_ok, strict=True)
                                if not k), default=None),
            "at_audit_lows": at_lows,
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


def best_of(games: list[Walked], ok: list[bool], fallback: Walked) -> Walked:
    """The best-scoring game of those ``ok`` and ``fallback`` (optimal play, always
    safe: its statistics are 0)."""
    return max([fallback, *(g for g, k in zip(games, ok, strict=True) if k)],
               key=lambda g: g.total)


def judged(walked: Walked, sim: SimDay, lines: tuple[int, int, int],
           game_id: str) -> dict[str, Any]:
    """A cheater's game judged on the day: ``lines`` are optimal play's total, the top
    line and the top 10's line of the day's board."""
    optimal, top, top10 = lines
    at_top = walked.total >= top
    p_held, normal, if_audited = held_share(sim, walked, at_top)
    audited = at_top and sim.params.audited(game_id)
    return {"total": walked.total, "gain": walked.total - optimal,
            "statistic": round(statistic(walked.loglik), 3),
            "scrutiny": round(sim.scrutiny(walked), 3),
            "at_top": bool(at_top), "in_top10": bool(walked.total >= top10),
            "optimal_in_top10": bool(optimal >= top10),
            "held_share": round(p_held, 4), "held_unaudited": bool(normal),
            "held_if_audited": bool(if_audited), "audited": bool(audited),
            "held": bool(if_audited if audited else normal)}


def record_days(gains: np.ndarray, held: np.ndarray, spread: float | None,
                rng: np.random.Generator) -> dict[str, Any]:
    """How many days a cheater who plays every day lasts: days drawn at random from the
    run (with replacement) up to :data:`RECORD_DAYS`, until its game is held (each day
    with its probability ``held``) or its record of residuals (its gains: optimal play
    is the par) is evidence (:mod:`daily.fairplay.history.residual`: the latest ``KEPT`` days).
    Medians and 90th percentiles over :data:`RECORD_RUNS` runs; ``None`` past the horizon.

    >>> out = record_days(np.full(10, 50.0), np.zeros(10), 50.0, np.random.default_rng(1))
    >>> out["residual_evidence"]["p50"], out["held"]["p50"]
    (14, None)
    """
    firsts: dict[str, list[float]] = {"held": [], "residual_evidence": [], "either": []}
    for _ in range(RECORD_RUNS):
        pick = rng.integers(0, len(gains), RECORD_DAYS)
        caught = np.flatnonzero(rng.random(RECORD_DAYS) < held[pick])
        first_held = int(caught[0]) + 1 if len(caught) else None
        first_record = None
        if spread is not None:
            g = gains[pick]
            sums = np.cumsum(g)
            window = np.array([sums[n] - (sums[n - KEPT] if n >= KEPT else 0.0)
                               for n in range(RECORD_DAYS)])
            count = np.minimum(np.arange(1, RECORD_DAYS + 1), KEPT)
            hit = np.flatnonzero((window / (spread * np.sqrt(count)) >= Z_LINE)
                                 & (np.arange(1, RECORD_DAYS + 1) >= MIN_GAMES))
            first_record = int(hit[0]) + 1 if len(hit) else None
        both = [x for x in (first_held, first_record) if x is not None]
        for name, x in (("held", first_held), ("residual_evidence", first_record),
                        ("either", min(both) if both else None)):
            firsts[name].append(np.inf if x is None else float(x))
    out: dict[str, Any] = {}
    for name, values in firsts.items():
        a = np.array(values)
        out[name] = {q: (None if not np.isfinite(np.quantile(a, p, method="lower")) else
                         int(np.quantile(a, p, method="lower")))
                     for q, p in (("p50", 0.5), ("p90", 0.9))}
        out[name]["within_horizon"] = round(float(np.isfinite(a).mean()), 3)
    return out


def summarise(args: argparse.Namespace, rules: Ruleset, table: StrategyTable,
              honest: list[Any], days: list[dict[str, Any]], seconds: float) -> dict[str, Any]:
    h = np.array(honest, dtype=float)
    # columns: 0 day, 1 tau, 2 statistic, 3 scrutiny, 4 positional, 5 scrutiny
    # positional, 6 total, 7 at the top; as drawn on the day: 8 held by the ordinary
    # test, 9 held by the stricter test (not audited), 10 held with this game's own
    # audit draw; over the draw of the lines (what the review load is made of): 11 held
    # by the ordinary test, 12 by the unaudited stricter test, 13.. if audited, at each
    # of AUDIT_LOWS
    top = h[:, 7] == 1
    held_ordinary = h[:, 8] == 1
    n_top = int(top.sum())
    fp_ordinary = float(h[:, 11].mean())
    strict_normal = h[top, 12]
    k_audit = AUDIT_LOWS.index(audit_range(rules.name)[0])

    def fp_top_at(k: int) -> float:  # the share of top games held, over the lines' draw
        if not n_top:
            return float("nan")
        return float(np.mean((1 - AUDIT_SHARE) * strict_normal
                             + AUDIT_SHARE * h[top, 13 + k]))

    def load_of(fp_top: float) -> dict[str, float]:
        return {str(n): round(n * fp_ordinary + top_tests(n) * fp_top, 4)
                for n in (1_000, 10_000, 100_000)}

    fp_top = fp_top_at(k_audit)
    load = load_of(fp_top)
    held_expected = np.where(top, (1 - AUDIT_SHARE) * h[:, 12]
                             + AUDIT_SHARE * h[:, 13 + k_audit], h[:, 11])
    held_drawn = np.where(top, h[:, 10] == 1, held_ordinary)
    top_stats = h[top]
    cheaters = {name: _cheater([d["cheaters"][name] for d in days], rules.name)
                for name in CHEATERS}
    informed = cheaters["informed"]
    summary = {
        "ruleset": rules.name,
        "command": " ".join(["bench/fairplay.py", *sys.argv[1:]]),
        "days": len(days), "board": args.board, "board_of": args.board_of,
        "honest_per_day": args.honest,
        "cheater_subsets": args.cheater_subsets,
        "threshold_range": list(THRESHOLD_RANGE), "strict_range": list(STRICT_RANGE),
        "strict_positional_range": list(STRICT_POSITIONAL_RANGE),
        "audit_range": list(audit_range(rules.name)),
        "audit_positional_range": list(AUDIT_POSITIONAL_RANGE),
        "audit_share": AUDIT_SHARE, "scrutiny_share": SCRUTINY_SHARE,
        "optimal_expected": round(table.expected, 2) if len(rules.weights) == 1 else None,
        "honest": {
            "games": len(h),
            "held_expected": round(float(held_expected.sum()), 3),
            "held_per_10000": round(10_000 * float(held_expected.mean()), 3),
            "held_drawn": int(held_drawn.sum()),
            "held_ordinary": int(held_ordinary.sum()),
            "held_ordinary_expected": round(float(h[:, 11].sum()), 3),
            "top_games": n_top, "top_held_unaudited": int((h[:, 9] == 1)[top].sum()),
            "top_held_unaudited_expected": round(float(strict_normal.sum()), 3),
            "top_held_if_audited": round(float(h[top, 13 + k_audit].sum()), 3),
            "top_held_share_unaudited": round(float(strict_normal.mean()), 5) if n_top else None,
            "top_held_share_if_audited": (round(float(h[top, 13 + k_audit].mean()), 5)
                                          if n_top else None),
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
        "cheaters": cheaters,
        "aims": {
            # An unheld game in the top 10 on a day when optimal play (anyone's, with
            # the public strategy table) is there too is no gain of the cheating: the
            # aim counts the days when the cheating put it there.
            "no_unheld_top10_on_99pct_of_days": (
                informed["share_of_days_unheld_in_top10_beyond_optimal_expected"] <= 0.01),
            "unheld_gain_at_most_10": (informed["unheld_mean_gain"] is not None
                                       and informed["unheld_mean_gain"] <= 10.0),
            "honest_held_at_most_1_in_10000": float(held_expected.mean()) <= 1e-4,
            "review_load_at_most_3_per_100000": all(
                v / int(n) * 100_000 <= 3.0 for n, v in load.items()),
        },
        "audit_line_tradeoff": {
            f"{low:g}": {
                "range": [low, low + AUDIT_WIDTH],
                "honest_top_held_share_if_audited": (round(float(h[top, 13 + k].mean()), 5)
                                                     if n_top else None),
                "review_load_per_100000_players": {
                    n: round(v / int(n) * 100_000, 3)
                    for n, v in load_of(fp_top_at(k)).items()} if n_top else None,
                **{key: value for key, value in _cheater(
                    [d["at_audit_lows"][f"{low:g}"] for d in days], None).items()
                   if key in ("unheld_mean_gain", "mean_gain_all",
                              "days_unheld_in_top10_expected",
                              "days_unheld_in_top10_beyond_optimal_expected",
                              "at_top_share")},
            } for k, low in enumerate(AUDIT_LOWS)},
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


def _cheater(games: list[dict[str, Any]], ruleset: str | None) -> dict[str, Any]:
    """A cheater's figures over the days: held (over the audit's draw, and as drawn),
    the gain of its unheld games (weighted by the chance of not being held), the days
    it is unheld in the top 10, and (with ``ruleset``) how long its record lasts."""
    gains = np.array([g["gain"] for g in games], dtype=float)
    p_held = np.array([g["held_share"] for g in games])
    unheld = 1 - p_held
    in_top10 = np.array([g["in_top10"] for g in games], dtype=float)
    drawn = [g for g in games if not g["held"]]
    beyond = np.array([not g["optimal_in_top10"] for g in games], dtype=float)
    out: dict[str, Any] = {
        "held_share": round(float(p_held.mean()), 4),
        "held_drawn": sum(1 for g in games if g["held"]),
        "unheld_mean_gain": (round(float(np.sum(gains * unheld) / unheld.sum()), 2)
                             if unheld.sum() > 0 else None),
        "unheld_mean_gain_drawn": _mean([g["gain"] for g in drawn]),
        "unheld_gain_quantiles": _quantiles(np.array([g["gain"] for g in drawn])),
        "mean_gain_all": round(float(gains.mean()), 2),
        "at_top_share": round(float(np.mean([g["at_top"] for g in games])), 4),
        "in_top10_days": int(in_top10.sum()),
        "days_unheld_in_top10_expected": round(float(np.sum(in_top10 * unheld)), 3),
        "days_unheld_in_top10_drawn": sum(1 for g in drawn if g["in_top10"]),
        "share_of_days_unheld_in_top10_expected": round(
            float(np.mean(in_top10 * unheld)), 4),
        # The days when optimal play (allowed: a strategy table) is not in the top 10
        # itself: what the cheating adds (the aim's measure).
        "days_unheld_in_top10_beyond_optimal_expected": round(float(np.sum(
            in_top10 * unheld * beyond)), 3),
        "share_of_days_unheld_in_top10_beyond_optimal_expected": round(float(np.mean(
            in_top10 * unheld * beyond)), 4),
        "days_optimal_in_top10": sum(1 for g in games if g["optimal_in_top10"]),
    }
    if ruleset is not None:
        out["record"] = record_days(gains, p_held, SPREAD.get(ruleset),
                                    np.random.default_rng(len(games)))
    return out


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
    parser.add_argument("--attacks", action="store_true",
                        help="measure the attackers of a board with history instead"
                             " (bench/fairplay_attacks.py): fairplay-attacks-<ruleset>.json")
    parser.add_argument("--standing", type=float, default=0.8,
                        help="--attacks: the share of honest players on the public top")
    parser.add_argument("--provisional-days", type=int, default=7,
                        help="--attacks: DAILY_PROVISIONAL_DAYS")
    args = parser.parse_args()
    if args.attacks:
        import fairplay_attacks

        attacks = fairplay_attacks.run(args)
        print(json.dumps({k: v for k, v in attacks.items() if k != "per_day"}, indent=1,
                         sort_keys=True))
        return
    summary = simulate(args)
    if args.out is not None:
        os.environ["BENCH_RESULTS_DIR"] = str(args.out)
    benchjson.record(f"fairplay-informed-{summary['ruleset']}", headline(summary),
                     notes=f"{summary['days']} days, boards of {summary['board']} players",
                     details=summary)
    brief = {k: v for k, v in summary.items() if k != "per_day"}
    print(json.dumps(brief, indent=1, sort_keys=True))


def headline(summary: dict[str, Any]) -> dict[str, benchjson.Figure]:
    """The figures of the aims, from a run's summary."""
    cheaters, honest = summary["cheaters"], summary["honest"]
    informed, gambling = cheaters["informed"], cheaters["gambling"]
    return {
        "informed_held": figure(round(100 * informed["held_share"], 2), "% of games"),
        "informed_unheld_gain": figure(informed["unheld_mean_gain"] or 0.0,
                                       "points over optimal play"),
        "informed_unheld_in_top10": figure(
            round(100 * informed["share_of_days_unheld_in_top10_expected"], 2), "% of days"),
        "informed_unheld_in_top10_beyond_optimal": figure(
            round(100 * informed["share_of_days_unheld_in_top10_beyond_optimal_expected"], 2),
            "% of days (optimal play out of the top 10)"),
        "gambling_unheld_gain": figure(gambling["unheld_mean_gain"] or 0.0,
                                       "points over optimal play"),
        "gambling_unheld_in_top10": figure(
            round(100 * gambling["share_of_days_unheld_in_top10_expected"], 2), "% of days"),
        "honest_held": figure(honest["held_per_10000"], "per 10,000 games",
                              games=honest["games"]),
        "review_load_1000": figure(summary["review_load_per_100000_players"]["1000"],
                                   "games per 100,000 players a day (1,000 players)"),
        "review_load_10000": figure(summary["review_load_per_100000_players"]["10000"],
                                    "games per 100,000 players a day (10,000 players)"),
        "days": figure(summary["days"], "days"),
    }


if __name__ == "__main__":
    main()
