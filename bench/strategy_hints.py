"""Benchmark: hint latency (p50/p99) once a table is loaded.

Positions are the ones met while the hard bot plays seeded games; each query is a
fresh :class:`Advisor` (no turn cache), as for one API request.

    .venv/bin/python bench/strategy_hints.py [--ruleset yahtzee] [--queries 2000]
"""

from __future__ import annotations

import argparse
import hashlib
import time

import numpy as np

from daily.game import Game
from daily.rules import get_ruleset
from daily.strategy.advisor import Advisor, Position
from daily.strategy.store import table_or_solve


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="yahtzee")
    parser.add_argument("--queries", type=int, default=2000)
    args = parser.parse_args()
    table = table_or_solve(get_ruleset(args.ruleset))
    advisor = Advisor(table)
    positions: list[Position] = []
    i = 0
    while len(positions) < args.queries:
        game = Game.from_seed(table.rules, hashlib.sha256(b"hints-%d" % i).digest())
        i += 1
        while not game.over:
            pos = Position.from_game(game)
            positions.append(pos)
            act = advisor.best(pos)
            game.reroll(act.hold) if act.kind == "keep" else game.score(act.box)
    positions = positions[: args.queries]
    Advisor(table).hint(positions[0])  # warm up the compiled kernels
    times = []
    for pos in positions:
        start = time.perf_counter()
        Advisor(table).hint(pos)
        times.append(time.perf_counter() - start)
    ms = np.array(times) * 1000
    print(f"{args.ruleset}: {len(ms)} hint queries: p50 {np.percentile(ms, 50):.3f} ms, "
          f"p99 {np.percentile(ms, 99):.3f} ms, max {ms.max():.3f} ms")


if __name__ == "__main__":
    main()
