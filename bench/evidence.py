"""The lines of the evidence across games and days, measured on honest play.

    .venv/bin/python bench/evidence.py --games 300                       # yahtzee
    .venv/bin/python bench/evidence.py --rulesets yatzy yacht generala --games 300

On random days (seeded), the strategy bots play: hard, medium at temperatures 1, 3 and
10, and easy. For each level: the dice a game shows per die it keeps
(:func:`daily.fairplay.scouting.reveals_of`; a scout that rerolls everything shows 3),
the share of its rerolls that rerolled every die, and its residual (its score minus the
hard bot's on the same dice), whose standard deviation at medium temperature 1 is the
spread of :data:`daily.fairplay.history.residual.SPREAD`. Then, for the scouts seen by how
they play (:func:`daily.fairplay.scouting.plays_blind`): each game's expected loss per
decision (:func:`daily.strategy.analysis.analyse`) and the share of its rerolls that held
its most common positions, for the honest levels and for split scouts (two accounts,
each rerolling a disjoint half of the positions at every reroll, the best box at the
end); how many games of each the line calls blind. Counts of games, not timings.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import benchjson
from benchjson import figure

from daily.fairplay.scouting import BLIND_LOSS, BLIND_SAME, REVEAL_UNUSED, plays_blind, reveals_of
from daily.game import Game
from daily.movelog import MoveLog
from daily.rules import get_ruleset
from daily.strategy.advisor import Advisor
from daily.strategy.analysis import analyse
from daily.strategy.bots import Bot
from daily.strategy.spec import Position
from daily.strategy.tables.lookup import table_or_solve

LEVELS = (("hard", 1.0), ("medium", 1.0), ("medium", 3.0), ("medium", 10.0), ("easy", 1.0))


def split_scout(advisor: Advisor, game: Game, rerolled: set[int]) -> Game:
    """Reroll the positions ``rerolled`` at every reroll, then fill the best box."""
    hold = "".join("0" if i in rerolled else "1" for i in range(game.rules.dice))
    while not game.over:
        if game.rolls_left > 0:
            game.reroll(hold)
        else:
            pos = Position.from_game(game)
            box = next(a for a in advisor.actions(pos) if a.kind == "box")
            assert box.box is not None
            game.score(box.box)
    return game


def blind_figures(table: object, rules: object, seeds: list[bytes], games: int,
                  key: str, figures: dict[str, benchjson.Figure],
                  details: dict[str, dict[str, float]]) -> None:
    """Expected loss per decision and same-positions share, honest and split scouts."""
    advisor = Advisor(table)  # type: ignore[arg-type]
    half = rules.dice // 2  # type: ignore[attr-defined]
    players = [(f"{level}-{temperature:g}", Bot(table, level, temperature=temperature,  # type: ignore[arg-type]
                                               seed=1).play) for level, temperature in LEVELS]
    players += [("split-low", lambda g: split_scout(advisor, g, set(range(half)))),
                ("split-high", lambda g: split_scout(advisor, g, set(range(half, g.rules.dice))))]
    honest_loss = honest_same = 0.0
    split_loss = split_same = float("inf")
    honest_blind = split_blind = 0
    for label, play in players:
        losses, sames, blind = [], [], 0
        for seed in seeds:
            log = MoveLog.of_game(play(Game.from_seed(rules, seed)), seed=seed)  # type: ignore[arg-type]
            report = analyse(table, log, seed=seed, with_optimal_total=False)  # type: ignore[arg-type]
            reveals = reveals_of(log)
            losses.append(report.expected_loss / len(report.decisions))
            sames.append(reveals.share_same)
            blind += plays_blind(reveals, report.expected_loss, len(report.decisions))
        row = details.setdefault(label, {})
        row.update({"loss_per_decision_mean": round(statistics.mean(losses), 3),
                    "loss_per_decision_max": round(max(losses), 3),
                    "loss_per_decision_min": round(min(losses), 3),
                    "same_positions_max": round(max(sames), 3),
                    "same_positions_min": round(min(sames), 3), "blind": blind})
        if label.startswith("split"):
            split_loss, split_same = min(split_loss, min(losses)), min(split_same, min(sames))
            split_blind += blind
        else:
            honest_loss, honest_same = max(honest_loss, max(losses)), max(honest_same, max(sames))
            honest_blind += blind
        print(f"{key:9} {label:10} expected loss a decision: mean {statistics.mean(losses):.2f}"
              f" max {max(losses):.2f} min {min(losses):.2f}; same positions at most"
              f" {max(sames):.0%} of rerolls, at least {min(sames):.0%}; blind {blind}",
              flush=True)
    figures[f"{key}_honest_loss_per_decision_max"] = figure(round(honest_loss, 3), "points",
                                                            line=BLIND_LOSS, games=games)
    figures[f"{key}_honest_same_positions_max"] = figure(round(honest_same, 3), "share",
                                                         line=BLIND_SAME, games=games)
    figures[f"{key}_honest_blind"] = figure(honest_blind, "games",
                                            games=games * len(LEVELS))
    figures[f"{key}_split_loss_per_decision_min"] = figure(round(split_loss, 3), "points",
                                                           games=2 * games)
    figures[f"{key}_split_same_positions_min"] = figure(round(split_same, 3), "share")
    figures[f"{key}_split_blind"] = figure(split_blind, "games", games=2 * games)


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
        blind_figures(table, rules, seeds, args.games, key, figures, details[name])
    benchjson.record("evidence-" + "-".join(args.rulesets), figures, details=details)


if __name__ == "__main__":
    main()
