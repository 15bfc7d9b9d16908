"""Benchmark: the first hint and the first computer opponents right after a start.

Each round starts a fresh gunicorn (``deploy/gunicorn.conf.py``, ``--workers`` workers,
which warm the strategy engine in the background) on its own Valkey, with the Yahtzee
table saved and no Maxi Yatzy table, and as soon as its port answers: a player asks
the first hint of a practice Yahtzee game, then a second one (warm: the baseline of
the same run), starts a practice Maxi Yatzy game with the three computer opponents
(medium and hard: the heuristic stand-ins) and asks its hint (``table_not_ready``).
Printed per round: each call's latency as the client sees it, and the first hint's
ratio to the second; the rounds ask at once and ``--delays`` seconds after the port
answers (a player arriving a little later finds the workers warm).

    .venv/bin/python bench/first_hint.py [--rounds 2] [--delays 0,15] [--workers 2]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import benchjson  # noqa: E402
from api_throughput import Client, free_port, process, server_command, valkey_binary  # noqa: E402


def one_round(env: dict[str, str], workers: int, delay: float) -> dict[str, float]:
    """The latencies (seconds) of one fresh start, ``delay`` seconds after its port
    answers."""
    port = free_port()
    out: dict[str, float] = {}
    with process(server_command("gunicorn", workers)(port, "daily.service.app:create_app()"),
                 env, port):
        time.sleep(delay)
        client = Client(port)
        status, body, _ = client.call("POST", "/api/v1/players", {})
        assert status == 201, body
        client.headers["Authorization"] = "Bearer " + body["token"]
        status, game, _ = client.call("POST", "/api/v1/games",
                                      {"ruleset": "yahtzee", "mode": "practice"})
        assert status == 201, game
        for name in ("first_hint", "second_hint"):
            status, hint, out[name] = client.call(
                "POST", f"/api/v1/games/{game['id']}/hint", {"top": 3})
            assert status == 200, hint
        status, maxi, out["maxi_opponents_start"] = client.call(
            "POST", "/api/v1/games", {"ruleset": "maxi-yatzy", "mode": "practice",
                                      "opponents": ["easy", "medium", "hard"]})
        assert status == 201, maxi
        status, refused, out["maxi_hint_refusal"] = client.call(
            "POST", f"/api/v1/games/{maxi['id']}/hint", {"top": 3})
        assert status == 503 and refused["error"]["code"] == "table_not_ready", refused
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=2, help="starts per delay")
    parser.add_argument("--delays", default="0,15",
                        help="seconds between the port answering and the first call")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()

    from daily.rules import get_ruleset
    from daily.service.config import load_config
    from daily.service.days.keyring import init_keys
    from daily.strategy.tables.fileformat import save_table
    from daily.strategy.tables.lookup import table_or_solve

    delays = [float(d) for d in args.delays.split(",")]
    tmp = Path(tempfile.mkdtemp(prefix="dd-first-hint-"))
    redis_port = free_port()
    limit = "100000000/minute"
    env = dict(os.environ, DAILY_DATA_DIR=str(tmp / "data"),
               REDIS_URL=f"redis://127.0.0.1:{redis_port}/0", DAILY_KEY_PREFIX="bench:",
               DAILY_RATE_LIMIT=limit, DAILY_RATE_LIMIT_READS=limit, DAILY_RATE_LIMIT_IP=limit,
               DAILY_PLAYER_LIMIT="off", DAILY_PLAYER_NET_LIMIT="off",
               DAILY_PLAYER_POW_BITS="0", GUNICORN_WORKERS=str(args.workers),
               GUNICORN_LOGLEVEL="warning", PYTHONPATH=str(ROOT))
    env.pop("DAILY_TABLES_DIR", None)
    config = load_config(env)
    init_keys(config.keys_dir)
    save_table(table_or_solve(get_ruleset("yahtzee")), config.tables_dir)
    rounds = []
    try:
        with process([valkey_binary(), "--port", str(redis_port), "--bind", "127.0.0.1",
                      "--save", "", "--appendonly", "no", "--dir", str(tmp)], env, redis_port):
            for delay in delays:
                for _ in range(args.rounds):
                    r = one_round(env, args.workers, delay)
                    rounds.append((delay, r))
                    print(f"after {delay:4.0f} s: "
                          + "  ".join(f"{k} {v * 1000:7.1f} ms" for k, v in r.items())
                          + f"  first/second {r['first_hint'] / r['second_hint']:.1f}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"{args.rounds} fresh starts of gunicorn ({args.workers} workers), calls as soon as "
          f"its port answers; load average {os.getloadavg()} (machine shared)")
    figures = {}
    for delay in delays:
        for name in rounds[0][1]:
            values = [r[name] * 1000 for d, r in rounds if d == delay]
            figures[f"{name}_after_{delay:g}s"] = benchjson.figure(
                round(statistics.median(values), 1), "ms", max=round(max(values), 1),
                rounds=len(values))
    benchjson.record("first_hint", figures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
