"""The results consumer: a stop within seconds, and the day's ceiling kept across starts.

A Maxi Yatzy result whose day's ceiling nobody computed yet: the consumer computes it
in its background thread (10 to 90 s) and defers that result meanwhile. Told to stop
(SIGTERM) in the middle, it exits within seconds (its result stays pending, applied by
the next start). The next consumer computes the ceiling and keeps it in Redis (the value
and the whole table of values); a consumer started after that computes nothing: the
next Maxi result goes on its board at once, and the full check's table is one GET.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis

from daily.movelog import MoveLog, Turn
from daily.rules import get_ruleset
from daily.service import keymap
from daily.service.config import load_config
from daily.service.days.keyring import init_keys
from daily.service.results.leaderboard import Leaderboard
from daily.service.results.stream import ResultStream
from daily.service.review.gates import day_ceiling
from tests.ops.serving import ROOT, open_day_now
from tests.polling import wait_until

pytestmark = [pytest.mark.redis, pytest.mark.slow, pytest.mark.spawns]
PREFIX = "tstop:"


def maxi_result(n: int, date: str, now: float) -> dict[str, object]:
    """A complete Maxi Yatzy log (every box scored at once, in order) as a result."""
    rules = get_ruleset("maxi-yatzy")
    log = MoveLog(rules.name, tuple(Turn((), box.id) for box in rules.boxes),
                  day=dt.date.fromisoformat(date))
    return {"game_id": f"g_stop{n}", "player_id": f"p_stop{n}", "player_name": f"P{n}",
            "date": date, "ruleset": "maxi-yatzy", "total": 10 + n, "finished_at": now,
            "code": f"DD-STOP{n}", "log": log.to_text()}


def start_consumer(env: dict[str, str], log_path: Path) -> subprocess.Popen[bytes]:
    with log_path.open("wb") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "daily", "worker", "results"], env=env, cwd=ROOT,
            stdout=out, stderr=subprocess.STDOUT,
        )


def test_a_consumer_stops_in_seconds_and_the_ceiling_is_computed_once(
    redis_url: str, redis_client: redis.Redis, tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    env = {**os.environ, "REDIS_URL": redis_url, "DAILY_KEY_PREFIX": PREFIX,
           "DAILY_DATA_DIR": str(tmp_path / "data"), "PYTHONPATH": str(ROOT),
           "DAILY_RULESETS": "yahtzee,maxi-yatzy"}
    config = load_config(env)
    init_keys(config.keys_dir)
    date, now = open_day_now()
    stream = ResultStream(redis_client, prefix=PREFIX)
    board = Leaderboard(redis_client, dt.date.fromisoformat(date), "maxi-yatzy", prefix=PREFIX)
    stream.add(maxi_result(1, date, now))

    # 1. Computing the ceiling in its background thread, told to stop: out in seconds.
    first = start_consumer(env, tmp_path / "first.log")
    try:
        wait_until(lambda: "computing it in the background" in
                   (tmp_path / "first.log").read_text(),
                   message=lambda: (tmp_path / "first.log").read_text(),
                   alive=lambda: first.poll() is None)
        time.sleep(0.5)
        asked = time.monotonic()
        first.send_signal(signal.SIGTERM)
        assert first.wait(10) == 0
        assert time.monotonic() - asked < 5
    finally:
        first.kill()
    assert board.players() == 0 and stream.unapplied(date) == 1  # pending, not lost
    text = (tmp_path / "first.log").read_text()
    assert "is not computed yet (its job has not run)" in text and "Traceback" not in text

    # 2. The next consumer computes it once, keeps it, and applies the pending result.
    second = start_consumer(env, tmp_path / "second.log")
    try:
        wait_until(lambda: board.players() == 1, 600, 0.2, "the pending result never came",
                   alive=lambda: second.poll() is None)
        second.send_signal(signal.SIGTERM)
        assert second.wait(10) == 0
    finally:
        second.kill()
    day = dt.date.fromisoformat(date)
    assert redis_client.exists(keymap.fairplay_ceiling(PREFIX, day, "maxi-yatzy"))
    assert redis_client.exists(keymap.fairplay_hindsight(PREFIX, day, "maxi-yatzy"))

    # 3. A later start computes nothing: the next result is on the board at once.
    stream.add(maxi_result(2, date, now))
    third = start_consumer(env, tmp_path / "third.log")
    try:
        started = time.monotonic()
        wait_until(lambda: board.players() == 2, message="the second result never came",
                   alive=lambda: third.poll() is None)
        assert time.monotonic() - started < 30
        third.send_signal(signal.SIGTERM)
        assert third.wait(10) == 0
    finally:
        third.kill()
    assert "computing" not in (tmp_path / "third.log").read_text()
    # The full check's table (once Maxi Yatzy's strategy table exists) is one GET too.
    caplog.set_level(logging.INFO, logger="daily.service.review.gates")
    conn = redis.Redis.from_url(redis_url)
    kept = day_ceiling(conn, config, get_ruleset("maxi-yatzy"), day)
    assert "computing" not in caplog.text and kept.values.size > 80_000_000
