"""Fixtures of the worker tests: result records and worker subprocesses."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from daily import calendar
from tests.polling import PROCESS_TIMEOUT

ROOT = Path(__file__).resolve().parents[2]
DATE = "2026-11-29"
OPENS = calendar.opens_at(dt.date(2026, 11, 29)).timestamp()
PREFIX = "tw:"


@pytest.fixture
def make_result() -> Callable[..., dict[str, Any]]:
    """A factory of valid result records; keyword arguments override fields."""

    def make(n: int = 1, **fields: Any) -> dict[str, Any]:
        result: dict[str, Any] = {
            "game_id": f"g_{n:06d}",
            "player_id": f"p_{n:06d}",
            "player_name": f"Player {n}",
            "date": DATE,
            "ruleset": "yahtzee",
            "total": 150 + n % 200,
            "finished_at": OPENS + 60 + n,
            "code": f"DD-{n:06d}",
            "log": {"format": "daily-log/1", "ruleset": "yahtzee", "day": DATE, "turns": []},
        }
        result.update(fields)
        return result

    return make


@pytest.fixture
def worker_env(redis_url: str, tmp_path: Path) -> dict[str, str]:
    """Environment of a worker subprocess on the test's Redis database."""
    env = dict(os.environ)
    env.update(
        REDIS_URL=redis_url,
        DAILY_KEY_PREFIX=PREFIX,
        DAILY_DATA_DIR=str(tmp_path / "data"),
        PYTHONPATH=str(ROOT),
    )
    env.pop("DAILY_TEST_PAUSE_DIR", None)
    return env


@pytest.fixture
def run_burst_worker(worker_env: dict[str, str]) -> Iterator[Callable[..., None]]:
    """Run a real ``rq worker --burst`` on the given queues until they are empty."""

    def run(*queues: str, env: dict[str, str] | None = None) -> None:
        env = env or worker_env
        subprocess.run(
            [sys.executable, "-m", "rq.cli", "worker", "--burst", "--url", env["REDIS_URL"],
             "--quiet", *queues],
            env=env, cwd=ROOT, check=True, timeout=PROCESS_TIMEOUT,
        )

    yield run
