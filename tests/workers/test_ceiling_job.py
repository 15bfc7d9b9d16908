"""The ceiling jobs (prepared ahead, and public at the reveal) in real RQ worker
processes, on a real Redis; the rollover enqueues the preparation."""

from __future__ import annotations

import datetime as dt
import json
import logging
import os
import subprocess
import sys
import zlib
from pathlib import Path

import numpy as np
import pytest
import redis
from rq import Queue
from rq.job import Job

from daily.errors import StateError
from daily.fairplay.ceiling import ceiling_of_seed
from daily.rules import get_ruleset
from daily.service.config import ConfigError, load_config
from daily.service.days.keyring import Keyring, init_keys
from daily.service.review.gates import day_ceiling
from workers.ceilings import prepare_day_ceiling, record_day_ceiling
from workers.rollover import rollover

ROOT = Path(__file__).resolve().parents[2]
PREFIX = "tceil:"
REVEALED = "2026-11-20"

pytestmark = pytest.mark.redis


@pytest.fixture
def env(redis_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    values = {"REDIS_URL": redis_url, "DAILY_KEY_PREFIX": PREFIX,
              "DAILY_DATA_DIR": str(tmp_path / "data")}
    for k, v in values.items():
        monkeypatch.setenv(k, v)
    init_keys(load_config(values).keys_dir)
    return values


@pytest.mark.spawns
def test_ceiling_job_in_a_worker(env: dict[str, str], redis_client: redis.Redis) -> None:
    Queue("days", connection=redis_client).enqueue(
        "workers.ceilings.record_day_ceiling", REVEALED, "yahtzee",
        job_id=f"ceiling-{REVEALED}-yahtzee",
    )
    subprocess.run(
        [sys.executable, "-m", "rq.cli", "worker", "--burst", "--url", env["REDIS_URL"],
         "--quiet", "days"],
        env={**os.environ, **env, "PYTHONPATH": str(ROOT)}, cwd=ROOT, check=True, timeout=300,
    )
    raw = redis_client.get(f"{PREFIX}ceiling:{REVEALED}:yahtzee")
    assert raw is not None, "the worker stored no ceiling"
    seed = Keyring.load(load_config(env)).day_seed("yahtzee", REVEALED)
    assert json.loads(raw)["ceiling"] == ceiling_of_seed(get_ruleset("yahtzee"), seed).value
    # idempotent: a second run returns what is stored
    assert record_day_ceiling(REVEALED, "yahtzee") == json.loads(raw)


def test_an_open_day_is_refused(env: dict[str, str], redis_client: redis.Redis) -> None:
    with pytest.raises(StateError, match="not revealed"):
        record_day_ceiling("2026-11-29", "yahtzee", now="2026-11-29T11:00:00+00:00")
    assert redis_client.get(f"{PREFIX}ceiling:2026-11-29:yahtzee") is None


OPEN = "2026-11-29"


@pytest.mark.spawns
def test_prepare_job_in_a_worker_keeps_the_ceiling_secret(
    env: dict[str, str], redis_client: redis.Redis
) -> None:
    """The job runs while the day is open, stores the value only at the secret key,
    and the job's result (kept by RQ) carries no value; the reveal reuses it."""
    job = Queue("days", connection=redis_client).enqueue(
        "workers.ceilings.prepare_day_ceiling", OPEN, "yahtzee",
        job_id=f"fairplay-ceiling-{OPEN}-yahtzee",
    )
    subprocess.run(
        [sys.executable, "-m", "rq.cli", "worker", "--burst", "--url", env["REDIS_URL"],
         "days"],
        env={**os.environ, **env, "PYTHONPATH": str(ROOT)}, cwd=ROOT, check=True, timeout=300,
    )
    seed = Keyring.load(load_config(env)).day_seed("yahtzee", OPEN)
    value = ceiling_of_seed(get_ruleset("yahtzee"), seed).value
    raw = redis_client.get(f"{PREFIX}fairplay:ceiling:{OPEN}:yahtzee")
    assert raw is not None and json.loads(raw)["ceiling"] == value
    assert 0 < redis_client.ttl(f"{PREFIX}fairplay:ceiling:{OPEN}:yahtzee") <= 4 * 86400
    assert redis_client.get(f"{PREFIX}ceiling:{OPEN}:yahtzee") is None  # nothing public
    job.refresh()
    assert set(job.return_value()) == {"seconds"}
    # The foresight test's table (Yahtzee is small) is kept too, secret as well.
    hindsight = f"{PREFIX}fairplay:hindsight:{OPEN}:yahtzee"
    assert 0 < redis_client.ttl(hindsight) <= 4 * 86400
    # idempotent: nothing is computed again
    assert prepare_day_ceiling(OPEN, "yahtzee") == {"seconds": 0.0}


def test_the_consumer_uses_the_prepared_table(
    env: dict[str, str], redis_client: redis.Redis, caplog: pytest.LogCaptureFixture
) -> None:
    """What the job kept is what a consumer's foresight test uses, without solving."""
    prepare_day_ceiling(OPEN, "yahtzee")
    rules = get_ruleset("yahtzee")
    seed = Keyring.load(load_config(env)).day_seed("yahtzee", OPEN)
    expected = ceiling_of_seed(rules, seed)
    caplog.set_level(logging.INFO, logger="daily.service.review.gates")
    found = day_ceiling(redis_client, load_config(env), rules, dt.date(2026, 11, 29))
    assert "computing" not in caplog.text
    assert np.array_equal(found.values, expected.values)
    assert np.array_equal(found.slots, expected.slots) and found.value == expected.value
    # A damaged table is ignored (logged), and the consumer solves the day itself.
    redis_client.set(f"{PREFIX}fairplay:hindsight:2026-11-28:yahtzee",
                     zlib.compress(b"\0\0" * 10))
    again = day_ceiling(redis_client, load_config(env), rules, dt.date(2026, 11, 28))
    assert "has 10 values" in caplog.text and "computing" in caplog.text
    assert again.value == ceiling_of_seed(
        rules, Keyring.load(load_config(env)).day_seed("yahtzee", "2026-11-28")).value


def test_the_reveal_reuses_the_prepared_ceiling(
    env: dict[str, str], redis_client: redis.Redis
) -> None:
    """Computed once: the public ceiling at the reveal is the prepared one (a marker
    value here, which no computation would give)."""
    redis_client.set(f"{PREFIX}fairplay:ceiling:{REVEALED}:yahtzee",
                     json.dumps({"ceiling": 7, "seconds": 1.5}))
    assert record_day_ceiling(REVEALED, "yahtzee") == {"ceiling": 7, "seconds": 1.5}
    assert json.loads(redis_client.get(f"{PREFIX}ceiling:{REVEALED}:yahtzee"))["ceiling"] == 7


def test_rollover_prepares_the_open_and_next_days(
    env: dict[str, str], redis_client: redis.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DAILY_PAR_JOBS", "on")
    monkeypatch.setenv("DAILY_RULESETS", "yahtzee,maxi-yatzy")
    monkeypatch.setenv("DAILY_FAIRPLAY_RULESETS", "yahtzee,maxi-yatzy")
    now = "2026-11-29T23:00:00+00:00"  # the 29th and 30th open, the 1st opens at 10:00
    first = rollover(now)
    expected = {f"fairplay-ceiling-{d}-{r}" for d in ("2026-11-29", "2026-11-30", "2026-12-01")
                for r in ("yahtzee", "maxi-yatzy")}
    assert set(first["prepared"]) == expected
    for job_id in expected:
        job = Job.fetch(job_id, connection=redis_client)
        assert job.func_name == "workers.ceilings.prepare_day_ceiling"
    assert "prepared" not in rollover(now)  # queued: not enqueued twice
    # Once stored, a day is not prepared again, even after its job is gone.
    redis_client.set(f"{PREFIX}fairplay:ceiling:2026-11-29:yahtzee", "{}")
    Job.fetch("fairplay-ceiling-2026-11-29-yahtzee", connection=redis_client).delete()
    assert "prepared" not in rollover(now)
    Job.fetch("fairplay-ceiling-2026-11-29-maxi-yatzy", connection=redis_client).delete()
    assert rollover(now)["prepared"] == ["fairplay-ceiling-2026-11-29-maxi-yatzy"]
    Job.fetch("fairplay-ceiling-2026-11-29-maxi-yatzy", connection=redis_client).delete()
    monkeypatch.setenv("DAILY_FAIRPLAY_RULESETS", "yahtzee")
    with pytest.raises(ConfigError, match="ranks maxi-yatzy, which no fair-play check"):
        rollover(now)  # a ranked ruleset that is not checked: refused, not skipped
    # Triple Yahtzee is checked without a ceiling: nothing to prepare for it.
    monkeypatch.setenv("DAILY_FAIRPLAY_RULESETS", "yahtzee,maxi-yatzy,triple-yahtzee")
    monkeypatch.setenv("DAILY_RULESETS", "yahtzee,maxi-yatzy,sun:triple-yahtzee")
    prepared = rollover("2026-12-12T23:00:00+00:00").get("prepared", [])
    assert prepared and not [j for j in prepared if "triple" in j]


def test_the_gate_holds_by_the_servers_total_and_refuses_a_log_of_another_day(
    env: dict[str, str], redis_client: redis.Redis
) -> None:
    """Ceiling-only (Maxi Yatzy without its table): the prepared value, one GET, against the
    total the server computed; a log of another day cannot be checked and is held."""
    from daily.movelog import MoveLog, Turn
    from daily.service.results.result import Result
    from daily.service.review.gates import review_gates, store_prepared
    from daily.service.review.queue import ReviewQueue

    config = load_config(env)
    rules = get_ruleset("maxi-yatzy")
    day = dt.date(2026, 11, 27)  # a day no other test of this process checks

    def result(n: int, total: int, log_day: dt.date = day) -> Result:
        turns = tuple(Turn((), box) for box in rules.box_ids)
        log = MoveLog("maxi-yatzy", turns, (), None, log_day).to_text()
        return Result(f"g_{n}", f"p_{n}", f"P{n}", day, "maxi-yatzy", total, 1.0,
                      f"DD-{n}", log)

    store_prepared(redis_client, PREFIX, day, "maxi-yatzy", 480, 1.0)
    verdicts = review_gates(redis_client, config, [
        result(1, 479), result(2, 480), result(3, 480, dt.date(2026, 11, 26)),
    ])
    assert verdicts == [None, "pending", "held"]  # on its way into the top: pending review
    queue = ReviewQueue(redis_client, PREFIX)
    assert queue.get("g_2").verdict["method"] == "ceiling-only/1"
    assert queue.get("g_3").verdict["method"] == "unchecked"
    assert "2026-11-26" in queue.get("g_3").verdict["reason"]
    assert queue.signals("2026-11-27", "maxi-yatzy")["checked"] == 2


EVERY = ("yahtzee", "yatzy", "yacht", "generala", "maxi-yatzy", "triple-yahtzee")


@pytest.mark.slow
def test_the_ceiling_jobs_handle_every_ruleset_without_a_traceback(
    env: dict[str, str], redis_client: redis.Redis
) -> None:
    """What the rollover enqueues for a day set of each ruleset, run by a real worker:
    the public ceiling at the reveal and the secret one ahead. Generala's is exact
    (served rolls included); Triple Yahtzee has none, and says so."""
    queue = Queue("days", connection=redis_client)
    for name in EVERY:
        queue.enqueue("workers.ceilings.record_day_ceiling", REVEALED, name,
                      job_id=f"ceiling-{REVEALED}-{name}")
        queue.enqueue("workers.ceilings.prepare_day_ceiling", OPEN, name,
                      job_id=f"fairplay-ceiling-{OPEN}-{name}")
    done = subprocess.run(
        [sys.executable, "-m", "rq.cli", "worker", "--burst", "--url", env["REDIS_URL"],
         "days"],
        env={**os.environ, **env, "PYTHONPATH": str(ROOT)}, cwd=ROOT, timeout=900,
        capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stdout + done.stderr
    assert "not supported" not in done.stdout + done.stderr
    keyring = Keyring.load(load_config(env))
    for name in EVERY:
        public = json.loads(redis_client.get(f"{PREFIX}ceiling:{REVEALED}:{name}") or "null")
        assert public is not None, name
        if name == "triple-yahtzee":
            assert public == {"ceiling": None, "seconds": 0.0}
            assert redis_client.get(f"{PREFIX}fairplay:ceiling:{OPEN}:{name}") is None
            continue
        seed = keyring.day_seed(name, REVEALED)
        assert public["ceiling"] == ceiling_of_seed(get_ruleset(name), seed).value, name
        assert redis_client.get(f"{PREFIX}fairplay:ceiling:{OPEN}:{name}") is not None, name
    assert Job.fetch(f"fairplay-ceiling-{OPEN}-triple-yahtzee",
                     connection=redis_client).return_value() == {"seconds": 0.0}
