"""A live test server: real gunicorn, several worker processes, the test's Redis.

:func:`start_gunicorn` runs ``gunicorn -c tests/service/gunicorn_test.conf.py`` (the
deployment's ``deploy/gunicorn.conf.py`` plus test hooks) serving
``tests.service.live_app:create()`` on a free port. By default it has two gthread
workers that each take one connection at a time and, after each response, rest until
the other worker has answered (at most ``DAILY_TEST_HANDOFF`` seconds, see
``gunicorn_test.conf.py``), so consecutive requests of one client land on alternate
workers; ``production=True`` keeps the deployment's threads and
connection limits instead (for concurrency tests). Every response carries
``X-Worker-Pid``.

:class:`HttpClient` speaks to it with the same small interface as Flask's test client
(``open``, ``get``, ``post``, ``patch``, ``delete``; responses with ``status_code``,
``get_json()``, ``get_data()``, ``data``, ``headers``, ``mimetype``, ``is_json``),
so the API tests read the same whichever way they run.
"""

from __future__ import annotations

import datetime as dt
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import requests

from daily.service.ops.embedded import free_port
from tests.polling import wait_until

ROOT = Path(__file__).resolve().parents[2]
CONFIG = Path(__file__).with_name("gunicorn_test.conf.py")


class FileClockControl:
    """Moves the time of every worker process (the file ``live_app.FileClock`` reads);
    ``now=None`` (or :meth:`real`) lets it follow the real time."""

    def __init__(self, path: Path, now: dt.datetime | None) -> None:
        self.path = path
        if now is None:
            self.real()
        else:
            self.set(now)

    def _write(self, text: str) -> None:
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(text)
        tmp.replace(self.path)

    def set(self, now: dt.datetime) -> None:
        self._write(now.isoformat())
        self.now: dt.datetime | None = now

    def real(self) -> None:
        """Back to the real time."""
        self._write("now")
        self.now = None

    def advance(self, **delta: float) -> None:
        self.set(self() + dt.timedelta(**delta))

    def __call__(self) -> dt.datetime:
        return self.now if self.now is not None else dt.datetime.now(dt.UTC)


class HttpResponse:
    """A response with the Flask test client's interface."""

    def __init__(self, raw: requests.Response) -> None:
        self.raw = raw
        self.status_code = raw.status_code
        self.data = raw.content
        self.headers = raw.headers

    def get_json(self) -> Any:
        return self.raw.json()

    def get_data(self, as_text: bool = False) -> Any:
        return self.raw.text if as_text else self.data

    @property
    def mimetype(self) -> str:
        return self.headers.get("Content-Type", "").partition(";")[0].strip()

    @property
    def is_json(self) -> bool:
        return self.mimetype == "application/json"

    @property
    def worker(self) -> int:
        """The pid of the worker process that answered."""
        return int(self.raw.headers["X-Worker-Pid"])


@dataclass
class HttpClient:
    """Requests to the live server, one connection each, noting the worker of each."""

    url: str
    workers: list[int] = field(default_factory=list)

    def open(
        self, path: str, method: str = "GET", json: Any = None,
        headers: dict[str, str] | None = None, data: Any = None,
        content_type: str | None = None,
    ) -> HttpResponse:
        headers = {"Connection": "close", **(headers or {})}
        if content_type is not None:
            headers["Content-Type"] = content_type
        kwargs: dict[str, Any] = {"headers": headers, "timeout": 60}
        if json is not None:
            kwargs["json"] = json
        if data is not None:
            kwargs["data"] = data
        response = HttpResponse(requests.request(method, self.url + path, **kwargs))
        self.workers.append(response.worker)
        return response

    def get(self, path: str, **kw: Any) -> HttpResponse:
        return self.open(path, "GET", **kw)

    def post(self, path: str, **kw: Any) -> HttpResponse:
        return self.open(path, "POST", **kw)

    def patch(self, path: str, **kw: Any) -> HttpResponse:
        return self.open(path, "PATCH", **kw)

    def delete(self, path: str, **kw: Any) -> HttpResponse:
        return self.open(path, "DELETE", **kw)


@dataclass
class LiveServer:
    """A running gunicorn: its URL and master process."""

    url: str
    process: subprocess.Popen[bytes]
    log: Path

    def client(self) -> HttpClient:
        return HttpClient(self.url)

    def raw(self, data: bytes) -> tuple[int, dict[str, str], bytes]:
        """Send bytes as they are (not always HTTP); the status, headers and body."""
        host, _, port = self.url.removeprefix("http://").partition(":")
        with socket.create_connection((host, int(port)), timeout=10) as sock:
            sock.sendall(data)
            received = b""
            while chunk := sock.recv(65536):
                received += chunk
        head, _, body = received.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        headers = dict(line.split(": ", 1) for line in lines[1:])
        return int(lines[0].split()[1]), headers, body


@contextmanager
def start_gunicorn(
    env: dict[str, str], tmp: Path, *, workers: int = 2, production: bool = False,
    port: int | None = None,
) -> Iterator[LiveServer]:
    """Run gunicorn with ``workers`` worker processes (on ``port``, default a free one)
    until the block ends."""
    port = port or free_port()
    log = tmp / f"gunicorn-{port}.log"
    full = {
        **os.environ, **env, "PYTHONPATH": str(ROOT),
        "GUNICORN_BIND": f"127.0.0.1:{port}", "GUNICORN_WORKERS": str(workers),
        # Half a second of handoff: on a loaded machine (four test processes on two cores)
        # a client's next request can come more than 50 ms after the last answer.
        "DAILY_TEST_HANDOFF": "0" if production else env.get("DAILY_TEST_HANDOFF", "0.5"),
        # No warm-up of the strategy engine in every worker of every test server (CPU the
        # suite cannot spare, and it would shift the handoff); tests/ops/test_serve.py
        # and bench/first_hint.py run with it.
        "DAILY_WARM_AT_START": env.get("DAILY_WARM_AT_START", "off"),
    }
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", str(CONFIG),
             "tests.service.live_app:create()"],
            cwd=ROOT, env=full, stdout=out, stderr=subprocess.STDOUT,
        )
    server = LiveServer(f"http://127.0.0.1:{port}", process, log)
    try:
        _wait_ready(server, workers)
        yield server
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


def _wait_ready(server: LiveServer, workers: int) -> None:
    """Wait until the health check answers (and every worker has booted)."""

    def ready() -> bool:
        requests.get(server.url + "/api/v1/health", timeout=2)
        return server.log.read_text().count("Booting worker") >= workers

    wait_until(ready, message=lambda: f"gunicorn did not start: {server.log.read_text()[-3000:]}",
               ignore=(requests.ConnectionError, requests.Timeout),
               alive=lambda: server.process.poll() is None)
