"""Benchmark: hint latency in process, on a realistic stream of queries.

The stream: ``--players`` concurrent players (hard bot, medium bot and random play in
turn, each on its own seeded dice) interleaved round-robin, so that consecutive queries
come from different games, turns and cards, as in a service; a player asks for a hint
before a decision with probability ``--ask`` (1: before every one). A query is what the
API does once it has the game: ``advisor.hint(Position(rules, scores, dice, rolls_left,
extra_bonus), 3)`` with the process's warm advisor
(:func:`daily.strategy.tables.lookup.get_advisor`: the table memory-mapped from a saved
file, as the service opens it), its turn cache starting empty. The first query of a
turn runs the turn kernel; the others are a lookup and one compiled call.

Printed for the stream: wall-clock p50/p95/p99/max, CPU-time (``time.thread_time``)
p50/p99, throughput, the garbage collector's passes during the queries (the bench keeps
each answer as text for its check, as a service sends it and drops it) and the p99 of
the queries none ran in, the minor page faults in the queries, the CPU p50/p99 of
the queries that ran the turn kernel and of the others, and how many of the slowest 1%
ran it, the turn cache's hits and misses, the process's memory (RSS,
and the cache's size), and the load average before and after; then the same queries
through the reference path (:meth:`Advisor.reference_hint`, placements in Python), side
by side in the same run, and a check that both give the same answers.

    .venv/bin/python bench/strategy_hints.py [--ruleset yahtzee] [--queries 20000]
        [--players 200] [--ask 1.0]
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import os
import random
import resource
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import benchjson  # noqa: E402
from benchjson import figure  # noqa: E402

from daily.game import Game  # noqa: E402
from daily.rules import Ruleset, get_ruleset  # noqa: E402
from daily.strategy.advisor import Advisor  # noqa: E402
from daily.strategy.bots import Bot  # noqa: E402
from daily.strategy.solver import StrategyTable  # noqa: E402
from daily.strategy.spec import Position  # noqa: E402
from daily.strategy.tables.fileformat import save_table  # noqa: E402
from daily.strategy.tables.lookup import get_advisor, table_or_solve  # noqa: E402

Query = tuple[tuple[int | None, ...], tuple[int, ...], int, int]
#: What this run measured, by figure name (written to bench/results/ at the end).
FIGURES: dict[str, benchjson.Figure] = {}


def stream(table: StrategyTable, count: int, players: int, ask: float) -> list[Query]:
    """``count`` queries of ``players`` concurrent games, interleaved round-robin."""
    rules = table.rules
    rng = random.Random(11)
    bots = {level: Bot(table, level) for level in ("hard", "medium")}

    def decisions(n: int):  # one player's decisions, game after game
        while True:
            game = Game.from_seed(rules, hashlib.sha256(b"hints-%d" % n).digest())
            kind = ("hard", "medium", "random")[n % 3]
            while not game.over:
                yield (game.card.scores, game.dice, game.rolls_left, game.card.extra_bonus)
                if kind == "random":
                    if game.rolls_left and rng.random() < 0.6:
                        game.reroll("".join(rng.choice("01") for _ in game.dice[:-1]) + "0")
                    else:
                        game.score(rng.choice(game.choices().legal()).box)
                    continue
                act = bots[kind].choose(Position.from_game(game))
                game.reroll(act.hold) if act.kind == "keep" else game.score(act.box)
            n += players

    live = [decisions(n) for n in range(players)]
    out: list[Query] = []
    while len(out) < count:
        for player in live:
            query = next(player)
            if rng.random() < ask:
                out.append(query)
    return out[:count]


def rss_mb() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


class Collections:
    """The garbage collector's passes (``gc.callbacks``): how many, per generation, and
    how long they took; ``count`` tells whether one ran during a query."""

    def __init__(self) -> None:
        self.count = 0
        self.per_gen = [0, 0, 0]
        self.seconds = 0.0
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
            return
        self.seconds += time.perf_counter() - self._started
        self.count += 1
        self.per_gen[info["generation"]] += 1


def timed(label: str, rules: Ruleset, queries: list[Query],
          query: Callable[[Position], object],
          turns_run: Callable[[], int] | None = None) -> list[object]:
    wall, cpu, answers, collected, kernel = [], [], [], [], []
    gc.collect()
    collections = Collections()
    gc.callbacks.append(collections)
    faults = 0
    started = time.perf_counter()
    try:
        for scores, dice, left, extra in queries:
            n = collections.count
            before = turns_run() if turns_run else 0
            f = resource.getrusage(resource.RUSAGE_THREAD).ru_minflt
            w, c = time.perf_counter(), time.thread_time()
            answer = query(Position(rules, scores, dice, left, extra))
            cpu.append(time.thread_time() - c)
            wall.append(time.perf_counter() - w)
            faults += resource.getrusage(resource.RUSAGE_THREAD).ru_minflt - f
            collected.append(collections.count != n)
            kernel.append(turns_run is not None and turns_run() != before)
            # Kept as text for the final check, as a service sends an answer and drops
            # it: 20,000 answers kept as dicts and lists made the collector run during
            # 1.5% of the queries (it counts the containers alive, not a hint's own).
            answers.append(json.dumps(answer, sort_keys=True))
    finally:
        gc.callbacks.remove(collections)
    took = time.perf_counter() - started
    w_ms, c_ms = np.array(wall) * 1000, np.array(cpu) * 1000
    p = np.percentile
    print(f"  {label:<9} wall p50 {p(w_ms, 50):.4f} p95 {p(w_ms, 95):.4f} p99 {p(w_ms, 99):.4f}"
          f" max {w_ms.max():.3f} ms | CPU p50 {p(c_ms, 50):.4f} p99 {p(c_ms, 99):.4f} ms |"
          f" {len(queries) / took:,.0f} queries/s")
    FIGURES.update({
        f"{label}_p50": figure(round(float(p(w_ms, 50)), 4), "ms"),
        f"{label}_p99": figure(round(float(p(w_ms, 99)), 4), "ms", max=round(w_ms.max(), 3)),
        f"{label}_cpu_p99": figure(round(float(p(c_ms, 99)), 4), "ms"),
        f"{label}_per_s": figure(round(len(queries) / took), "queries/s"),
    })
    quiet = ~np.array(collected)
    gens = "/".join(map(str, collections.per_gen))
    print(f"            garbage collector: {collections.count} passes during "
          f"{int((~quiet).sum()):,} queries (generations 0/1/2: {gens}), "
          f"{collections.seconds * 1000:.1f} ms in all; the other {int(quiet.sum()):,} "
          f"queries: wall p99 {p(w_ms[quiet], 99):.4f} ms, CPU p99 {p(c_ms[quiet], 99):.4f} ms")
    ran = np.array(kernel)
    split = ""
    if ran.any():
        tail = c_ms >= p(c_ms, 99)
        split = (f"; the {int(ran.sum()):,} queries that ran the turn kernel: CPU p50 "
                 f"{p(c_ms[ran], 50):.4f} p99 {p(c_ms[ran], 99):.4f} ms, the others: p50 "
                 f"{p(c_ms[~ran], 50):.4f} p99 {p(c_ms[~ran], 99):.4f} ms; of the "
                 f"{int(tail.sum())} slowest 1%, {int((tail & ran).sum())} ran it")
    print(f"            minor page faults in the queries: {faults:,}{split}")
    return answers


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="yahtzee")
    parser.add_argument("--queries", type=int, default=20000)
    parser.add_argument("--players", type=int, default=200, help="concurrent games")
    parser.add_argument("--ask", type=float, default=1.0,
                        help="chance that a player asks before a decision")
    args = parser.parse_args()
    rules = get_ruleset(args.ruleset)
    table = table_or_solve(rules)
    queries = stream(table, args.queries, args.players, args.ask)
    turns = len({(q[0], q[3]) for q in queries})
    with tempfile.TemporaryDirectory(prefix="dd-tables-") as tables:
        save_table(table, Path(tables))  # float32 above 2^21 states, as the service's
        del table
        advisor = get_advisor(rules, Path(tables))
        Advisor(advisor.table).hint(Position(rules, *queries[0]))  # compile the kernels
        reference = Advisor(advisor.table, cache=256)  # the old path, as warm as it gets
        reference.reference_hint(Position(rules, *queries[0]))
        before = rss_mb()
        print(f"{args.ruleset}: {len(queries):,} hint queries (top 3) from {args.players} "
              f"concurrent games, {turns:,} distinct turns, ask {args.ask:g}; "
              f"load average {load()} on {os.cpu_count()} cores")
        def turns_run() -> int:
            return advisor.engine.turn_keeps.cache_info().misses

        fast = timed("hint", rules, queries, advisor.hint, turns_run)
        info = advisor.engine.turn_keeps.cache_info()
        cached = advisor.engine.cache_bytes()
        print(f"            turn cache: {info.hits:,} hits, {info.misses:,} misses, "
              f"{info.currsize:,} turns held ({cached / 2**20:.1f} MiB); RSS "
              f"{before:.0f} -> {rss_mb():.0f} MiB (peak {_peak_mb():.0f} MiB)")
        again = timed("again", rules, queries, advisor.hint, turns_run)
        ref = timed("reference", rules, queries, reference.reference_hint)
        same = fast == ref == again
        print(f"  answers equal to the reference path: {same}")
        steady(rules, queries, advisor)
        control(len(queries))
    print(f"load average after: {load()} on {os.cpu_count()} cores (a shared machine: "
          "the wall-clock tails include waits for a core; CPU time does not)")
    if not same:
        raise SystemExit("the fast path and the reference path disagree")
    suffix = "" if args.ruleset == "yahtzee" else f"-{args.ruleset}"
    benchjson.record(f"strategy_hints{suffix}", FIGURES)


def steady(rules: Ruleset, queries: list[Query], advisor: Advisor, passes: int = 7) -> None:
    """The least median over ``passes`` of a cached query (every turn of the first 2,000
    queries held) and of a turn's kernel alone (its call from Python), back to back: the
    code's own cost, far less sensitive than a tail to what else the machine runs."""
    sample = [Position(rules, *q) for q in queries[:2000]]
    engine = advisor.engine
    for pos in sample:
        advisor.hint(pos)
    turns = [engine.card(pos.scores)[:3] for pos in sample]
    out = np.empty(engine.turn_keeps.shape)
    cached = kernel = float("inf")
    for _ in range(passes):
        times = []
        for pos in sample:
            started = time.perf_counter()
            advisor.hint(pos)
            times.append(time.perf_counter() - started)
        cached = min(cached, float(np.median(times)))
        times = []
        for mask, upper, flag in turns:
            started = time.perf_counter()
            engine._turn_keeps(mask, upper, flag, out)
            times.append(time.perf_counter() - started)
        kernel = min(kernel, float(np.median(times)))
    print(f"  steady: a cached query {cached * 1e6:.2f} us, a turn's kernel {kernel * 1e6:.2f}"
          f" us (least median of {passes} passes over {len(sample):,} queries, hot caches)")
    FIGURES["steady_cached_query"] = figure(round(cached * 1e6, 2), "µs")
    FIGURES["steady_turn_kernel"] = figure(round(kernel * 1e6, 2), "µs")


def control(count: int, target_ms: float = 0.03) -> None:
    """The machine's own tail: ``count`` runs of a fixed piece of Python (filling a
    dictionary) sized to take about ``target_ms``, a turn query's median, timed as the
    queries are. Its p99 against its p50 is what this machine adds to any work of
    that length (interrupts and other guests, charged to the thread's CPU time too)."""
    def work(n: int) -> None:
        table = {}
        for i in range(n):
            table[i] = str(i)

    size = 64
    while True:  # grow the work until its median reaches the target
        times = []
        for _ in range(200):
            started = time.thread_time()
            work(size)
            times.append(time.thread_time() - started)
        if np.median(times) * 1000 >= target_ms:
            break
        size = int(size * 1.25)
    cpu = []
    for _ in range(count):
        started = time.thread_time()
        work(size)
        cpu.append(time.thread_time() - started)
    c_ms = np.array(cpu) * 1000
    p50, p99 = np.percentile(c_ms, 50), np.percentile(c_ms, 99)
    print(f"  control: a fixed piece of Python, {count:,} runs: CPU p50 {p50:.4f} p99 "
          f"{p99:.4f} ms ({p99 / p50:.1f} x the median; above 0.05 ms: "
          f"{(c_ms > 0.05).mean():.2%})")
    FIGURES["control_p50"] = figure(round(float(p50), 4), "ms")
    FIGURES["control_p99"] = figure(round(float(p99), 4), "ms")


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


if __name__ == "__main__":
    main()
