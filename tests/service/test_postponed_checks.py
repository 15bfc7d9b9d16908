"""A results consumer whose fair-play engine is not compiled yet ranks at once, keeps
the games off the public top, and checks them once the engine is ready
(:mod:`daily.service.review.postponed`), on a real Redis; and a real consumer process on
a cold numba cache ranks a game within seconds."""

from __future__ import annotations

import datetime as dt
import functools
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import Future
from pathlib import Path

import pytest
import redis

from daily.movelog import MoveLog, Turn
from daily.rules import get_ruleset
from daily.service.config import Config, load_config
from daily.service.days.keyring import init_keys
from daily.service.players.standing import Policy, PublicStanding, unchecked_key
from daily.service.results.leaderboard import Leaderboard
from daily.service.results.result import Result
from daily.service.results.stream import ResultConsumer, ResultStream
from daily.service.review import postponed
from daily.service.review.gates import store_prepared
from daily.service.review.queue import ReviewQueue

ROOT = Path(__file__).resolve().parents[2]
PREFIX = "tpost:"
DAY = dt.date(2026, 11, 25)  # a day no other test of this process checks
NOON = dt.datetime(2026, 11, 25, 12, tzinfo=dt.UTC)

pytestmark = pytest.mark.redis


@pytest.fixture
def config(redis_url: str, tmp_path: Path) -> Config:
    values = {"REDIS_URL": redis_url, "DAILY_KEY_PREFIX": PREFIX,
              "DAILY_DATA_DIR": str(tmp_path / "data")}
    found = load_config(values)
    init_keys(found.keys_dir)
    return found


@pytest.fixture
def compiling() -> Iterator[Future[None]]:
    """The consumer's state while its engine compiles: the warm-up's future not done."""
    future: Future[None] = Future()
    saved = postponed._warm, postponed._wait
    postponed._warm, postponed._wait = future, 0.05
    yield future
    postponed._warm, postponed._wait = saved


def result(n: int, total: int, ruleset: str = "maxi-yatzy") -> Result:
    """A result whose every turn scores the first roll (without the ruleset's table the
    check is ceiling-only: the server's total against the day's ceiling, no replay)."""
    rules = get_ruleset(ruleset)
    log = MoveLog(ruleset, tuple(Turn((), b) for b in rules.box_ids), (), None,
                  DAY).to_text()
    return Result(f"g_{n}", f"p_{n}", f"P{n}", DAY, ruleset, total,
                  NOON.timestamp() + n, f"DD-{n}", log)


def public_ids(conn: redis.Redis, config: Config) -> list[str]:
    board = Leaderboard(conn, DAY, "maxi-yatzy", prefix=PREFIX)
    top = PublicStanding(conn, PREFIX, Policy.from_config(config)).public_top(board, 10, NOON)
    return [e.game_id for e in top.entries]


def test_ranked_at_once_off_the_top_until_checked_then_a_cheat_is_taken_off(
    config: Config, redis_client: redis.Redis, compiling: Future[None]
) -> None:
    conn = redis_client
    store_prepared(conn, PREFIX, DAY, "maxi-yatzy", 480, 1.0)
    stream = ResultStream(conn, prefix=PREFIX)
    stream.ensure_group()
    for r in (result(1, 300), result(2, 480)):  # an ordinary game, one scoring the ceiling
        stream.add(r)
    consumer = ResultConsumer(conn, prefix=PREFIX,
                              gate=functools.partial(postponed.gate, conn, config))
    started = time.monotonic()
    consumer.run(burst=True)
    assert time.monotonic() - started < 2.0
    board = Leaderboard(conn, DAY, "maxi-yatzy", prefix=PREFIX)
    # Both ranked at once (their players see their rank), neither on the public top: not
    # even the new-deployment exemption shows a game before its check.
    assert [e.game_id for e in board.top(10)] == ["g_2", "g_1"]
    assert board.standing("p_1") is not None
    assert conn.smembers(unchecked_key(PREFIX, DAY, "maxi-yatzy")) == {b"g_1", b"g_2"}
    assert public_ids(conn, config) == []
    # The engine is ready: the same check as ever. The ceiling game is taken off the
    # board, pending review; the other passes and shows (every player is new: the
    # exemption lists it).
    compiling.set_result(None)
    assert postponed.check_postponed(conn, config) == {
        "passed": 1, "held": 1, "waiting": 0, "forgotten": 0}
    assert [e.game_id for e in board.top(10)] == ["g_1"]
    assert ReviewQueue(conn, PREFIX).get("g_2").state == "pending"
    assert conn.scard(unchecked_key(PREFIX, DAY, "maxi-yatzy")) == 0
    assert conn.hlen(f"{PREFIX}review:postponed") == 0
    assert public_ids(conn, config) == ["g_1"]
    # Later results take the check before their board, as always.
    stream.add(result(3, 480))
    consumer.run(burst=True)
    assert [e.game_id for e in board.top(10)] == ["g_1"]
    assert ReviewQueue(conn, PREFIX).get("g_3").state == "pending"  # into the top


def test_a_game_already_in_review_is_not_ranked_by_the_postponed_path(
    config: Config, redis_client: redis.Redis, compiling: Future[None]
) -> None:
    conn = redis_client
    held = result(4, 480)
    ReviewQueue(conn, PREFIX).hold(held, {"method": "ceiling-only/1", "flagged": True})
    assert postponed.gate(conn, config, [held, result(5, 200)]) == ["held", None]
    assert conn.hkeys(f"{PREFIX}review:postponed") == [b"g_5"]


@pytest.mark.spawns
def test_a_consumer_on_a_cold_numba_cache_ranks_the_first_game_within_seconds(
    config: Config, redis_client: redis.Redis, tmp_path: Path
) -> None:
    """A fresh clone's first start: no compiled kernel anywhere (an empty numba cache),
    no strategy table, no ceiling prepared: the Yahtzee check would compile the ceiling's
    kernels (behind the warm-up's) before the game's board."""
    conn = redis_client
    cold = tmp_path / "numba-cache"
    cold.mkdir()
    env = {**os.environ, "REDIS_URL": config.redis_url or "", "DAILY_KEY_PREFIX": PREFIX,
           "DAILY_DATA_DIR": str(config.data_dir), "PYTHONPATH": str(ROOT),
           "NUMBA_CACHE_DIR": str(cold)}
    log = tmp_path / "consumer.log"
    with log.open("wb") as out:
        process = subprocess.Popen([sys.executable, "-m", "daily", "worker", "results",
                                    "--rank-first"],
                                   cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while b"results consumer" not in log.read_bytes():
            assert process.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.05)
        # The check's kernels are compiling now (a minute or more from an empty cache).
        ResultStream(conn, prefix=PREFIX).add(result(6, 150, "yahtzee"))
        finished = time.monotonic()
        board = Leaderboard(conn, DAY, "yahtzee", prefix=PREFIX)
        while board.standing("p_6") is None:
            assert time.monotonic() - finished < 5.0, log.read_text()
            time.sleep(0.05)
        assert conn.sismember(unchecked_key(PREFIX, DAY, "yahtzee"), "g_6")
        assert "ranked at once" in log.read_text()
    finally:
        process.terminate()
        process.wait(30)
