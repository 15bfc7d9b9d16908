"""The par job in a real RQ worker process, on a real Redis."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import redis
from rq import Queue

from daily.errors import StateError
from daily.service.config import load_config
from daily.service.days.keyring import Keyring, init_keys
from daily.strategy.bots import play_bots
from daily.strategy.solver import StrategyTable
from daily.strategy.spec import StrategyError
from daily.strategy.tables.fileformat import save_table
from tests.polling import PROCESS_TIMEOUT
from workers.par import record_day_par

ROOT = Path(__file__).resolve().parents[2]
PREFIX = "tpar:"
REVEALED = "2026-11-20"


@pytest.fixture
def env(redis_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    values = {"REDIS_URL": redis_url, "DAILY_KEY_PREFIX": PREFIX,
              "DAILY_DATA_DIR": str(tmp_path / "data")}
    for k, v in values.items():
        monkeypatch.setenv(k, v)
    init_keys(load_config(values).keys_dir)
    return values


@pytest.mark.redis
@pytest.mark.spawns
def test_par_job_in_a_worker(
    env: dict[str, str], yahtzee_table: StrategyTable, redis_client: redis.Redis
) -> None:
    config = load_config(env)
    save_table(yahtzee_table, config.tables_dir)
    Queue("days", connection=redis_client).enqueue(
        "workers.par.record_day_par", REVEALED, "yahtzee", job_id=f"par-{REVEALED}-yahtzee"
    )
    subprocess.run(
        [sys.executable, "-m", "rq.cli", "worker", "--burst", "--url", env["REDIS_URL"],
         "--quiet", "days"],
        env={**os.environ, **env, "PYTHONPATH": str(ROOT)}, cwd=ROOT, check=True,
        timeout=PROCESS_TIMEOUT,
    )
    raw = redis_client.get(f"{PREFIX}par:{REVEALED}:yahtzee")
    assert raw is not None, "the worker stored no par"
    par = json.loads(raw)
    seed = Keyring.load(config).day_seed("yahtzee", REVEALED)
    assert par == play_bots(yahtzee_table, seed)
    assert set(par) == {"easy", "medium", "hard"} and all(isinstance(v, int) for v in par.values())
    # idempotent: a second run returns what is stored
    assert record_day_par(REVEALED, "yahtzee") == par


@pytest.mark.redis
def test_par_refuses_an_open_day_and_a_missing_table(
    env: dict[str, str], yahtzee_table: StrategyTable, redis_client: redis.Redis
) -> None:
    with pytest.raises(StrategyError, match="daily strategy build yahtzee"):
        record_day_par(REVEALED, "yahtzee")
    save_table(yahtzee_table, load_config(env).tables_dir)
    with pytest.raises(StateError, match="not revealed"):
        record_day_par("2026-11-29", "yahtzee", now="2026-11-29T12:00:00+00:00")
    assert redis_client.keys(f"{PREFIX}par:*") == []
