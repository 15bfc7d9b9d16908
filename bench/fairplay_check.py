"""The cost of the fair-play check in the results path, per ranked game.

    .venv/bin/python bench/fairplay_check.py --games 300

Plays ``--games`` medium-bot games on one day's dice, then times what the results
worker does for each: :func:`daily.fairplay.foresight.assess` (replay of the log
against the day's ceiling and the strategy table), and once per day the ceiling. Prints
median, p90 and p99 per game, with the machine load (it may be shared).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from daily.fairplay.ceiling import ceiling_of_seed
from daily.fairplay.foresight import assess
from daily.game import Game
from daily.movelog import MoveLog
from daily.rules import get_ruleset
from daily.strategy.bots import Bot
from daily.strategy.store import table_or_solve


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="yahtzee")
    parser.add_argument("--games", type=int, default=300)
    args = parser.parse_args()
    rules = get_ruleset(args.ruleset)
    table = table_or_solve(rules)
    seed = os.urandom(32)
    ceiling_of_seed(rules, bytes(32))  # numba: load or compile once
    start = time.perf_counter()
    ceiling = ceiling_of_seed(rules, seed)
    per_day = time.perf_counter() - start
    logs = []
    for g in range(args.games):
        game = Bot(table, "medium", seed=g).play(Game.from_seed(rules, seed))
        logs.append(MoveLog.of_game(game, seed=seed))
    assess(logs[0], ceiling, table)  # warm
    times = []
    flagged = 0
    for log in logs:
        t0 = time.perf_counter()
        verdict = assess(log, ceiling, table)
        times.append(time.perf_counter() - t0)
        flagged += verdict.flagged
    times.sort()
    q = lambda p: times[int(p * (len(times) - 1))] * 1000  # noqa: E731
    print(f"fairplay check, {args.ruleset}: load {os.getloadavg()} (shared machine)")
    print(f"ceiling once per day: {per_day * 1000:.0f} ms")
    print(f"assess per game over {len(times)} games: median {statistics.median(times) * 1000:.2f}"
          f" ms, p90 {q(0.9):.2f} ms, p99 {q(0.99):.2f} ms; flagged {flagged}")


if __name__ == "__main__":
    main()
