"""``daily serve`` smoke test: the embedded stack starts, answers, works and stops on Ctrl-C."""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import redis
from rq import Worker

from daily import calendar
from daily.service.embedded import free_port
from daily.service.leaderboard import Leaderboard
from daily.service.results_stream import ResultStream

pytestmark = [pytest.mark.redis, pytest.mark.slow]
ROOT = Path(__file__).resolve().parents[2]


def descendants(pid: int) -> set[int]:
    """Every live process below ``pid``."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        fields = text.rsplit(")", 1)[1].split()
        if fields[0] != "Z":
            parents[int(stat.parent.name)] = int(fields[1])
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {c for c, p in parents.items() if p in frontier} - found
        found |= frontier
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"



def stop_and_check(serve: subprocess.Popen, sig: int, children: list[int]) -> None:
    """Send ``sig`` to ``daily serve``: it exits 0 and every child is gone within 5 s."""
    serve.send_signal(sig)
    assert serve.wait(25) == 0
    deadline = time.monotonic() + 5
    while any(alive(c) for c in children):
        assert time.monotonic() < deadline, [c for c in children if alive(c)]
        time.sleep(0.05)


def test_serve_starts_works_and_stops_on_ctrl_c(tmp_path) -> None:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env.update(DAILY_DATA_DIR=str(tmp_path / "data"), DAILY_PORT=str(port),
               DAILY_KEY_PREFIX="ts:", PYTHONPATH=str(ROOT), DAILY_PAR_JOBS="off")
    log_path = tmp_path / "serve.log"
    with log_path.open("wb") as log:
        serve = subprocess.Popen(
            [sys.executable, "-m", "daily", "serve", "--web-workers", "1"],
            env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 25
        while "ready on" not in log_path.read_text():
            assert serve.poll() is None, log_path.read_text()
            assert time.monotonic() < deadline, log_path.read_text()
            time.sleep(0.1)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/health", timeout=5) as r:
            assert r.status == 200
            assert json.loads(r.read()) == {"status": "ok", "redis": "ok"}

        # The embedded results consumer records a result appended on the embedded Valkey.
        valkey_port = re.search(r"embedded Valkey on 127\.0\.0\.1:(\d+)", log_path.read_text())
        assert valkey_port, log_path.read_text()
        conn = redis.Redis(port=int(valkey_port.group(1)))
        day = calendar.open_dates(dt.datetime.now(dt.UTC))[-1]  # open now and for a day more
        opens = calendar.opens_at(day).timestamp()
        ResultStream(conn, prefix="ts:").add({
            "game_id": "g_smoke", "player_id": "p_smoke", "player_name": "Smoke",
            "date": day.isoformat(), "ruleset": "yahtzee", "total": 222,
            "finished_at": opens + 5, "code": "DD-SMOKE", "log": None,
        })
        board = Leaderboard(conn, day, "yahtzee", prefix="ts:")
        deadline = time.monotonic() + 10
        while board.players() == 0:
            assert time.monotonic() < deadline, "the embedded consumer did not record it"
            time.sleep(0.05)
        conn.close()

        children = descendants(serve.pid)
        assert len(children) >= 5  # valkey, results, worker, scheduler, gunicorn (+ children)
        stop_and_check(serve, signal.SIGINT, children)  # Ctrl-C
    finally:
        if serve.poll() is None:
            serve.kill()
            serve.wait()
        for child in descendants(serve.pid):
            os.kill(child, signal.SIGKILL)
    text = log_path.read_text()
    for name in ("web", "scheduler", "worker", "results", "valkey"):
        assert f"{name} stopped" in text
    assert "Traceback" not in text
    assert (tmp_path / "data" / "redis" / "appendonly").is_dir()
    assert (tmp_path / "data" / "keys" / "master.secret").exists()


def test_serve_with_redis_url_uses_that_redis_and_stops_on_sigterm(redis_url, tmp_path):
    port = free_port()
    env = dict(os.environ, REDIS_URL=redis_url, DAILY_DATA_DIR=str(tmp_path / "data"),
               DAILY_PORT=str(port), DAILY_KEY_PREFIX="ts:", PYTHONPATH=str(ROOT),
               DAILY_PAR_JOBS="off")
    # Keys come from `daily keys init` here (only the embedded mode makes them itself).
    assert subprocess.run([sys.executable, "-m", "daily", "keys", "init"], env=env,
                          cwd=ROOT, capture_output=True, timeout=30).returncode == 0
    log_path = tmp_path / "serve.log"
    with log_path.open("wb") as log:
        serve = subprocess.Popen([sys.executable, "-m", "daily", "serve", "--web-workers", "1"],
                                 env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 25
        while "ready on" not in log_path.read_text():
            assert serve.poll() is None, log_path.read_text()
            assert time.monotonic() < deadline, log_path.read_text()
            time.sleep(0.1)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/health", timeout=5) as r:
            assert json.loads(r.read())["redis"] == "ok"
        # The worker registered itself on the given Redis.
        conn = redis.Redis.from_url(redis_url)
        deadline = time.monotonic() + 15
        while Worker.count(connection=conn) != 1:
            assert time.monotonic() < deadline, "no RQ worker registered on REDIS_URL"
            time.sleep(0.1)
        conn.close()
        stop_and_check(serve, signal.SIGTERM, descendants(serve.pid))
    finally:
        if serve.poll() is None:
            serve.kill()
            serve.wait()
    text = log_path.read_text()
    assert "embedded Valkey" not in text and "valkey stopped" not in text
    assert "worker stopped" in text and "Traceback" not in text
