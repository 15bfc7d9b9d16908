"""Benchmark: bot averages over seeded games per ruleset and level, and games per second.

Games use the slot dice of seeds ``sha256("bench-<ruleset>-<i>")`` (the daily
generator). Averages come from the compiled player (same decisions as ``Bot``);
games/s is reported for it and for ``Bot`` driving ``daily.game.Game``.

    .venv/bin/python bench/strategy_bots.py [--games 10000] [--rulesets yahtzee,yatzy]
"""

from __future__ import annotations

import argparse
import hashlib
import math
import time

import benchjson
from benchjson import figure

from daily.game import Game
from daily.rules import get_ruleset
from daily.strategy.bots import LEVELS, MEDIUM_TEMPERATURE, Bot
from daily.strategy.simulate import play_slots, slot_array
from daily.strategy.tables.lookup import table_or_solve


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--rulesets", default="yahtzee,yatzy")
    parser.add_argument("--python-games", type=int, default=200)
    args = parser.parse_args()
    print(f"medium temperature {MEDIUM_TEMPERATURE}")
    figures: dict[str, benchjson.Figure] = {}
    for name in args.rulesets.split(","):
        table = table_or_solve(get_ruleset(name))
        seeds = [hashlib.sha256(f"bench-{name}-{i}".encode()).digest() for i in range(args.games)]
        start = time.perf_counter()
        slots = slot_array(table.rules, seeds)
        print(f"{name}: optimal expectation {table.expected:.4f}; dice of {args.games} seeds "
              f"in {time.perf_counter() - start:.1f}s")
        play_slots(table, slots[:2], "hard")  # compile/load the kernel
        for level in LEVELS:
            start = time.perf_counter()
            totals = play_slots(table, slots, level, seed=1)
            took = time.perf_counter() - start
            se = totals.std(ddof=1) / math.sqrt(len(totals))
            print(f"  {level:<6} mean {totals.mean():8.2f} ± {se:.2f} (sd {totals.std():.1f}) "
                  f"compiled {len(totals) / took:9.0f} games/s")
            key = f"{name.replace('-', '_')}_{level}"
            figures[f"{key}_mean"] = figure(round(float(totals.mean()), 2), "points",
                                            ci95=round(1.96 * float(se), 2), games=len(totals))
            figures[f"{key}_compiled"] = figure(round(len(totals) / took), "games/s")
        for level in LEVELS:
            bot = Bot(table, level, seed=1)
            start = time.perf_counter()
            for seed in seeds[: args.python_games]:
                bot.play(Game.from_seed(table.rules, seed))
            took = time.perf_counter() - start
            print(f"  {level:<6} Bot through Game: {args.python_games / took:7.1f} games/s")
            figures[f"{name.replace('-', '_')}_{level}_through_game"] = figure(
                round(args.python_games / took, 1), "games/s")
    benchjson.record("strategy_bots-" + args.rulesets.replace(",", "-"), figures)


if __name__ == "__main__":
    main()
