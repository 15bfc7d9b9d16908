"""The results job in real RQ worker processes: run twice, and killed mid-job."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis
from rq import Queue
from rq.job import Job
from rq.registry import StartedJobRegistry

from daily.service.connections import RESULTS_QUEUE
from daily.service.leaderboard import Leaderboard
from daily.service.stats import player_stats
from workers.results import enqueue_result, job_id

pytestmark = [pytest.mark.redis, pytest.mark.slow]
ROOT = Path(__file__).resolve().parents[2]
PREFIX = "tw:"


def snapshot(conn: redis.Redis) -> dict[bytes, bytes]:
    """Every key of the service (not RQ's bookkeeping) with its serialized value."""
    return {k: conn.dump(k) for k in sorted(conn.keys(PREFIX + "*"))}


def _wait_gone(pid: int) -> None:
    deadline = time.monotonic() + 10
    while Path(f"/proc/{pid}").exists():
        status = Path(f"/proc/{pid}/status").read_text() if Path(f"/proc/{pid}").exists() else ""
        if "State:\tZ" in status:
            return
        assert time.monotonic() < deadline, f"process {pid} survived SIGKILL"
        time.sleep(0.05)


def test_same_job_twice_changes_nothing(
    redis_client, make_result, run_burst_worker
) -> None:
    results = [make_result(n) for n in range(1, 4)]
    for r in results:
        enqueue_result(redis_client, r)
    run_burst_worker(RESULTS_QUEUE)
    board = Leaderboard(redis_client, "2026-11-29", "yahtzee", prefix=PREFIX)
    assert board.players() == 3
    before = snapshot(redis_client)
    job = enqueue_result(redis_client, results[0])  # the same game again
    run_burst_worker(RESULTS_QUEUE)
    job.refresh()
    assert job.get_status() == "finished"
    assert job.return_value() == {
        "game_id": results[0]["game_id"], "board": "already_recorded",
        "stats": "already_recorded",
    }
    assert snapshot(redis_client) == before
    assert player_stats(redis_client, "p_000001", prefix=PREFIX)["games"] == 1


@pytest.mark.parametrize("simple", [False, True], ids=["forking-worker", "simple-worker"])
def test_worker_killed_mid_job_is_retried_and_counts_once(
    redis_client, make_result, worker_env, run_burst_worker, tmp_path, simple
) -> None:
    pause = tmp_path / "pause"
    pause.mkdir()
    env = dict(worker_env, DAILY_TEST_PAUSE_DIR=str(pause))
    result = make_result(42)
    worker = subprocess.Popen(
        [sys.executable, "-m", "daily", "worker", RESULTS_QUEUE, *(["--simple"] if simple else [])],
        env=env, cwd=ROOT, start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        job = enqueue_result(redis_client, result)
        marker = pause / result["game_id"]
        deadline = time.monotonic() + 40  # worker start-up is slow on a busy machine
        while not marker.exists():
            assert time.monotonic() < deadline, "the worker never reached the pause"
            assert worker.poll() is None, "the worker died on its own"
            time.sleep(0.05)
        # Step 1 (board) is done, step 2 (stats) not yet: kill the work-horse (RQ puts
        # it in a process group of its own; the marker holds its pid) and the worker.
        horse = int(marker.read_text())  # the worker itself for --simple
        os.kill(horse, signal.SIGKILL)
        os.killpg(worker.pid, signal.SIGKILL)
        worker.wait(10)
        _wait_gone(horse)
    finally:
        if worker.poll() is None:
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait(10)
    board = Leaderboard(redis_client, "2026-11-29", "yahtzee", prefix=PREFIX)
    assert board.players() == 1
    assert player_stats(redis_client, "p_000042", prefix=PREFIX)["games"] == 0
    job.refresh()
    assert job.get_status() == "started"  # RQ does not know yet that its worker is dead
    queue = Queue(RESULTS_QUEUE, connection=redis_client)
    registry = StartedJobRegistry(queue=queue)
    assert job.id in registry.get_job_ids(cleanup=False)
    # What a worker's maintenance does once the dead worker's heartbeat expired (about
    # 90 s after the kill): the abandoned job is requeued because it has retries left.
    registry.cleanup(timestamp=time.time() + 120)
    job.refresh()
    assert job.get_status() == "queued"
    assert job.retries_left == 2
    marker.unlink()
    run_burst_worker(RESULTS_QUEUE)
    job = Job.fetch(job_id(result["game_id"]), connection=redis_client)
    assert job.get_status() == "finished"
    assert job.return_value()["board"] == "already_recorded"
    assert len(job.results()) == 1  # one completed run: the killed one left no result
    assert job.return_value()["stats"] == "recorded"
    assert board.players() == 1
    stats = player_stats(redis_client, "p_000042", prefix=PREFIX)
    assert (stats["games"], stats["best"]) == (1, result["total"])
    assert board.histogram()["bins"] == [
        {"from": result["total"] // 10 * 10, "to": result["total"] // 10 * 10 + 9, "count": 1}
    ]
