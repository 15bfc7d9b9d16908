"""The test server's description, shared by the fixtures and the tests."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

MASTER_HEX = "5eed" * 16  # a known master secret: the tests recompute day seeds from it
PREFIX = "tweb:"


@dataclass
class LiveServer:
    """A running app: its base URL, configuration environment and Redis URL."""

    url: str
    env: dict[str, str]
    app: Any

    @property
    def master(self) -> bytes:
        return bytes.fromhex(MASTER_HEX)


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


