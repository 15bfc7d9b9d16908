"""Fixtures of the ops tests: a Valkey server of the test's own, with AOF on."""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis

from daily.service.ops.embedded import free_port, valkey_command
from tests.polling import wait_until


class OwnValkey:
    """A Valkey server started with the embedded mode's command line (AOF always)."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(
            valkey_command(self.data_dir, self.port), stdout=subprocess.DEVNULL
        )
        client = redis.Redis.from_url(self.url, socket_connect_timeout=0.2)
        process = self.process
        wait_until(client.ping, message="valkey did not start",
                   ignore=(redis.ConnectionError,), alive=lambda: process.poll() is None)
        client.close()

    def kill9(self) -> None:
        assert self.process is not None
        self.process.kill()
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)


@pytest.fixture
def own_valkey(tmp_path: Path) -> Iterator[Callable[[], OwnValkey]]:
    """Start a Valkey server of this test's own, in a temporary directory."""
    servers: list[OwnValkey] = []

    def start() -> OwnValkey:
        server = OwnValkey(tmp_path / "valkey")
        server.start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()
