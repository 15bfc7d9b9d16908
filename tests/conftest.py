"""Fixtures shared by every test area.

``redis_url`` gives each test a real Redis database of its own: the server on
127.0.0.1:6379 (or ``DAILY_TEST_REDIS_URL``), one database per xdist worker, flushed
before and after the test.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
import redis

BASE_URL = os.environ.get("DAILY_TEST_REDIS_URL", "redis://127.0.0.1:6379")


def _db_for_worker(worker_id: str) -> int:
    # gw0 -> 1, gw1 -> 2, ...; "master" (no xdist) -> 1. DB 0 is left alone.
    return 1 + (int(worker_id[2:]) if worker_id.startswith("gw") else 0)


@pytest.fixture
def redis_url(worker_id: str) -> Iterator[str]:
    """URL of a clean Redis database reserved for this test's xdist worker."""
    url = f"{BASE_URL}/{_db_for_worker(worker_id)}"
    client = redis.Redis.from_url(url)
    try:
        client.ping()
    except redis.ConnectionError:
        pytest.fail(f"no Redis answers at {BASE_URL}; .ci/run starts one")
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
