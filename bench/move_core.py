"""CPU per roll/score below the web layer: ``GameService.roll``/``score`` called
directly, as the move endpoints call them (the request's rate-limit counters spent by
the move script), without Flask, WSGI or sockets other than Redis's.

Usage: ``REDIS_URL=redis://127.0.0.1:6394/0 python bench/move_core.py [--moves 5000]
[--profile]``

A fresh key prefix on the given Redis (never a production one: it writes games), rate
limits raised so that they count but never refuse. Plays ranked Yahtzee games of today
(roll, roll, score, a new player per game) and prints the mean CPU time per move
(``time.process_time``: the wait on Redis is not counted, its system calls are), and the
median and best of blocks of 100 moves; ``--profile`` prints cProfile's top functions.
Copy the file into another checkout to compare side by side.
"""

from __future__ import annotations

import argparse
import cProfile
import datetime as dt
import os
import pstats
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

BLOCK = 100
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import benchjson  # noqa: E402
from benchjson import figure  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=5000)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--top", type=int, default=35)
    args = parser.parse_args()

    from daily.service.app import create_app
    from daily.service.config import load_config
    from daily.service.days.keyring import init_keys
    from daily.service.extensions import of
    from daily.service.games.flow import GameService
    from daily.service.limits import RateLimiter
    from daily.service.players.accounts import Players

    tmp = Path(tempfile.mkdtemp(prefix="dd-core-"))
    limit = "100000000/minute"
    env = dict(os.environ, DAILY_DATA_DIR=str(tmp / "data"),
               DAILY_KEY_PREFIX=f"core-{uuid.uuid4().hex[:8]}:",
               DAILY_RATE_LIMIT=limit, DAILY_RATE_LIMIT_READS=limit, DAILY_RATE_LIMIT_IP=limit,
               DAILY_PLAYER_LIMIT="off", DAILY_PLAYER_NET_LIMIT="off")
    config = load_config(env)
    init_keys(config.keys_dir)
    app = create_app(config)
    games, limiter, players = of(app, GameService), of(app, RateLimiter), of(app, Players)
    today = dt.datetime.now(dt.UTC).date().isoformat()
    profiler = cProfile.Profile(time.process_time) if args.profile else None
    warm, moves, spent, block = 300, 0, 0.0, 0.0
    blocks: list[float] = []
    with app.test_request_context():  # the share text's language and links
        while moves < args.moves + warm:
            player, _ = players.create("Ada")
            state, _ = games.start(player, ruleset="yahtzee", mode="ranked", date=today)
            while not state["over"] and moves < args.moves + warm:
                counted = moves >= warm
                counters = limiter.pending("127.0.0.1", player.id, "write")
                if counted and profiler:
                    profiler.enable()
                started = time.process_time()
                if state["rolls_left"]:
                    state = games.roll(player, state["id"], "11000", state["position"],
                                       counters)
                else:
                    box = next(c["box"] for c in state["choices"] if c["legal"])
                    state = games.score(player, state["id"], box, state["position"], counters)
                took = time.process_time() - started
                if counted and profiler:
                    profiler.disable()
                if counted:
                    spent += took
                    block += took
                    if (moves - warm + 1) % BLOCK == 0:
                        blocks.append(block / BLOCK)
                        block = 0.0
                moves += 1
    print(f"move core: {spent / args.moves * 1e6:.0f} us CPU/move (GameService, "
          f"{args.moves} moves); blocks of {BLOCK}: median "
          f"{statistics.median(blocks) * 1e6:.0f} us, best {min(blocks) * 1e6:.0f} us")
    if profiler:
        stats = pstats.Stats(profiler)
        calls = stats.total_calls  # type: ignore[attr-defined]
        print(f"Python function calls per move: {calls / args.moves:.0f}")
        stats.sort_stats("tottime").print_stats(args.top)
        benchjson.record("move_core-calls", {
            "python_calls": figure(round(calls / args.moves), "calls/move")})
        return 0
    benchjson.record("move_core", {
        "cpu_mean": figure(round(spent / args.moves * 1e6, 1), "µs/move"),
        "cpu_block_median": figure(round(statistics.median(blocks) * 1e6, 1), "µs/move",
                                   best=round(min(blocks) * 1e6, 1)),
    })
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
