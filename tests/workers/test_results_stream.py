"""The results stream and its consumers in real processes: twice, refused, killed."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from rq import Queue

from daily.service.connections import DAYS_QUEUE
from daily.service.results.archive import archive_path, read_archive
from daily.service.results.leaderboard import Leaderboard
from daily.service.results.stats import player_stats
from daily.service.results.stream import GROUP, ResultConsumer, ResultStream, stream_key
from tests.polling import PROCESS_TIMEOUT, wait_until
from tests.workers.conftest import DATE, PREFIX, ROOT

pytestmark = [pytest.mark.redis, pytest.mark.slow]
AFTER_CLOSE = "2026-11-30T12:10:00+00:00"  # the 29th closed at 12:00 UTC


@pytest.fixture
def stream(redis_client: redis.Redis) -> ResultStream:
    return ResultStream(redis_client, prefix=PREFIX)


@pytest.fixture
def consumers(worker_env: dict[str, str]) -> Iterator[Callable[..., subprocess.Popen[bytes]]]:
    """Start ``daily worker results`` processes; all are killed at the end."""
    started: list[subprocess.Popen[bytes]] = []

    def start(name: str, **env: str) -> subprocess.Popen[bytes]:
        proc = subprocess.Popen(
            [sys.executable, "-m", "daily", "worker", "results", "--name", name, "--quiet"],
            env=dict(worker_env, **env), cwd=ROOT, stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        started.append(proc)
        return proc

    yield start
    for proc in started:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
    for proc in started:
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def board(conn: redis.Redis) -> Leaderboard:
    return Leaderboard(conn, DATE, "yahtzee", prefix=PREFIX)


def counted_once(conn: redis.Redis, count: int) -> None:
    """Every game 1..count on the board once, in the stats once, nothing left over."""
    lb = board(conn)
    assert lb.players() == count
    assert sum(b["count"] for b in lb.histogram()["bins"]) == count
    games = [player_stats(conn, f"p_{n:06d}", prefix=PREFIX)["games"] for n in range(1, count + 1)]
    assert games == [1] * count
    stream = ResultStream(conn, prefix=PREFIX)
    assert stream.unapplied(DATE) == 0 and stream.backlog() == 0
    assert stream.rejected() == {}
    for key in stream.stream_keys():
        assert conn.xpending(key, GROUP)["pending"] == 0


def test_the_same_result_twice_counts_once(redis_client, stream, make_result) -> None:
    for n in (1, 2, 3, 1):  # game 1 twice (a retried finish must not count twice)
        stream.add(make_result(n))
    assert stream.unapplied(DATE) == 4
    assert ResultConsumer(redis_client, prefix=PREFIX).run(burst=True) == 4
    counted_once(redis_client, 3)
    before = {k: redis_client.dump(k) for k in redis_client.keys(f"{PREFIX}lb:*")}
    stream.add(make_result(2))
    assert ResultConsumer(redis_client, prefix=PREFIX).run(burst=True) == 1
    assert {k: redis_client.dump(k) for k in redis_client.keys(f"{PREFIX}lb:*")} == before
    counted_once(redis_client, 3)


def test_refused_results_are_kept_not_lost_nor_retried(
    redis_client, stream, make_result
) -> None:
    stream.add(make_result(1))
    stream.add(make_result(2, player_id="p_000001"))  # a second game of the same player
    shard_key = stream_key(PREFIX, 5)
    redis_client.xadd(shard_key, {"r": "{not json"})  # a corrupt entry
    stream.ensure_group()
    assert ResultConsumer(redis_client, prefix=PREFIX).run(burst=True) == 3
    assert board(redis_client).players() == 1
    rejected = stream.rejected()
    assert rejected["g_000002"]["reason"] == "duplicate_player"
    assert json.loads(rejected["g_000002"]["result"])["player_id"] == "p_000001"
    [bad] = [v for k, v in rejected.items() if k.startswith("bad-entry-")]
    assert bad["reason"].startswith("invalid: result: is not valid JSON")
    assert stream.backlog() == 0 and stream.unapplied(DATE) == 0
    assert player_stats(redis_client, "p_000001", prefix=PREFIX)["games"] == 1

    board(redis_client).freeze(time.time())  # a result after the freeze: kept, not lost
    stream.add(make_result(3))
    assert ResultConsumer(redis_client, prefix=PREFIX).run(burst=True) == 1
    assert stream.rejected()["g_000003"]["reason"] == "frozen"
    assert player_stats(redis_client, "p_000003", prefix=PREFIX)["games"] == 0


def test_consumer_killed_mid_batch_loses_nothing_and_counts_nothing_twice(
    redis_client, stream, make_result, consumers, tmp_path
) -> None:
    for n in range(1, 41):
        stream.add(make_result(n))
    pause = tmp_path / "pause"
    pause.mkdir()
    first = consumers("first", DAILY_TEST_PAUSE_DIR=str(pause))
    marker = pause / "batch"
    wait_until(marker.exists, message="the consumer never reached the middle of its batch")
    batch = json.loads(marker.read_text())
    assert batch["pid"] == first.pid and len(batch["games"]) == 40
    os.kill(first.pid, signal.SIGKILL)  # half of the batch applied, half not
    first.wait(10)
    applied = board(redis_client).players()
    assert applied == 20
    assert sum(redis_client.xpending(k, GROUP)["pending"] for k in stream.stream_keys()) == 20
    assert stream.unapplied(DATE) == 20
    killed_at = time.monotonic()
    consumers("second")
    wait_until(lambda: stream.backlog() == 0,
               message="the dead consumer's entries were not claimed")
    reclaimed = time.monotonic() - killed_at
    assert reclaimed < 20, reclaimed  # idle 5 s, then claimed at the next claim round
    counted_once(redis_client, 40)


def test_consumers_killed_again_and_again_under_load_count_everything_once(
    redis_client, stream, make_result, consumers
) -> None:
    total = 1500
    rng = random.Random(11)
    procs = {name: consumers(name) for name in ("a", "b")}
    kills = 0
    for n in range(1, total + 1):
        stream.add(make_result(n))
        if n % 300 == 0:  # kill -9 one consumer mid-work, start a fresh one
            name = rng.choice(sorted(procs))
            os.kill(procs[name].pid, signal.SIGKILL)
            procs[name].wait(10)
            kills += 1
            procs[name] = consumers(f"{name}{kills}")
        if n % 50 == 0:
            time.sleep(0.02)  # about 2,500 results/s offered, in bursts
    wait_until(lambda: stream.backlog() == 0, message="not every result reached the board")
    counted_once(redis_client, total)
    assert kills == 5


def test_worker_results_is_a_process_of_its_own(worker_env) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "daily", "worker", "results", "days"],
        env=worker_env, cwd=ROOT, capture_output=True, text=True, timeout=PROCESS_TIMEOUT,
    )
    assert done.returncode != 0
    assert "queues:" in done.stderr and "own process" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_close_waits_for_the_days_results_then_archives_them_all(
    redis_client, stream, make_result, consumers, worker_env
) -> None:
    """An outage of the consumers at the close: the freeze waits, nothing is refused."""
    down = consumers("down")
    wait_until(lambda: redis_client.exists(stream_key(PREFIX, 0)),
               message="the consumer did not start")
    os.kill(down.pid, signal.SIGKILL)  # the consumers are down at the close
    down.wait(10)
    for n in range(1, 301):
        stream.add(make_result(n))
    queue = Queue(DAYS_QUEUE, connection=redis_client)

    def rollover() -> dict[str, Any]:
        job = queue.enqueue("workers.rollover.rollover", AFTER_CLOSE)
        subprocess.run(
            [sys.executable, "-m", "daily", "worker", "days", "--burst", "--quiet"],
            env=worker_env, cwd=ROOT, check=True, timeout=PROCESS_TIMEOUT,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        job.refresh()
        assert job.get_status() == "finished", job.latest_result()
        return job.return_value()

    waiting = {(d["date"], d["ruleset"]): d for d in rollover()["days"]}
    assert waiting[(DATE, "yahtzee")] == {
        "date": DATE, "ruleset": "yahtzee", "done": [], "waiting": 300,
    }
    assert not board(redis_client).frozen()

    consumers("back")  # the consumers come back while more rollovers run
    runs = []
    while stream.backlog():
        runs.append(rollover())
        time.sleep(0.2)
    runs.append(rollover())
    # The freeze happens in whichever run first finds the day's results all applied
    # (one inside the loop when the consumers drain the backlog between two checks).
    done = [d["done"] for run in runs for d in run["days"]
            if (d["date"], d["ruleset"]) == (DATE, "yahtzee") and d["done"]]
    assert done and done[0][:4] == ["rechecked", "frozen", "stats", "archived"], runs
    counted_once(redis_client, 300)
    assert board(redis_client).final_stats()["players"] == 300
    path = archive_path(Path(worker_env["DAILY_DATA_DIR"]) / "archive", DATE, "yahtzee")
    summary, rows = read_archive(path)
    assert summary.players == 300 and len(list(rows)) == 300


class BatchSizes(ResultConsumer):
    """A real consumer that also notes the size of every batch it applies."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.sizes: list[int] = []

    def apply(self, entries: Any) -> Any:
        entries = list(entries)
        self.sizes.append(len(entries))
        return super().apply(entries)


def _trickle(
    conn: redis.Redis, stream: ResultStream, make_result: Any, linger_ms: int
) -> list[int]:
    """Results 1..40 appended 5 ms apart to a consumer running in a thread; its batches."""
    consumer = BatchSizes(conn, prefix=PREFIX, linger_ms=linger_ms)
    thread = threading.Thread(target=consumer.run, kwargs={"block_ms": 100})
    thread.start()
    try:
        for n in range(1, 41):
            stream.add(make_result(n))
            time.sleep(0.005)
        wait_until(lambda: board(conn).players() == 40, message="the 40 results")
    finally:
        consumer.stop()
        thread.join(10)
    counted_once(conn, 40)
    return consumer.sizes


def test_a_lingering_consumer_applies_fewer_larger_batches(
    redis_client, stream, make_result
) -> None:
    """After a partial batch the consumer waits ``linger_ms`` (``daily worker results
    --linger-ms``), so a trickle of results is applied in fewer batches, each paying
    its round trips once; nothing is lost or counted twice either way."""
    eager = _trickle(redis_client, stream, make_result, 0)
    redis_client.flushdb()
    lingering = _trickle(redis_client, stream, make_result, 100)
    assert sum(eager) == sum(lingering) == 40
    assert len(lingering) * 2 <= len(eager), (eager, lingering)
    assert max(lingering) >= 5, lingering


def test_the_linger_is_checked_on_the_command_line(worker_env: dict[str, str]) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "daily", "worker", "results", "--linger-ms", "5000"],
        env=worker_env, cwd=ROOT, capture_output=True, text=True, timeout=PROCESS_TIMEOUT,
    )
    assert done.returncode != 0
    assert "--linger-ms" in done.stderr and "0..1000" in done.stderr
    assert "Traceback" not in done.stderr
