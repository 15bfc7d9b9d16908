"""The lines of the evidence across games and days, measured on honest play.

    .venv/bin/python bench/evidence.py --games 300                       # yahtzee
    .venv/bin/python bench/evidence.py --rulesets yatzy yacht generala --games 300

On random days (seeded), the strategy bots play: hard, medium at temperatures 1, 3 and
10, and easy. For each level: the dice a game shows per die it keeps
(:func:`daily.fairplay.scouting.reveals_of`; a scout that rerolls everything shows 3),
the share of its rerolls that rerolled every die, and its residual (its score minus the
hard bot's on the same dice), whose standard deviation at medium temperature 1 is the
spread of :data:`daily.fairplay.residual.SPREAD`. Counts of games, not timings.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import benchjson
from benchjson import figure

from daily.fairplay.scouting import REVEAL_UNUSED, reveals_of
from daily.game import Game
from daily.movelog import MoveLog
from daily.rules import get_ruleset
from daily.strategy.bots import Bot
from daily.strategy.tables.lookup import table_or_solve

LEVELS = (("hard", 1.0), ("medium", 1.0), ("medium", 3.0), ("medium", 10.0), ("easy", 1.0))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rulesets", nargs="+", default=["yahtzee"])
    parser.add_argument("--games", type=int, default=300)
    args = parser.parse_args()
    figures: dict[str, benchjson.Figure] = {}
    details: dict[str, dict[str, dict[str, float]]] = {}
    for name in args.rulesets:
        rules = get_ruleset(name)
        table = table_or_solve(rules)  # the saved table where there is one (Maxi Yatzy)
        seeds = [bytes([k % 256, k // 256, 7]) + bytes(29) for k in range(args.games)]
        hard = Bot(table, "hard")
        optimal = [hard.play(Game.from_seed(rules, seed)).card.total for seed in seeds]
        key = name.replace("-", "_")
        details[name] = {}
        worst_ratio = worst_share = 0.0
        for level, temperature in LEVELS:
            bot = Bot(table, level, temperature=temperature, seed=1)
            ratios, shares, residuals = [], [], []
            for seed, best in zip(seeds, optimal, strict=True):
                game = bot.play(Game.from_seed(rules, seed))
                reveals = reveals_of(MoveLog.of_game(game, seed=seed))
                ratios.append(reveals.ratio)
                shares.append(reveals.share_all)
                residuals.append(game.card.total - best)
            label = f"{level}-{temperature:g}"
            details[name][label] = {
                "ratio_mean": round(statistics.mean(ratios), 3),
                "ratio_max": round(max(ratios), 3),
                "reroll_all_max": round(max(shares), 3),
                "residual_mean": round(statistics.mean(residuals), 1),
                "residual_sd": round(statistics.pstdev(residuals), 1),
            }
            worst_ratio, worst_share = max(worst_ratio, max(ratios)), max(worst_share, max(shares))
            print(f"{name:9} {label:10} dice shown per die kept: mean"
                  f" {statistics.mean(ratios):.3f} max {max(ratios):.3f};"
                  f" rerolled everything at most {max(shares):.0%} of rerolls;"
                  f" residual mean {statistics.mean(residuals):+.1f}"
                  f" sd {statistics.pstdev(residuals):.1f}", flush=True)
        figures[f"{key}_honest_ratio_max"] = figure(round(worst_ratio, 3), "dice per die",
                                                    line=REVEAL_UNUSED, games=args.games)
        figures[f"{key}_honest_reroll_all_max"] = figure(round(worst_share, 3), "share")
        figures[f"{key}_residual_sd"] = figure(details[name]["medium-1"]["residual_sd"],
                                               "points", games=args.games)
    benchjson.record("evidence-" + "-".join(args.rulesets), figures, details=details)


if __name__ == "__main__":
    main()
