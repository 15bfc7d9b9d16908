"""Hint latency through the real service: gunicorn, Redis, auth, replay, the warm advisor.

Usage: ``python bench/hints_api.py [--seconds 10] [--clients 1,4] [--workers 2]
[--server gunicorn|granian]``

The script starts its own Valkey server on a free port, a fresh data directory with
new keys and the Yahtzee strategy table (saved as the service opens it), and gunicorn
with ``deploy/gunicorn.conf.py`` and ``--workers`` workers (the helpers of
``bench/api_throughput.py``). Each client thread is a player on a keep-alive
connection who plays practice Yahtzee games by asking for a hint before every decision
and taking the best action (``POST /games/<id>/hint`` with ``{"top": 3}``, then the
roll or the score it names), game after game. A warm-up round lets every worker open
the table; then, for each ``--clients`` count in turn, the clients play for
``--seconds``. Printed per phase: hints/s and the hint call's p50/p95/p99/max as the
client sees it (request, response and JSON decoding on loopback), the roll and score
calls beside it, and the load average before and after. Before each phase the same
number of clients call a bare Flask hello-world (``bench/hello_app.py``) on the same
gunicorn configuration for as long: the floor of the stack (gunicorn, the loopback and
the Python client), printed as the phase's first line. The access log is off, as in
``deploy/gunicorn.conf.py``. ``GUNICORN_WORKER_CLASS`` and ``GUNICORN_THREADS`` in the
environment change both servers as they change the deployed one, and the header names
them (``bench/inline_worker.py`` is a worker class for such a comparison).

``--server granian`` serves both apps with granian instead (an HTTP server written in
Rust that calls the WSGI app; not a dependency of the service: ``pip install granian``
first), ``--workers`` processes with one thread each for the app, to show what a
server whose HTTP work is not Python does to the floor and to the hint. Only the
measurement changes: the service is deployed with gunicorn (``docs/deploy.md``).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import benchjson  # noqa: E402
from api_throughput import (  # noqa: E402
    Client,
    free_port,
    hello_loop,
    process,
    run_clients,
    server_command,
    valkey_binary,
)


def best_action(hint: dict[str, Any], position: int) -> tuple[str, dict[str, Any]]:
    """The call (``roll`` or ``score``) and body that take a hint's best action.

    >>> best_action({"best": {"kind": "box", "box": "chance"}}, 7)
    ('score', {'box': 'chance', 'position': 7})
    """
    best = hint["best"]
    if best["kind"] == "keep":
        return "roll", {"hold": best["hold"], "position": position}
    return "score", {"box": best["box"], "position": position}


def player_loop(port: int, stop: float, out: dict[str, list[float]]) -> None:
    """One player: practice games, a hint before each decision, then its best action."""
    client = Client(port)
    status, body, _ = client.call("POST", "/api/v1/players", {})
    assert status == 201, body
    client.headers["Authorization"] = "Bearer " + body["token"]
    while time.monotonic() < stop:
        status, state, _ = client.call("POST", "/api/v1/games",
                                       {"ruleset": "yahtzee", "mode": "practice"})
        assert status == 201, state
        while not state["over"] and time.monotonic() < stop:
            status, hint, elapsed = client.call(
                "POST", f"/api/v1/games/{state['id']}/hint", {"top": 3})
            assert status == 200, hint
            out["hint"].append(elapsed)
            call, body = best_action(hint, state["position"])
            status, state, elapsed = client.call(
                "POST", f"/api/v1/games/{state['id']}/{call}", body)
            assert status == 200, state
            out[call].append(elapsed)


def run(port: int, clients: int, seconds: float) -> tuple[dict[str, list[float]], float]:
    out: dict[str, list[float]] = {"hint": [], "roll": [], "score": []}
    stop = time.monotonic() + seconds
    threads = [threading.Thread(target=player_loop, args=(port, stop, out))
               for _ in range(clients)]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out, time.perf_counter() - started


def describe(name: str, samples: list[float], elapsed: float) -> str:
    if len(samples) < 2:
        return f"{name:>6}: too few samples"
    cuts = statistics.quantiles(samples, n=100, method="inclusive")
    return (f"{name:>6}: {len(samples) / elapsed:7.0f}/s  p50 {cuts[49] * 1000:6.2f} ms  "
            f"p95 {cuts[94] * 1000:6.2f} ms  p99 {cuts[98] * 1000:6.2f} ms  "
            f"max {max(samples) * 1000:7.2f} ms  ({len(samples)} calls)")


def figures_of(name: str, samples: list[float], elapsed: float) -> dict[str, Any]:
    """Calls per second and p50/p99 of ``samples`` (seconds), as result figures."""
    if len(samples) < 2:
        return {}
    cuts = statistics.quantiles(samples, n=100, method="inclusive")
    return {f"{name}_per_s": benchjson.figure(round(len(samples) / elapsed), "calls/s"),
            f"{name}_p50": benchjson.figure(round(cuts[49] * 1000, 2), "ms"),
            f"{name}_p99": benchjson.figure(round(cuts[98] * 1000, 2), "ms",
                                            max=round(max(samples) * 1000, 2))}


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--clients", default="1,4", help="client counts, one phase each")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--server", choices=("gunicorn", "granian"), default="gunicorn")
    args = parser.parse_args()
    counts = [int(c) for c in args.clients.split(",")]
    if not (0 < args.seconds <= 120 and all(0 < c <= 64 for c in counts)
            and 0 < args.workers <= 16):
        parser.error("--seconds 0..120, --clients 1..64 each, --workers 1..16")

    from daily.rules import get_ruleset
    from daily.service.config import load_config
    from daily.service.days.keyring import init_keys
    from daily.strategy.tables.fileformat import save_table
    from daily.strategy.tables.lookup import table_or_solve

    tmp = Path(tempfile.mkdtemp(prefix="dd-hints-api-"))
    redis_port, app_port, hello_port = free_port(), free_port(), free_port()
    limit = "100000000/minute"
    env = dict(os.environ, DAILY_DATA_DIR=str(tmp / "data"),
               REDIS_URL=f"redis://127.0.0.1:{redis_port}/0", DAILY_KEY_PREFIX="bench:",
               DAILY_RATE_LIMIT=limit, DAILY_RATE_LIMIT_READS=limit, DAILY_RATE_LIMIT_IP=limit,
               GUNICORN_WORKERS=str(args.workers), GUNICORN_LOGLEVEL="warning",
               PYTHONPATH=str(ROOT))
    config = load_config(env)
    init_keys(config.keys_dir)
    save_table(table_or_solve(get_ruleset("yahtzee")), config.tables_dir)
    command = server_command(args.server, args.workers)
    results = []
    try:
        with (
            process([valkey_binary(), "--port", str(redis_port), "--bind", "127.0.0.1",
                     "--save", "", "--appendonly", "no", "--dir", str(tmp)], env, redis_port),
            process(command(app_port, "daily.service.app:create_app()"), env, app_port),
            process(command(hello_port, "bench.hello_app:app"), env, hello_port),
        ):
            run(app_port, 2 * args.workers, 3.0)  # every worker opens the table, compiles
            run_clients(hello_loop, 2 * args.workers, 1.0, hello_port)
            for clients in counts:
                before = load()
                floor, floor_took = run_clients(hello_loop, clients, args.seconds, hello_port)
                out, took = run(app_port, clients, args.seconds)
                results.append((clients, floor["hello"], floor_took, out, took, before, load()))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    served = "WSGI, one thread each"
    if args.server == "gunicorn":  # and what the environment changed of its configuration
        changed = [f"{name}={os.environ[name]}" for name in ("GUNICORN_WORKER_CLASS",
                   "GUNICORN_THREADS") if os.environ.get(name)]
        served = ", ".join(["deploy/gunicorn.conf.py", *changed])
    print(f"{args.server} {args.workers} workers ({served}), practice Yahtzee, a hint "
          f"before every decision, keep-alive clients on loopback, {os.cpu_count()} CPUs "
          f"shared by {args.server}, Valkey and the clients")
    for clients, hello, hello_took, out, took, before, after in results:
        print(f"{clients} client(s), {took:.0f} s each; load average before {before}, "
              f"after {after}")
        print("  " + describe("hello", hello, hello_took) + "  (the floor: bare Flask)")
        for name in ("hint", "roll", "score"):
            print("  " + describe(name, out[name], took))
    figures: dict[str, Any] = {}
    for clients, hello, hello_took, out, took, _, _ in results:
        figures.update({f"{key}_{clients}_clients": value for key, value in
                        figures_of("hello", hello, hello_took).items()})
        for name in ("hint", "roll", "score"):
            figures.update({f"{key}_{clients}_clients": value for key, value in
                            figures_of(name, out[name], took).items()})
    benchjson.record("hints_api" + ("" if args.server == "gunicorn" else f"-{args.server}"),
                     figures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
