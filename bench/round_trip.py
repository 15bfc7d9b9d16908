"""What one Redis round trip costs on this machine, on both sides of the socket: the
app's CPU per call (a bare socket, redis-py's commands and its ``Script``), Valkey's
CPU per call (``INFO cpu``, user and kernel), and the time Valkey spends in a script
(``INFO commandstats``): ``EVALSHA`` of ``return 1`` against the move script
(:data:`daily.service.games.store._MOVE`) reading and writing a game.

Usage: ``python bench/round_trip.py [--calls 20000]``. It starts a Valkey of its own on a
loopback port (TCP, as the benchmarks and a deployment with Redis on another host), one
client, one call at a time: the figures are per call, not a throughput.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import socket
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import hiredis
import redis

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import benchjson  # noqa: E402
from api_throughput import free_port, process, valkey_binary  # noqa: E402

from daily.service.games.store import _MOVE  # noqa: E402


def valkey_cpu(conn: redis.Redis) -> tuple[float, float]:
    """Valkey's CPU seconds so far: user + system, and system alone."""
    cpu = conn.info("cpu")
    return cpu["used_cpu_user"] + cpu["used_cpu_sys"], cpu["used_cpu_sys"]


def per_call(conn: redis.Redis, calls: int, call: Callable[[], Any]) -> tuple[float, float, float]:
    """Microseconds per call: the app's CPU, Valkey's CPU, Valkey's system CPU."""
    call()
    valkey, kernel = valkey_cpu(conn)
    started = time.process_time()
    for _ in range(calls):
        call()
    app = time.process_time() - started
    valkey_now, kernel_now = valkey_cpu(conn)
    scale = 1e6 / calls
    return app * scale, (valkey_now - valkey) * scale, (kernel_now - kernel) * scale


def script_time(conn: redis.Redis, calls: int, call: Callable[[], Any]) -> float:
    """Valkey's own microseconds per ``EVALSHA`` of ``call`` (``INFO commandstats``)."""
    call()
    conn.config_resetstat()
    for _ in range(calls):
        call()
    return float(conn.info("commandstats")["cmdstat_evalsha"]["usec_per_call"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=20000)
    args = parser.parse_args()
    if not 100 <= args.calls <= 1_000_000:
        parser.error("--calls 100..1000000")
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="dd-rt-") as tmp, process(
        [valkey_binary(), "--port", str(port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no", "--dir", tmp], {}, port,
    ):
        conn = redis.Redis(port=port)
        record = '{"v":1,"x":"' + "a" * 280 + '"}'  # about a game's record, mid-game
        conn.set("game", record)
        one = conn.register_script("return 1")
        move = conn.register_script(_MOVE)
        digest = hashlib.sha1(record.encode()).hexdigest()
        counters = [2, 10**9, 60, 10**9, 60]  # two rate-limit counters, never over
        sock = socket.create_connection(("127.0.0.1", port))
        packed, reader = hiredis.pack_command(("PING",)), hiredis.Reader()

        def bare() -> Any:
            sock.sendall(packed)
            reader.feed(sock.recv(65536))
            return reader.gets()

        print(f"one client, {args.calls} calls each, Valkey on loopback TCP; "
              "microseconds per call")
        print(f"{'':34} {'app CPU':>8} {'Valkey CPU':>11} {'of it kernel':>13}")
        figures: dict[str, benchjson.Figure] = {}
        for name, call in (
            ("PING, bare socket", bare),
            ("PING, redis-py", conn.ping),
            ("GET, redis-py", lambda: conn.get("game")),
            ("EVALSHA return 1, Script", one),
            ("the same, the move's arguments",
             lambda: one(["game", "c1", "c2"], [*counters, "set", digest, record, 0])),
            ("the move script: set, no counters",
             lambda: move(["game"], [0, "set", digest, record, 0])),
            ("the move script: set, Script",
             lambda: move(["game", "c1", "c2"], [*counters, "set", digest, record, 0])),
        ):
            app, valkey, kernel = per_call(conn, args.calls, call)
            print(f"{name:34} {app:8.1f} {valkey:11.1f} {kernel:13.1f}")
            key = "_".join(re.findall(r"[a-z0-9]+", name.lower()))
            figures[f"{key}_app_cpu"] = benchjson.figure(round(app, 1), "µs/call")
            figures[f"{key}_valkey_cpu"] = benchjson.figure(round(valkey, 1), "µs/call",
                                                            kernel=round(kernel, 1))
        print("Valkey's time inside EVALSHA (INFO commandstats), microseconds per call:")
        for name, call in (
            ("return 1", one),
            ("the move script: read", lambda: move(["game", "c1", "c2"], [*counters, "read"])),
            ("the move script: set",
             lambda: move(["game", "c1", "c2"], [*counters, "set", digest, record, 0])),
        ):
            inside = script_time(conn, args.calls, call)
            print(f"  {name:24} {inside:6.1f}")
            key = "_".join(re.findall(r"[a-z0-9]+", name.lower()))
            figures[f"evalsha_{key}_inside"] = benchjson.figure(round(inside, 1), "µs/call")
        sock.close()
    benchjson.record("round_trip", figures)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
