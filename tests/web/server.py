"""The test server's description, shared by the fixtures and the tests."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import redis

from tests.service.live import FileClockControl

MASTER_HEX = "5eed" * 16  # a known master secret: the tests recompute day seeds from it
PREFIX = "tweb:"


@dataclass
class LiveServer:
    """A running live server (real gunicorn, two workers taking consecutive requests in
    turn): its base URL, configuration environment and clock. Tests change what the
    server sees only from outside: its Redis (keys from :mod:`daily.service.keymap`),
    its data directory and the file clock."""

    url: str
    env: dict[str, str]
    clock: FileClockControl

    @property
    def master(self) -> bytes:
        return bytes.fromhex(MASTER_HEX)

    @property
    def prefix(self) -> str:
        return self.env["DAILY_KEY_PREFIX"]

    @property
    def data_dir(self) -> Path:
        return Path(self.env["DAILY_DATA_DIR"])

    @cached_property
    def redis(self) -> redis.Redis:
        """A connection to the server's Redis database."""
        return redis.Redis.from_url(self.env["REDIS_URL"])


def server_env(redis_url: str, data_dir: Path) -> dict[str, str]:
    """The service configuration of a test server (and of its workers)."""
    return {
        "REDIS_URL": redis_url,
        "DAILY_KEY_PREFIX": PREFIX,
        "DAILY_DATA_DIR": str(data_dir),
        "DAILY_MASTER_SECRET": MASTER_HEX,
        "DAILY_RATE_LIMIT": "10000/minute",
        "DAILY_RATE_LIMIT_READS": "10000/minute",
        "DAILY_RATE_LIMIT_IP": "100000/minute",
        # many new players from 127.0.0.1; test_fairplay_browser turns the proof-of-work on
        "DAILY_PLAYER_LIMIT": "off",
        "DAILY_PLAYER_NET_LIMIT": "off",
        "DAILY_PLAYER_POW_BITS": "0",
    }
