"""Fixtures shared by every test area.

``redis_url`` gives each test a real Redis database of its own on the server at
127.0.0.1:6379 (or ``DAILY_TEST_REDIS_URL``). Each test process (an xdist worker, or a
plain pytest run) leases one database number from 1 to 15 with a lock key in database 0,
so several test runs on one machine never flush each other's data; the database is
flushed before and after every test, and the lease is dropped at the end of the run.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

BASE_URL = os.environ.get("DAILY_TEST_REDIS_URL", "redis://127.0.0.1:6379")
LEASE_SECONDS = 3 * 3600


@pytest.fixture(scope="session")
def redis_db() -> Iterator[int]:
    """A Redis database number leased to this test process for the whole run."""
    admin = redis.Redis.from_url(f"{BASE_URL}/0")
    try:
        admin.ping()
    except redis.ConnectionError:
        pytest.fail(f"no Redis answers at {BASE_URL}; .ci/run starts one")
    owner = f"{os.getpid()}"
    for db in range(1, 16):
        lock = f"daily-test-lease:{db}"
        if admin.set(lock, owner, nx=True, ex=LEASE_SECONDS):
            try:
                yield db
            finally:
                if admin.get(lock) == owner.encode():
                    admin.delete(lock)
                admin.close()
            return
    pytest.fail("every Redis test database 1-15 is leased; stale leases expire in 3 hours")


@pytest.fixture
def redis_url(redis_db: int) -> Iterator[str]:
    """URL of a clean Redis database reserved for this test process."""
    url = f"{BASE_URL}/{redis_db}"
    client = redis.Redis.from_url(url)
    client.flushdb()
    yield url
    client.flushdb()
    client.close()


@pytest.fixture
def redis_client(redis_url: str) -> Iterator[redis.Redis]:
    """A client on the test's clean database."""
    client = redis.Redis.from_url(redis_url)
    yield client
    client.close()


@pytest.fixture(scope="session")
def yahtzee_tables_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the default Yahtzee strategy table, built once per test run.

    It is the folder ``tests/strategy`` shares its tables in (xdist workers of one run
    build it once, under a file lock).
    """
    import fcntl

    from daily.rules import get_ruleset
    from daily.strategy.buildstatus import table_ready
    from daily.strategy.solver import solve
    from daily.strategy.tablefile import save_table

    base = Path(tmp_path_factory.getbasetemp())
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent
    folder = base / "strategy-tables"
    folder.mkdir(exist_ok=True)
    rules = get_ruleset("yahtzee")
    with open(folder / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not table_ready(rules, folder):
            save_table(solve(rules), folder, dtype="float64")
    return folder
