"""The ceiling job in a real RQ worker process, on a real Redis."""

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
from daily.fairplay.ceiling import ceiling_of_seed
from daily.rules import get_ruleset
from daily.service.config import load_config
from daily.service.keys import Keyring, init_keys
from workers.ceiling import record_day_ceiling

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


def test_ceiling_job_in_a_worker(env: dict[str, str], redis_client: redis.Redis) -> None:
    Queue("days", connection=redis_client).enqueue(
        "workers.ceiling.record_day_ceiling", REVEALED, "yahtzee",
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
