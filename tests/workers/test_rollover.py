"""Day rollover: freeze, final stats, archive, rebuild; locks against double runs."""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis
from rq import Queue, cron_scheduler_registry
from rq.cron import get_cron_job_history_key
from rq.job import Job
from rq.registry import StartedJobRegistry

from daily.service.config import load_config
from daily.service.connections import DAYS_QUEUE
from daily.service.ops.scheduler import LeaderCronScheduler, build_scheduler
from daily.service.results.archive import ArchiveError, archive_path, read_archive, rebuild_board
from daily.service.results.leaderboard import BoardFrozenError, Leaderboard
from daily.service.results.result import Result
from daily.service.results.stats import player_stats, record_game
from tests.polling import PROCESS_TIMEOUT, wait_until
from workers import rollover as rollover_module

pytestmark = pytest.mark.redis
ROOT = Path(__file__).resolve().parents[2]
PREFIX = "tw:"
AFTER_CLOSE = "2026-11-30T12:10:00+00:00"  # the 29th closed at 12:00 UTC


@pytest.fixture
def job_env(monkeypatch, worker_env, yahtzee_tables_dir) -> dict[str, str]:
    """Run jobs in this process with the worker's environment (Yahtzee table built)."""
    for name in ("REDIS_URL", "DAILY_KEY_PREFIX", "DAILY_DATA_DIR"):
        monkeypatch.setenv(name, worker_env[name])
    monkeypatch.setenv("DAILY_RULESETS", "yahtzee,maxi-yatzy")
    monkeypatch.setenv("DAILY_TABLES_DIR", str(yahtzee_tables_dir))
    return worker_env


def fill(conn: redis.Redis, make_result, count: int, ruleset: str = "yahtzee") -> Leaderboard:
    board = Leaderboard(conn, "2026-11-29", ruleset, prefix=PREFIX)
    for n in range(1, count + 1):
        result = Result.from_json(make_result(n, ruleset=ruleset, total=100 + (n * 37) % 180))
        board.record(result)
        record_game(conn, result, prefix=PREFIX)
    return board


def board_state(board: Leaderboard) -> dict:
    return {
        "players": board.players(),
        "rows": [e.to_json() for e in board.top(10_000)],
        "histogram": board.histogram(),
        "frozen": board.frozen(),
        "standing_7": board.standing("p_000007"),
    }


def test_rollover_freezes_archives_and_rebuild_restores(
    redis_client, make_result, job_env
) -> None:
    board = fill(redis_client, make_result, 30)
    fill(redis_client, make_result, 5, "maxi-yatzy")
    # Before the close (plus grace) nothing of the 29th is touched.
    early = rollover_module.rollover("2026-11-30T12:02:00+00:00")
    assert all(d["date"] != "2026-11-29" for d in early["days"])
    assert not board.frozen()

    outcome = rollover_module.rollover(AFTER_CLOSE)
    done = {(d["date"], d["ruleset"]): d["done"] for d in outcome["days"]}
    assert done[("2026-11-29", "yahtzee")][:4] == ["rechecked", "frozen", "stats", "archived"]
    assert board.frozen()
    with pytest.raises(BoardFrozenError):
        board.record(Result.from_json(make_result(99)))
    final = board.final_stats()
    assert final is not None and final["players"] == 30
    assert final["best"] == max(100 + (n * 37) % 180 for n in range(1, 31))

    path = archive_path(Path(job_env["DAILY_DATA_DIR"]) / "archive", "2026-11-29", "yahtzee")
    lines = path.read_text().splitlines()
    header = json.loads(lines[0])
    assert header["format"] == "daily-archive/1" and header["players"] == 30
    rows = [json.loads(line) for line in lines[1:]]
    assert [r["rank"] for r in rows] == list(range(1, 31))
    assert [r["game_id"] for r in rows] == [e.game_id for e in board.top(100)]
    assert rows[0]["log"]["format"] == "daily-log/1"
    assert not list(path.parent.glob("*.tmp"))  # the temporary file was renamed away
    assert 0 < redis_client.ttl(board.key("logs")) <= rollover_module.LOGS_KEPT_SECONDS
    assert redis_client.ttl(board.key("rank")) == -1  # the board itself stays

    if load_config().par_jobs:
        par = Job.fetch("par-2026-11-29-yahtzee", connection=redis_client)
        assert (par.func_name, par.args) == (rollover_module.PAR_FUNC, ("2026-11-29", "yahtzee"))
        assert "par" in done[("2026-11-29", "yahtzee")]

    # Idempotent: a second run does nothing at all.
    assert rollover_module.rollover(AFTER_CLOSE) == {"days": []}

    # Rebuild from the archive (the CLI, with progress) equals the original board.
    original = board_state(board)
    board.clear()
    redis_client.delete(*redis_client.keys(PREFIX + "player:*"))
    assert board.players() == 0
    cli = subprocess.run(
        [sys.executable, "-m", "daily", "rebuild", "2026-11-29", "yahtzee"],
        env=job_env, cwd=ROOT, capture_output=True, text=True, timeout=PROCESS_TIMEOUT,
    )
    assert cli.returncode == 0, cli.stderr
    assert "30/30 (100%)" in cli.stderr
    assert "rebuilt 2026-11-29 yahtzee: 30 players" in cli.stdout
    assert board_state(board) == original
    assert board.final_stats()["players"] == 30
    assert player_stats(redis_client, "p_000007", prefix=PREFIX)["games"] == 1


def test_rebuild_refuses_a_damaged_archive(redis_client, make_result, tmp_path) -> None:
    board = fill(redis_client, make_result, 3)
    path = tmp_path / "a.jsonl"
    header = {"format": "daily-archive/1", "date": "2026-11-29", "ruleset": "yahtzee",
              "players": 3, "frozen": True}
    good = [json.dumps(make_result(n)) for n in (1, 2)]
    bad = json.dumps(make_result(3, total="lots"))
    path.write_text("\n".join([json.dumps(header), *good, bad]) + "\n")
    before = board_state(board)
    with pytest.raises(ArchiveError, match=r"line 4: .*total: must be a whole number"):
        rebuild_board(redis_client, path, prefix=PREFIX)
    assert board_state(board) == before  # the live board is untouched
    assert not redis_client.keys(PREFIX + "rebuild:*")
    path.write_text("not json\n")
    with pytest.raises(ArchiveError, match="line 1"):
        read_archive(path)


def test_rollover_lock_blocks_a_second_run(redis_client, make_result, job_env) -> None:
    board = fill(redis_client, make_result, 3)
    lock = redis_client.lock(PREFIX + "lock:rollover", timeout=30)
    assert lock.acquire(blocking=False)
    try:
        assert rollover_module.rollover(AFTER_CLOSE) == {
            "skipped": "another rollover holds the lock"
        }
        assert not board.frozen()
    finally:
        lock.release()
    assert rollover_module.rollover(AFTER_CLOSE)["days"]
    assert board.frozen()


def test_only_the_leader_scheduler_enqueues(redis_client) -> None:
    a = LeaderCronScheduler(redis_client, lock_key=PREFIX + "lock:scheduler", lock_ttl=3)
    b = LeaderCronScheduler(redis_client, lock_key=PREFIX + "lock:scheduler", lock_ttl=3)
    for s in (a, b):
        s.register(rollover_module.rollover, DAYS_QUEUE, interval=1)
    assert len(a.enqueue_jobs()) == 1
    assert b.enqueue_jobs() == []  # standby
    assert a.is_leader() and not b.is_leader()
    a.resign()  # what a clean stop does: the standby takes over at once
    assert b.is_leader()
    assert len(Queue(DAYS_QUEUE, connection=redis_client)) == 1


@pytest.mark.slow
def test_two_scheduler_processes_do_not_double_run(redis_url, redis_client, worker_env) -> None:
    env = dict(worker_env, DAILY_ROLLOVER_INTERVAL="1", DAILY_PAR_JOBS="off")
    queue = Queue(DAYS_QUEUE, connection=redis_client)
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    worker = subprocess.Popen(
        [sys.executable, "-m", "daily", "worker", DAYS_QUEUE], env=env, cwd=ROOT, **quiet
    )
    procs = [
        subprocess.Popen([sys.executable, "-m", "daily", "scheduler"], env=env, cwd=ROOT, **quiet)
        for _ in range(2)
    ]
    history_key = get_cron_job_history_key("workers.rollover.rollover")
    try:
        # process start-up is slow on a busy machine
        wait_until(lambda: redis_client.zcard(history_key),
                   message="no scheduler enqueued anything")
        wait_until(lambda: len(cron_scheduler_registry.get_keys(redis_client)) == 2,
                   message="the second scheduler did not start")
        time.sleep(4.0)  # both schedulers up: the window in which a second leader would show
        for p in procs:
            p.terminate()
        for p in procs:
            p.wait(15)
        wait_until(lambda: not (len(queue) or StartedJobRegistry(queue=queue).count),
                   message="the worker did not drain the days queue")
    finally:
        for p in [*procs, worker]:
            if p.poll() is None:
                p.terminate()
                p.wait(15)
    history = redis_client.zrange(history_key, 0, -1, withscores=True)
    times = sorted(score for _id, score in history)
    assert len(times) >= 3, times
    # One leader enqueues once a second; two schedulers would average one every half second.
    mean_gap = (times[-1] - times[0]) / (len(times) - 1)
    assert mean_gap > 0.8, f"two schedulers enqueued: {len(times)} jobs, mean gap {mean_gap}"
    # Every enqueued rollover ran (or expired unrun): only one did any work.
    ran = [Job.fetch(i.decode(), connection=redis_client)
           for i, _ in history if Job.exists(i.decode(), connection=redis_client)]
    assert ran, "no rollover job ran"
    outcomes = [j.return_value() for j in ran]
    assert sum(1 for o in outcomes if o and o.get("days")) == 1, outcomes
    closed = dt.date.today() - dt.timedelta(days=3)
    board = Leaderboard(redis_client, closed, "yahtzee", prefix=PREFIX)
    assert board.frozen()


def test_build_scheduler_registers_the_rollover(redis_client, job_env) -> None:

    scheduler = build_scheduler(
        redis_client, load_config(), rollover_module.rollover, interval=7
    )
    [job] = scheduler.get_jobs()
    assert (job.func_name, job.queue_name, job.interval) == (
        "workers.rollover.rollover", DAYS_QUEUE, 7
    )


def test_par_job_is_enqueued_once(redis_client, make_result, job_env, monkeypatch) -> None:
    monkeypatch.setenv("DAILY_PAR_JOBS", "on")
    board = fill(redis_client, make_result, 2)
    rollover_module.rollover(AFTER_CLOSE)
    job = Job.fetch("par-2026-11-29-yahtzee", connection=redis_client)
    assert (job.func_name, job.args) == ("workers.par.record_day_par", ("2026-11-29", "yahtzee"))
    queue = Queue(DAYS_QUEUE, connection=redis_client)
    queued = len(queue)
    # A run that died after enqueuing but before marking the step: the rerun's enqueue is
    # refused as a duplicate job id, and the step is marked done.
    redis_client.hdel(board.key("rolled"), "par")
    again = rollover_module.rollover(AFTER_CLOSE)
    assert again["days"] == [{"date": "2026-11-29", "ruleset": "yahtzee", "done": ["par"]}]
    assert len(queue) == queued
    assert rollover_module.rollover(AFTER_CLOSE) == {"days": []}


def test_par_waits_for_its_table(
    redis_client, make_result, job_env, monkeypatch, tmp_path, yahtzee_tables_dir
) -> None:
    """No table yet: the day is closed and archived, the par job is not enqueued (it
    would only fail); once the table is there, the next rollover enqueues it."""
    monkeypatch.setenv("DAILY_PAR_JOBS", "on")
    monkeypatch.setenv("DAILY_TABLES_DIR", str(tmp_path / "no-tables-yet"))
    fill(redis_client, make_result, 2)
    first = rollover_module.rollover(AFTER_CLOSE)
    done = {(d["date"], d["ruleset"]): d["done"] for d in first["days"]}
    assert done[("2026-11-29", "yahtzee")] == ["rechecked", "frozen", "stats", "archived",
                                               "review", "ceiling"]  # needs no table
    assert not Job.exists("par-2026-11-29-yahtzee", connection=redis_client)
    assert rollover_module.rollover(AFTER_CLOSE)["days"] == []  # still waiting

    monkeypatch.setenv("DAILY_TABLES_DIR", str(yahtzee_tables_dir))
    later = rollover_module.rollover(AFTER_CLOSE)
    done = ["par", "residual"]  # the residuals of the day wait for the table too
    assert {"date": "2026-11-29", "ruleset": "yahtzee", "done": done} in later["days"]
    assert Job.exists("par-2026-11-29-yahtzee", connection=redis_client)
    # Maxi Yatzy has no table in the test run: its par still waits.
    assert not Job.exists("par-2026-11-29-maxi-yatzy", connection=redis_client)


def test_the_seal_waits_for_the_results_key_then_seals_the_board(
    redis_client, make_result, job_env
) -> None:
    """Without a results key the day closes and the seal waits; once the key exists the
    next run seals the log, from the board itself when the game records are gone."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from daily.audit.signing import verify_head, verify_receipt
    from daily.service.audit.day_log import DayLog
    from daily.service.days.keyring import Keyring, init_keys

    board = fill(redis_client, make_result, 3)  # results on the board, no game records
    first = rollover_module.rollover(AFTER_CLOSE)
    done = {(d["date"], d["ruleset"]): d["done"] for d in first["days"]}
    assert "sealed" not in done[("2026-11-29", "yahtzee")]
    assert redis_client.hget(board.key("rolled"), "sealed") is None
    config = load_config()
    init_keys(config.keys_dir)
    later = rollover_module.rollover(AFTER_CLOSE)
    assert {"date": "2026-11-29", "ruleset": "yahtzee", "done": ["sealed"]} in later["days"]
    day_log = DayLog(redis_client, config, dt.date(2026, 11, 29), "yahtzee")
    head = day_log.latest()
    _, key = Keyring.load(config).results_signer()
    assert head is not None and head.size == 3 and verify_head(key.public_key(), head)
    assert not verify_head(Ed25519PrivateKey.generate().public_key(), head)
    leaves = list(day_log.leaves())
    assert sorted(leaf.code for leaf in leaves) == ["DD-000001", "DD-000002", "DD-000003"]
    assert {leaf.decision.status for leaf in leaves} == {"cleared"}
    assert all(verify_receipt(key.public_key(), leaf.accepted, leaf.receipt) for leaf in leaves
               if leaf.accepted is not None and leaf.receipt is not None)
    assert rollover_module.rollover(AFTER_CLOSE)["days"] == []  # sealed once


def test_rebuild_restores_a_lost_results_log_from_its_files(
    redis_client, make_result, job_env
) -> None:
    """Redis loses the sealed log: ``daily rebuild`` puts it back from the files beside
    the archive (the same leaves and heads), and refuses a truncated file."""
    from daily.service.audit.checkpoints import DayCheckpoints
    from daily.service.audit.day_log import DayLog
    from daily.service.days.keyring import init_keys

    config = load_config()
    init_keys(config.keys_dir)
    fill(redis_client, make_result, 4)
    rollover_module.rollover(AFTER_CLOSE)
    day_log = DayLog(redis_client, config, dt.date(2026, 11, 29), "yahtzee")
    heads, leaves = day_log.heads(), list(day_log.leaves())
    assert len(leaves) == 4 and heads[-1].size == 4
    sealed_checkpoint = DayCheckpoints(redis_client, config, day_log.day, "yahtzee").signed(4)
    code = leaves[0].code
    proof = day_log.proof(code)

    def lose_the_log() -> None:
        lost = redis_client.keys(day_log.key("*"))
        assert lost
        redis_client.delete(*lost)
        assert day_log.latest() is None

    def rebuild() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "daily", "rebuild", "2026-11-29", "yahtzee"],
            env=job_env, cwd=ROOT, capture_output=True, text=True, timeout=PROCESS_TIMEOUT,
        )

    lose_the_log()
    cli = rebuild()
    assert cli.returncode == 0, cli.stderr
    assert "restored the results log of 2026-11-29 yahtzee: 4 leaves" in cli.stdout
    assert day_log.heads() == heads and list(day_log.leaves()) == leaves
    assert day_log.proof(code) == proof
    checkpoint = DayCheckpoints(redis_client, config, day_log.day, "yahtzee").signed(4)
    assert checkpoint is not None and checkpoint == sealed_checkpoint

    log_path, _ = day_log.files()
    log_path.write_bytes(b"".join(log_path.read_bytes().splitlines(keepends=True)[:3]))
    lose_the_log()
    cli = rebuild()
    assert cli.returncode != 0
    errors = [line for line in cli.stderr.splitlines() if not line.startswith("rebuild ")]
    assert len(errors) == 1 and "do not hash to the latest head" in errors[0]
    assert "Traceback" not in cli.stderr and day_log.latest() is None

    log_path.write_bytes(b'{"not": "a leaf"}\n')
    cli = rebuild()
    errors = [line for line in cli.stderr.splitlines() if not line.startswith("rebuild ")]
    assert cli.returncode != 0 and len(errors) == 1 and "Traceback" not in cli.stderr
    assert f"{log_path}: log line 1:" in errors[0] and day_log.latest() is None

    # the same leaves, re-encoded with spaces: the lines are what is hashed, so refused
    log_path.write_bytes(b"".join(json.dumps(leaf.to_json()).encode() + b"\n"
                                  for leaf in leaves))
    cli = rebuild()
    errors = [line for line in cli.stderr.splitlines() if not line.startswith("rebuild ")]
    assert cli.returncode != 0 and len(errors) == 1 and "Traceback" not in cli.stderr
    assert f"{log_path}: log line 1: not canonical JSON: whitespace at byte" in errors[0]
    assert day_log.latest() is None


def test_a_cleared_decision_after_the_close_drops_the_reason_and_carries_the_service_clock(
    redis_client, make_result, job_env
) -> None:
    """Issue 35: a game held for ``scout_link`` and cleared after the close appends
    ``{"status": "cleared", "reason": null}`` (not the hold's reason), at the service
    clock's time (a demo clock's), not the machine's."""
    from daily.audit.leaf import Decision
    from daily.service.audit.day_log import DayLog
    from daily.service.clock import FixedClock
    from daily.service.days.keyring import Keyring, init_keys
    from daily.service.review.queue import ReviewQueue

    config = load_config()
    init_keys(config.keys_dir)
    fill(redis_client, make_result, 3)
    held = Result.from_json(make_result(9))
    service_time = dt.datetime(2026, 11, 30, 12, 7, 30, tzinfo=dt.UTC)  # not the machine's
    queue = ReviewQueue(redis_client, PREFIX, FixedClock(service_time))
    assert queue.hold(held, {"reason_code": "scout_link", "method": "scout"})
    rollover_module.rollover(AFTER_CLOSE)
    day_log = DayLog(redis_client, config, dt.date(2026, 11, 29), "yahtzee")
    [at_close] = [leaf for leaf in day_log.leaves() if leaf.code == held.code]
    assert at_close.decision == Decision("held", "scout_link")
    decided = dt.datetime(2026, 11, 30, 13, 0, 0, 250_000, tzinfo=dt.UTC)
    ReviewQueue(redis_client, PREFIX, FixedClock(decided)).decide(
        held.game_id, "cleared", archive_dir=config.archive_dir)
    sealed = day_log.seal(Keyring.load(config), decided + dt.timedelta(seconds=2))
    assert sealed["appended"] == 1
    appended = list(day_log.leaves())[-1]
    assert (appended.kind, appended.code) == ("decision", held.code)
    assert appended.decision == Decision("cleared", None)
    assert appended.decided_at == "2026-11-30T13:00:00.250Z"
