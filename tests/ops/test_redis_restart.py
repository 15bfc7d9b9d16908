"""Redis killed with SIGKILL and restarted: nothing that was accepted is lost."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
from pathlib import Path

import pytest
import redis

from daily import calendar
from daily.service.results.leaderboard import Leaderboard
from daily.service.results.stats import player_stats
from daily.service.results.stream import ResultConsumer, ResultStream
from tests.polling import PROCESS_TIMEOUT, wait_until

pytestmark = [pytest.mark.redis, pytest.mark.slow]
ROOT = Path(__file__).resolve().parents[2]
OPENS = calendar.opens_at(dt.date(2026, 11, 29)).timestamp()


def result(n: int) -> dict:
    return {
        "game_id": f"g_{n:04d}", "player_id": f"p_{n:04d}", "player_name": f"P{n}",
        "date": "2026-11-29", "ruleset": "maxi-yatzy", "total": 200 + n,
        "finished_at": OPENS + n, "code": f"DD-{n}",
        "log": {"format": "daily-log/1", "ruleset": "maxi-yatzy", "day": "2026-11-29",
                "turns": [{"holds": ["110000"], "category": "chance"}]},
    }


def test_results_and_pending_results_survive_kill_9(own_valkey, tmp_path) -> None:
    server = own_valkey()
    conn = redis.Redis.from_url(server.url)
    stream = ResultStream(conn, prefix="tr:")
    for n in range(1, 21):  # recorded on the board and in the stats
        stream.add(result(n))
    assert ResultConsumer(conn, prefix="tr:").run(burst=True) == 20
    for n in range(21, 31):  # accepted, waiting in the results stream
        stream.add(result(n))
    board = Leaderboard(conn, "2026-11-29", "maxi-yatzy", prefix="tr:")
    before = [e.to_json() for e in board.top(100)], board.histogram()
    conn.close()

    server.kill9()  # no shutdown, no final save: only what the AOF already holds
    server.start()

    conn = redis.Redis.from_url(server.url)
    board = Leaderboard(conn, "2026-11-29", "maxi-yatzy", prefix="tr:")
    assert ([e.to_json() for e in board.top(100)], board.histogram()) == before
    assert player_stats(conn, "p_0020", prefix="tr:")["games"] == 1
    assert ResultStream(conn, prefix="tr:").unapplied("2026-11-29") == 10
    env = dict(os.environ, REDIS_URL=server.url, DAILY_KEY_PREFIX="tr:", PYTHONPATH=str(ROOT))
    subprocess.run(
        [sys.executable, "-m", "daily", "worker", "results", "--burst"],
        env=env, cwd=ROOT, check=True, timeout=PROCESS_TIMEOUT,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    assert board.players() == 30
    assert board.top(1)[0].score == 230
    conn.close()


def test_the_results_consumer_reconnects_when_redis_restarts(own_valkey, tmp_path) -> None:
    """A running ``daily worker results`` (not burst) outlives a Redis restart: it says
    so in one line, no traceback, and records what arrives once Redis is back."""
    server = own_valkey()
    conn = redis.Redis.from_url(server.url)
    stream = ResultStream(conn, prefix="tr:")
    board = Leaderboard(conn, "2026-11-29", "maxi-yatzy", prefix="tr:")
    env = dict(os.environ, REDIS_URL=server.url, DAILY_KEY_PREFIX="tr:", PYTHONPATH=str(ROOT),
               DAILY_DATA_DIR=str(tmp_path / "data"))
    log_path = tmp_path / "consumer.log"
    with log_path.open("wb") as out:
        consumer = subprocess.Popen([sys.executable, "-m", "daily", "worker", "results"],
                                    env=env, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
    try:
        for n in range(1, 6):
            stream.add(result(n))
        wait_until(lambda: board.players() == 5, message="the first results",
                   ignore=(redis.ConnectionError,))
        conn.close()
        server.kill9()
        wait_until(lambda: "lost Redis" in log_path.read_text(), message="the consumer to see it")
        server.start()
        conn = redis.Redis.from_url(server.url)
        stream = ResultStream(conn, prefix="tr:")
        board = Leaderboard(conn, "2026-11-29", "maxi-yatzy", prefix="tr:")
        for n in range(6, 11):
            stream.add(result(n))
        wait_until(lambda: board.players() == 10, message="the results sent after the restart",
                   ignore=(redis.ConnectionError,))
        assert consumer.poll() is None  # still running
    finally:
        consumer.terminate()
        consumer.wait(30)
        conn.close()
    text = log_path.read_text()
    assert consumer.returncode == 0, text
    assert "Traceback" not in text
    assert len([line for line in text.splitlines() if "lost Redis" in line]) == 1
    assert "Redis is back after" in text


