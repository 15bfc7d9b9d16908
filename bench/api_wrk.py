"""The roll and score calls against a bare Flask hello-world, measured by wrk (a C
load generator, independent of ``bench/api_throughput.py``'s Python clients).

Usage: ``python bench/api_wrk.py [--seconds 5] [--rounds 3] [--connections 8]
[--workers 2] [--worker-class gthread] [--server gunicorn|granian] [--redis tcp|unix]``
(needs ``wrk``: ``apt-get install wrk``).

The same set-up as ``bench/api_throughput.py`` (its own Valkey, fresh keys, gunicorn with
``deploy/gunicorn.conf.py`` for the app and for ``bench/hello_app.py``, the rate limit
raised so that it counts but never refuses, the new-player limits off). Each round runs
``wrk -t N -c N`` on ``GET /hello``, then ``wrk`` with ``bench/wrk_game.lua`` (one
connection per wrk thread, each playing games of today) on the app; the script prints
both rates per round and the median ratio.

Which gunicorn worker serves a connection is decided when it is accepted (the workers
race for it), and wrk keeps its connections for the whole phase: now and then most of
them land on one worker, which then runs on one core while the other idles (a phase of
hello-world at 1,900 req/s instead of 4,700, all its CPU in one worker). Such a round
measures where the connections landed, not what a request costs, so each phase's
balance is printed (the least busy worker's CPU against the busiest's) and a round
where either phase is below ``--balanced`` is run again (at most ``--rounds`` more
times); the median of every round is printed too.

``--redis unix`` has the app reach its Valkey on a unix socket instead of loopback TCP
(what a Redis on the same host could use; the default measures TCP, as to a Redis on
another host).

``--server granian`` serves both apps with granian instead of gunicorn
(:func:`api_throughput.server_command`; ``pip install granian`` first): what a server
whose HTTP work is not Python does to both rates. The service is deployed with gunicorn.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import benchjson  # noqa: E402
from api_throughput import (  # noqa: E402
    balance,
    cpu_seconds,
    free_port,
    process,
    server_command,
    valkey_binary,
    worker_cpu,
)
from benchjson import figure  # noqa: E402


def wrk(args: list[str]) -> str:
    """Run wrk; its report."""
    done = subprocess.run(["wrk", *args], capture_output=True, text=True, check=True)
    return done.stdout


def children_cpu() -> float:
    """User+system CPU seconds of this process's waited-for children (the wrk runs)."""
    times = os.times()
    return times.children_user + times.children_system


class Spent:
    """CPU seconds of the server (gunicorn and its workers) and of wrk over a phase."""

    def __init__(self, server_pid: int) -> None:
        self.server_pid = server_pid
        self.server = self.client = 0.0
        self.kernel = 0.0  # of ``server``: system time
        self.balance = 1.0  # of the last phase (see the module)

    def run(self, args: list[str]) -> str:
        """wrk with ``args``, counting both sides' CPU time."""
        server, client = cpu_seconds(self.server_pid), children_cpu()
        kernel = cpu_seconds(self.server_pid, system_only=True)
        workers = worker_cpu(self.server_pid)
        report = wrk(args)
        self.balance = balance(workers, worker_cpu(self.server_pid))
        self.server += cpu_seconds(self.server_pid) - server
        self.kernel += cpu_seconds(self.server_pid, system_only=True) - kernel
        self.client += children_cpu() - client
        return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--worker-class", default="gthread",
                        choices=("gthread", "sync", "gevent", "bench.inline_worker.InlineWorker"))
    parser.add_argument("--server", choices=("gunicorn", "granian"), default="gunicorn")
    parser.add_argument("--redis", choices=("tcp", "unix"), default="tcp",
                        help="how the app reaches its Valkey: loopback TCP (as Redis on "
                             "another host) or a unix socket")
    parser.add_argument("--balanced", type=float, default=0.7,
                        help="least balance of a counted round (0: count every round)")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        parser.error("wrk is not installed (apt-get install wrk)")
    if not (0 < args.seconds <= 60 and 0 < args.rounds <= 10 and 0 < args.connections <= 64
            and 0 <= args.balanced <= 1):
        parser.error("--seconds 1..60, --rounds 1..10, --connections 1..64, --balanced 0..1")

    from daily.service.config import load_config
    from daily.service.days.keyring import init_keys

    tmp = Path(tempfile.mkdtemp(prefix="dd-wrk-"))
    redis_port, app_port, hello_port = free_port(), free_port(), free_port()
    limit = "100000000/minute"
    socket_path = tmp / "valkey.sock"
    redis_url = (f"unix://{socket_path}?db=0" if args.redis == "unix"
                 else f"redis://127.0.0.1:{redis_port}/0")
    env = dict(os.environ, DAILY_DATA_DIR=str(tmp / "data"),
               REDIS_URL=redis_url, DAILY_KEY_PREFIX="wrk:",
               DAILY_RATE_LIMIT=limit, DAILY_RATE_LIMIT_READS=limit, DAILY_RATE_LIMIT_IP=limit,
               DAILY_PLAYER_LIMIT="off", DAILY_PLAYER_NET_LIMIT="off",
               GUNICORN_WORKERS=str(args.workers), GUNICORN_WORKER_CLASS=args.worker_class,
               GUNICORN_LOGLEVEL="warning", PYTHONPATH=str(ROOT),
               # no worker recycling during a run (as bench/api_throughput.py): a worker
               # replaced in the middle of a phase drops its connections, and wrk's
               # reconnections halved a round's rate now and then
               GUNICORN_CMD_ARGS="--max-requests 0")
    init_keys(load_config(env).keys_dir)
    command = server_command(args.server, args.workers)
    n = str(args.connections)
    common = ["-t", n, "-c", n, "-d", f"{args.seconds}s"]
    rounds: list[tuple[float, float]] = []  # counted
    every: list[tuple[float, float]] = []
    hello_calls = api_calls = api_moves = 0
    try:
        with (
            process([valkey_binary(), "--port", str(redis_port), "--bind", "127.0.0.1",
                     "--unixsocket", str(socket_path), "--unixsocketperm", "700",
                     "--save", "", "--appendonly", "no", "--dir", str(tmp)], env, redis_port),
            process(command(hello_port, "bench.hello_app:app"), env, hello_port) as hello_server,
            process(command(app_port, "daily.service.app:create_app()"), env,
                    app_port) as api_server,
        ):
            spent_hello, spent_api = Spent(hello_server.pid), Spent(api_server.pid)
            script = str(ROOT / "bench" / "wrk_game.lua")
            wrk(["-t", n, "-c", n, "-d", "1s", f"http://127.0.0.1:{hello_port}/hello"])
            wrk(["-t", n, "-c", n, "-d", "1s", "-s", script, f"http://127.0.0.1:{app_port}"])
            number = 0
            while len(rounds) < args.rounds and number < 2 * args.rounds:
                number += 1
                report = spent_hello.run([*common, f"http://127.0.0.1:{hello_port}/hello"])
                found_hello = re.search(r"(\d+) requests in", report)
                assert found_hello is not None, report
                hello_calls += int(found_hello.group(1))
                hello = float(re.search(r"Requests/sec:\s+([\d.]+)", report).group(1))  # type: ignore[union-attr]
                report = spent_api.run([*common, "-s", script, f"http://127.0.0.1:{app_port}"])
                found = re.search(r"= ([\d.]+) moves/s, unexpected answers (\d+)", report)
                assert found is not None, report
                moves, failed = float(found.group(1)), int(found.group(2))
                all_calls = re.search(r"(\d+) requests in", report)
                assert all_calls is not None, report
                api_calls += int(all_calls.group(1))
                api_moves += round(moves * args.seconds)
                every.append((hello, moves))
                even = min(spent_hello.balance, spent_api.balance) >= args.balanced
                if even:
                    rounds.append((hello, moves))
                print(f"round {number}: hello {hello:.0f} req/s, roll+score {moves:.0f} req/s "
                      f"= {moves / hello:.0%} (unexpected answers: {failed}; workers' "
                      f"balance: hello {spent_hello.balance:.2f}, game "
                      f"{spent_api.balance:.2f}{'' if even else '; not counted'})", flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    ratio = statistics.median(moves / hello for hello, moves in rounds or every)
    everything = statistics.median(moves / hello for hello, moves in every)
    served = (f"gunicorn {args.workers} {args.worker_class} workers (deploy/gunicorn.conf.py)"
              if args.server == "gunicorn"
              else f"granian {args.workers} WSGI workers of one thread each")
    print(f"wrk -t {n} -c {n}, {served}, {args.rounds} x {args.seconds} s per phase, "
          f"{os.cpu_count()} CPUs shared by server, Redis ({args.redis}) and wrk; "
          f"date {dt.datetime.now(dt.UTC).date()}")
    print(f"roll+score vs hello-world, median of {len(rounds)} rounds with both phases "
          f"balanced (>= {args.balanced:g}): {ratio:.0%}; median of all {len(every)} "
          f"rounds: {everything:.0%}")
    per_hello = spent_hello.server / hello_calls * 1000
    per_call = spent_api.server / api_calls * 1000
    print(f"CPU per request: server hello {per_hello:.3f} ms, game calls {per_call:.3f} ms "
          f"(roll, score, player creation and game starts: {api_calls} calls, {api_moves} "
          f"moves); wrk hello {spent_hello.client / hello_calls * 1000:.3f} ms, game "
          f"{spent_api.client / api_calls * 1000:.3f} ms; server CPU of hello-world against "
          f"a game call: {per_hello / per_call:.0%}")
    print(f"of the server's CPU, in the kernel: hello "
          f"{spent_hello.kernel / hello_calls * 1000:.3f} ms, game calls "
          f"{spent_api.kernel / api_calls * 1000:.3f} ms per request")
    print(f"load average after the run: {os.getloadavg()[0]:.1f}")
    counted = [round(moves / hello * 100, 1) for hello, moves in rounds or every]
    suffix = "".join(f"-{v}" for v, default in ((args.server, "gunicorn"), (args.redis, "tcp"))
                     if v != default)
    benchjson.record(f"api_wrk{suffix}", {
        "ratio": figure(round(ratio * 100, 1), "% of hello-world", rounds=counted,
                        min=min(counted), max=max(counted)),
        "ratio_all_rounds": figure(round(everything * 100, 1), "% of hello-world"),
        "server_cpu_hello": figure(round(per_hello, 3), "ms/request"),
        "server_cpu_game_call": figure(round(per_call, 3), "ms/request"),
        "wrk_cpu_game_call": figure(round(spent_api.client / api_calls * 1000, 3),
                                    "ms/request"),
    })
    return 0


if __name__ == "__main__":
    sys.exit(main())
