"""The cost of the fair-play check in the results path, per ranked game.

    .venv/bin/python bench/fairplay_check.py --games 300
    .venv/bin/python bench/fairplay_check.py --ruleset maxi-yatzy --ceiling-only --games 1000

Plays ``--games`` medium-bot games on one day's dice, then times what the results
worker does for each: :func:`daily.fairplay.foresight.assess` (replay of the log
against the day's ceiling and the strategy table), and once per day the ceiling. With
``--ceiling-only`` (what runs without the strategy table, as for Maxi Yatzy while it
is built) the games are random players' (no table needed; the third is the perfect
game, which must be held) and the time per game is the parse of the log text plus
:func:`daily.fairplay.foresight.assess_ceiling_value`, with the server's total (what
the results path does) and, side by side, with a replay of the log against the day's
slots; the ceiling's value is read once. Prints median, p90 and p99 per game, with
the machine load (it may be shared).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import benchjson
from benchjson import figure

from daily.fairplay.ceiling import ceiling_of_seed
from daily.fairplay.foresight import assess, assess_ceiling_value
from daily.game import Game
from daily.movelog import MoveLog
from daily.randomplay import random_game
from daily.rules import Ruleset, get_ruleset
from daily.strategy.bots import Bot
from daily.strategy.tables.lookup import table_or_solve


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="yahtzee")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--ceiling-only", action="store_true",
                        help="time the check without a strategy table (random players)")
    args = parser.parse_args()
    rules = get_ruleset(args.ruleset)
    if args.ceiling_only:
        ceiling_only(rules, args.games)
        return
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
    benchjson.record(f"fairplay_check-{args.ruleset}", {
        "ceiling_per_day": figure(round(per_day * 1000), "ms"),
        "check_median": figure(round(statistics.median(times) * 1000, 3), "ms/game",
                               p90=round(q(0.9), 3), p99=round(q(0.99), 3)),
        "flagged": figure(flagged, "games", of=len(times)),
    })


def ceiling_only(rules: Ruleset, games: int) -> None:
    """Time the ceiling-only check of ``games`` logs (as text, as the results path):
    with the server's total (what the results path does) and with a replay of the log."""
    seed = os.urandom(32)
    ceiling_of_seed(rules, bytes(32))  # numba: load or compile once
    ceiling = ceiling_of_seed(rules, seed)
    print(f"ceiling once per day (only when not prepared): {ceiling.seconds * 1000:.0f} ms")
    rng = random.Random(1)
    played = [random_game(rules, seed, rng) for _ in range(games)]
    texts = [MoveLog.of_game(game, seed=seed).to_text() for game in played]
    totals = [game.card.total for game in played]
    texts[2], totals[2] = ceiling.perfect_log(seed=seed).to_text(), ceiling.value
    value, slots = ceiling.value, ceiling.slots
    print(f"fairplay check, {rules.name}, ceiling-only: load {os.getloadavg()} (shared machine)")
    figures: dict[str, benchjson.Figure] = {}
    for label, given in (("with the server's total (results path)", True),
                         ("replaying the log", False)):
        assess_ceiling_value(MoveLog.from_text(texts[0]), value, slots)  # warm
        times, flagged = [], []
        for n, text in enumerate(texts):
            t0 = time.perf_counter()
            verdict = assess_ceiling_value(MoveLog.from_text(text), value, slots,
                                           totals[n] if given else None)
            times.append(time.perf_counter() - t0)
            if verdict.flagged:
                flagged.append(n)
        assert flagged == [2], flagged
        times.sort()
        q = lambda p, t=times: t[int(p * (len(t) - 1))] * 1000  # noqa: E731
        print(f"parse + check per game, {label}, over {len(times)} games: median"
              f" {statistics.median(times) * 1000:.3f} ms, p90 {q(0.9):.3f} ms, p99"
              f" {q(0.99):.3f} ms; held: only the perfect game")
        key = "check_median" if given else "with_replay_median"
        figures[key] = figure(round(statistics.median(times) * 1000, 4), "ms/game",
                              p90=round(q(0.9), 4), p99=round(q(0.99), 4))
    benchjson.record(f"fairplay_check-{rules.name}-ceiling-only", figures)


if __name__ == "__main__":
    main()
