"""A real deployment for HTTP tests: gunicorn with two workers (``-c
python:daily.service.webserver``, as ``daily serve`` runs it) on a Valkey server of
its own, spoken to over TCP."""

from __future__ import annotations

import http.client
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

from daily.service.config import load_config
from daily.service.embedded import free_port
from daily.service.keys import init_keys
from tests.ops.conftest import OwnValkey

ROOT = Path(__file__).resolve().parents[2]


class Server:
    """``gunicorn -c python:daily.service.webserver`` with two workers on its own Valkey."""

    def __init__(self, tmp: Path, **env: str) -> None:
        self.valkey = OwnValkey(tmp / "valkey")
        self.valkey.start()
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = dict(
            os.environ, REDIS_URL=self.valkey.url, DAILY_DATA_DIR=str(tmp / "data"),
            DAILY_KEY_PREFIX="srv:", PYTHONPATH=str(ROOT), **env,
        )
        self.config = load_config(self.env)
        init_keys(self.config.keys_dir)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "python:daily.service.webserver",
             "--workers", "2", "--worker-class", "gthread", "--threads", "2",
             "--bind", f"127.0.0.1:{self.port}", "daily.service.app:create_app()"],
            env=self.env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                if self.request("GET", "/api/v1/health")[0] == 200:
                    break
            except OSError:
                pass
            assert self.process.poll() is None, "gunicorn exited"
            assert time.monotonic() < deadline, "gunicorn did not start"
            time.sleep(0.1)

    def request(self, method: str, path: str, body: str | bytes | None = None,
                headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            all_headers = {"Content-Type": "application/json", **(headers or {})}
            conn.request(method, path, body=body, headers=all_headers)
            response = conn.getresponse()
            return response.status, dict(response.getheaders()), response.read()
        finally:
            conn.close()

    def raw(self, data: bytes) -> tuple[int, dict[str, str], bytes]:
        """Send bytes as they are; parse the answer."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=10) as sock:
            sock.sendall(data)
            received = b""
            while chunk := sock.recv(65536):
                received += chunk
        head, _, body = received.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        headers = dict(line.split(": ", 1) for line in lines[1:])
        return int(lines[0].split()[1]), headers, body

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(20)
        self.valkey.stop()
