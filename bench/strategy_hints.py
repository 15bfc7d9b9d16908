"""Benchmark: hint latency (p50/p99) once a table is loaded, in process and through the API.

Positions are the ones met while the hard bot plays seeded games. In process, three
ways are timed over the same positions:

* ``fresh``: a new :class:`Advisor` per query (no warm cache);
* ``warm``: the process's advisor (:func:`daily.strategy.store.get_advisor`, as the
  API uses it), first pass over the positions;
* ``warm again``: the same positions a second time.

Each prints wall-clock p50/p99 and CPU-time p50/p99 (``time.thread_time``: what the
query costs, without the waits for a core on a shared machine), and the load average.

``--api N`` also times N ``POST /games/<id>/hint`` calls through the real Flask app
(WSGI test client: routing, auth, Redis read of the game, replay, JSON) on a practice
game, with a Redis at ``--redis-url`` (default: an embedded Valkey started for the run).

    .venv/bin/python bench/strategy_hints.py [--ruleset yahtzee] [--queries 2000] [--api 500]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from daily.game import Game  # noqa: E402
from daily.rules import get_ruleset  # noqa: E402
from daily.strategy.advisor import Advisor, Position  # noqa: E402
from daily.strategy.store import get_advisor, table_or_solve  # noqa: E402
from daily.strategy.tablefile import save_table  # noqa: E402


def timed(label: str, positions: list[Position], query: Callable[[Position], object]) -> None:
    wall, cpu = [], []
    for pos in positions:
        w, c = time.perf_counter(), time.thread_time()
        query(pos)
        cpu.append(time.thread_time() - c)
        wall.append(time.perf_counter() - w)
    w_ms, c_ms = np.array(wall) * 1000, np.array(cpu) * 1000
    print(f"  {label:<11} wall p50 {np.percentile(w_ms, 50):.3f} ms  p99 "
          f"{np.percentile(w_ms, 99):.3f} ms | CPU p50 {np.percentile(c_ms, 50):.3f} ms  "
          f"p99 {np.percentile(c_ms, 99):.3f} ms")


def api(ruleset: str, tables: Path, calls: int, redis_url: str | None) -> None:
    from contextlib import ExitStack

    from daily.service.app import create_app
    from daily.service.config import load_config
    from daily.service.embedded import valkey_server
    from daily.service.keys import init_keys

    with ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="dd-hints-")))
        url = redis_url or stack.enter_context(valkey_server(tmp / "valkey"))
        config = load_config({"REDIS_URL": url, "DAILY_DATA_DIR": str(tmp / "data"),
                              "DAILY_KEY_PREFIX": "bench-hints:", "DAILY_RATE_LIMIT": "off"})
        init_keys(config.keys_dir)
        (config.tables_dir).parent.mkdir(parents=True, exist_ok=True)
        config.tables_dir.symlink_to(tables)
        app = create_app(config)
        client = app.test_client()
        made = client.post("/api/v1/players", json={"name": "Bench"}).get_json()
        headers = {"Authorization": f"Bearer {made['token']}"}
        game = client.post("/api/v1/games", json={"ruleset": ruleset, "mode": "practice"},
                           headers=headers).get_json()
        path = f"/api/v1/games/{game['id']}/hint"
        wall = []
        for n in range(calls + 20):
            start = time.perf_counter()
            reply = client.post(path, json={"top": 3}, headers=headers)
            if n >= 20:  # the first calls warm the advisor and the app
                wall.append(time.perf_counter() - start)
            assert reply.status_code == 200, reply.get_json()
        ms = np.array(wall) * 1000
        print(f"  API hint    wall p50 {np.percentile(ms, 50):.3f} ms  p99 "
              f"{np.percentile(ms, 99):.3f} ms ({calls} calls, Flask test client, one position)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="yahtzee")
    parser.add_argument("--queries", type=int, default=2000)
    parser.add_argument("--api", type=int, default=0, help="API calls to time (0: none)")
    parser.add_argument("--redis-url", help="Redis for --api (default: embedded Valkey)")
    args = parser.parse_args()
    rules = get_ruleset(args.ruleset)
    table = table_or_solve(rules)
    with tempfile.TemporaryDirectory(prefix="dd-tables-") as tables:
        save_table(table, Path(tables))
        advisor = get_advisor(rules, Path(tables))
        positions: list[Position] = []
        i = 0
        while len(positions) < args.queries:
            game = Game.from_seed(rules, hashlib.sha256(b"hints-%d" % i).digest())
            i += 1
            while not game.over:
                pos = Position.from_game(game)
                positions.append(pos)
                act = Advisor(advisor.table).best(pos)
                game.reroll(act.hold) if act.kind == "keep" else game.score(act.box)
        positions = positions[: args.queries]
        Advisor(advisor.table).hint(positions[0])  # compile the kernels
        print(f"{args.ruleset}: {len(positions)} hint queries (top 3)")
        timed("fresh", positions, lambda p: Advisor(advisor.table).hint(p))
        timed("warm", positions, advisor.hint)
        timed("warm again", positions, advisor.hint)
        if args.api:
            api(args.ruleset, Path(tables), args.api, args.redis_url)
    load = os.getloadavg()
    print(f"load average: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores"
          " (a shared machine: the wall-clock tails include waits for a core)")


if __name__ == "__main__":
    main()
