"""CPU per roll/score (or hint) inside the app, with every before/after request hook,
without gunicorn or sockets: the WSGI app is called directly with prepared environments.

Usage: ``REDIS_URL=redis://127.0.0.1:6394/0 python bench/move_profile.py [--moves 3000]
[--profile] [--hello] [--starts] [--hints] [--canned-writes]`` (``DAILY_BENCH_CODE=DIR``:
the ``daily`` package of another checkout, driven by this script)

A fresh key prefix on the given Redis (never a production one: it writes games),
rate limits raised so that they count but never refuse. Plays ranked Yahtzee games of
today (roll, roll, score, a new player per game) and prints the mean CPU time per move
(``time.process_time``), and the median and best of blocks of 100 moves (the best
is the least disturbed by other work on a shared machine); ``--hello`` does the same
for ``bench/hello_app.py``; ``--starts`` for the two calls that begin each game, a new
player and its ranked start (``--moves`` of each); ``--hints`` for hints (practice
games, a hint before every decision and its best action taken, as ``bench/hints_api.py``
plays; ``--moves`` hints counted, the moves not); ``--canned-writes`` answers the move
script's writes with its "ok" without sending them to Redis (the reads still go), so
that the difference to a plain run is what the move's round trip costs this process;
``--profile`` prints cProfile's top functions by own and cumulative time.
"""

from __future__ import annotations

import argparse
import cProfile
import datetime as dt
import io
import json
import os
import pstats
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

BLOCK = 100
ROOT = Path(__file__).resolve().parent.parent
#: The checkout whose ``daily`` package is measured: this one, or ``DAILY_BENCH_CODE``
#: (another commit's worktree, as ``bench/move_instructions.py --baseline-commit`` makes).
CODE = Path(os.environ.get("DAILY_BENCH_CODE") or ROOT)
sys.path.insert(0, str(CODE))
sys.path.insert(1, str(ROOT / "bench"))

import benchjson  # noqa: E402
from benchjson import figure  # noqa: E402


def environ(method: str, path: str, body: bytes, token: str | None) -> dict[str, Any]:
    env = {
        "REQUEST_METHOD": method, "PATH_INFO": path, "QUERY_STRING": "", "SCRIPT_NAME": "",
        "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "8000", "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1", "REMOTE_PORT": "50000",
        "CONTENT_TYPE": "application/json", "CONTENT_LENGTH": str(len(body)),
        "HTTP_HOST": "127.0.0.1:8000", "HTTP_CONTENT_TYPE": "application/json",
        "wsgi.input": io.BytesIO(body), "wsgi.url_scheme": "http", "wsgi.errors": sys.stderr,
        "wsgi.multithread": True, "wsgi.multiprocess": True, "wsgi.run_once": False,
        "wsgi.version": (1, 0),
    }
    if token:
        env["HTTP_AUTHORIZATION"] = "Bearer " + token
    return env


def call(app: Any, method: str, path: str, body: Any = None,
         token: str | None = None) -> tuple[int, Any]:
    status, data = call_raw(app, method, path, body, token)
    return status, json.loads(data) if data else None


def call_raw(app: Any, method: str, path: str, body: Any = None,
             token: str | None = None) -> tuple[int, bytes]:
    raw = b"" if body is None else json.dumps(body).encode()
    status: list[str] = []
    chunks = app(environ(method, path, raw, token), lambda s, h, e=None: status.append(s))
    data = b"".join(chunks)
    if hasattr(chunks, "close"):
        chunks.close()
    return int(status[0][:3]), data


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=3000)
    parser.add_argument("--profile", action="store_true")
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--hello", action="store_true")
    what.add_argument("--starts", action="store_true")
    what.add_argument("--hints", action="store_true")
    parser.add_argument("--canned-writes", action="store_true")
    parser.add_argument("--top", type=int, default=45)
    args = parser.parse_args()
    if args.canned_writes and args.hints:  # the hints read the games the moves never wrote
        parser.error("--canned-writes: not with --hints")
    if args.hello:
        sys.path.insert(0, str(ROOT / "bench"))
        from hello_app import app as hello

        for _ in range(200):
            call(hello, "GET", "/hello")
        started = time.process_time()
        for _ in range(args.moves):
            call(hello, "GET", "/hello")
        per_request = (time.process_time() - started) / args.moves * 1e6
        print(f"hello: {per_request:.0f} us CPU/request")
        benchjson.record("move_profile-hello",
                         {"cpu_per_request": figure(round(per_request, 1), "µs")})
        return 0

    from daily.service.app import create_app
    from daily.service.config import load_config

    try:
        from daily.service.days.keyring import init_keys
    except ImportError:  # a checkout from before the domain packages (a baseline)
        from daily.service.keys import init_keys  # type: ignore[import-not-found,no-redef]

    tmp = Path(tempfile.mkdtemp(prefix="dd-prof-"))
    limit = "100000000/minute"
    env = dict(os.environ, DAILY_DATA_DIR=str(tmp / "data"),
               DAILY_KEY_PREFIX=f"prof-{uuid.uuid4().hex[:8]}:",
               DAILY_RATE_LIMIT=limit, DAILY_RATE_LIMIT_READS=limit, DAILY_RATE_LIMIT_IP=limit,
               DAILY_PLAYER_LIMIT="off", DAILY_PLAYER_NET_LIMIT="off")
    config = load_config(env)
    init_keys(config.keys_dir)
    app = create_app(config)
    if args.hints:
        from daily.rules import get_ruleset
        from daily.strategy.tables.fileformat import save_table
        from daily.strategy.tables.lookup import table_or_solve

        save_table(table_or_solve(get_ruleset("yahtzee")), config.tables_dir)
    today = dt.datetime.now(dt.UTC).date().isoformat()
    if args.starts:
        return starts(app, today, args.moves)
    if args.canned_writes:
        from daily.service.extensions import of
        from daily.service.games.flow import GameService

        can_writes(of(app, GameService).store)
    moves = 0
    spent = 0.0
    profiler = cProfile.Profile(time.process_time) if args.profile else None
    warm = 300
    blocks: list[float] = []  # mean CPU per move of each block of BLOCK moves
    block = 0.0
    start = {"ruleset": "yahtzee", "date": today, "mode": "ranked"}
    if args.hints:
        start = {"ruleset": "yahtzee", "mode": "practice"}
    while moves < args.moves + warm:
        status, body = call(app, "POST", "/api/v1/players", {})
        assert status == 201, body
        token = body["token"]
        status, state = call(app, "POST", "/api/v1/games", start, token)
        assert status == 201, state
        while not state["over"] and moves < args.moves + warm:
            if args.hints:
                path, payload = f"/api/v1/games/{state['id']}/hint", {"top": 3}
            elif state["rolls_left"]:
                path, payload = f"/api/v1/games/{state['id']}/roll", {
                    "hold": "11000", "position": state["position"]}
            else:
                box = next(c["box"] for c in state["choices"] if c["legal"])
                path, payload = f"/api/v1/games/{state['id']}/score", {
                    "box": box, "position": state["position"]}
            counted = moves >= warm
            if counted and profiler:
                profiler.enable()
            started = time.process_time()
            status, raw = call_raw(app, "POST", path, payload, token)
            if counted:
                took = time.process_time() - started
                spent += took
                block += took
                if (moves - warm + 1) % BLOCK == 0:
                    blocks.append(block / BLOCK)
                    block = 0.0
            if counted and profiler:
                profiler.disable()
            answer = json.loads(raw)
            assert status == 200, answer
            state = take_best(app, state, answer, token) if args.hints else answer
            moves += 1
    what, unit = ("hint", "hint") if args.hints else ("roll/score", "move")
    print(f"{what}: {spent / args.moves * 1e6:.0f} us CPU/{unit} (in process, "
          f"{args.moves} {unit}s); blocks of {BLOCK}: median "
          f"{statistics.median(blocks) * 1e6:.0f} us, best {min(blocks) * 1e6:.0f} us")
    name = "move_profile" + ("-hints" if args.hints else "-canned" if args.canned_writes
                             else "")
    if profiler:
        stats = pstats.Stats(profiler)
        calls = stats.total_calls  # type: ignore[attr-defined]
        print(f"Python function calls per {unit}: {calls / args.moves:.0f} (does not depend "
              "on the machine's load)")
        stats.sort_stats("tottime").print_stats(args.top)
        stats.sort_stats("cumulative").print_stats(args.top)
        # the profiler's own cost makes the CPU figures meaningless; the calls are exact
        benchjson.record(f"{name}-calls", {
            "python_calls": figure(round(calls / args.moves), f"calls/{unit}")})
        return 0
    benchjson.record(name, {
        "cpu_mean": figure(round(spent / args.moves * 1e6, 1), f"µs/{unit}"),
        "cpu_block_median": figure(round(statistics.median(blocks) * 1e6, 1), f"µs/{unit}",
                                   best=round(min(blocks) * 1e6, 1),
                                   worst=round(max(blocks) * 1e6, 1)),
    })
    return 0


def take_best(app: Any, state: dict[str, Any], hint: dict[str, Any],
              token: str) -> dict[str, Any]:
    """The state after the best action of ``hint``, asked in ``state`` (uncounted)."""
    from bench.hints_api import best_action

    path, payload = best_action(hint, state["position"])
    status, after = call(app, "POST", f"/api/v1/games/{state['id']}/{path}", payload, token)
    assert status == 200, after
    return after


def can_writes(store: Any) -> None:
    """Answer the move script's writes on ``store`` with "ok", unsent (a measurement
    only: the game then lives in the process's copy alone)."""
    script = store._move

    def canned(keys: Any = (), args: Any = ()) -> Any:
        mode = args[2 * int(args[0]) + 1]  # after the rate-limit counters' arguments
        return script(keys=keys, args=args) if mode == "read" else [b"ok"]

    store._move = canned


def starts(app: Any, today: str, count: int) -> int:
    """Print the CPU of ``count`` player creations and ranked starts (after 100 of each)."""
    spent: dict[str, list[float]] = {"new player": [], "ranked start": []}
    for number in range(count + 100):
        started = time.process_time()
        status, body = call(app, "POST", "/api/v1/players", {})
        created = time.process_time()
        assert status == 201, body
        status, state = call(app, "POST", "/api/v1/games",
                             {"ruleset": "yahtzee", "date": today, "mode": "ranked"},
                             body["token"])
        assert status == 201, state
        if number >= 100:
            spent["new player"].append(created - started)
            spent["ranked start"].append(time.process_time() - created)
    figures = {}
    for what, times in spent.items():
        blocks = [statistics.mean(times[i:i + BLOCK]) for i in range(0, len(times), BLOCK)]
        print(f"{what}: {statistics.mean(times) * 1e6:.0f} us CPU (in process, {count}); "
              f"blocks of {BLOCK}: median {statistics.median(blocks) * 1e6:.0f} us, "
              f"best {min(blocks) * 1e6:.0f} us")
        figures[what.replace(" ", "_") + "_cpu_block_median"] = figure(
            round(statistics.median(blocks) * 1e6, 1), "µs", best=round(min(blocks) * 1e6, 1))
    benchjson.record("move_profile-starts", figures)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
