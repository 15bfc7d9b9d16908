"""Run a real ``daily serve`` in a subprocess and watch its log (for the ops tests)."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import redis

from daily.service.ops.embedded import free_port
from tests.polling import PROCESS_TIMEOUT, wait_until

ROOT = Path(__file__).resolve().parents[2]


def descendants(pid: int) -> set[int]:
    """Every live process below ``pid``."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        fields = text.rsplit(")", 1)[1].split()
        if fields[0] != "Z":
            parents[int(stat.parent.name)] = int(fields[1])
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {c for c, p in parents.items() if p in frontier} - found
        found |= frontier
    return found


def alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie is not alive)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@dataclass
class Serve:
    """A running ``daily serve`` and its log."""

    process: subprocess.Popen[bytes]
    log_path: Path
    port: int
    data_dir: Path

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_for(self, pattern: str, timeout: float = PROCESS_TIMEOUT,
                 start: int = 0) -> re.Match[str]:
        """Wait until the log (from offset ``start``) matches ``pattern``."""
        return wait_until(lambda: re.search(pattern, self.log()[start:]), timeout,
                          message=lambda: f"no {pattern!r} in:\n{self.log()}",
                          alive=lambda: self.process.poll() is None)

    def pid_of(self, name: str) -> int:
        """The pid of the current process of child ``name`` (from the log)."""
        pids = re.findall(rf"(?:re)?started {re.escape(name)} \(pid (\d+)", self.log())
        assert pids, self.log()
        return int(pids[-1])

    def redis(self) -> redis.Redis:
        """A client on the embedded Valkey (port from the log, password from the file)."""
        port = int(re.findall(r"embedded Valkey on 127\.0\.0\.1:(\d+)", self.log())[-1])
        password = (self.data_dir / "redis" / "password").read_text().strip()
        return redis.Redis(port=port, password=password)

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 40.0) -> int:
        """Send ``sig``; returns the exit status once every descendant is gone."""
        children = descendants(self.process.pid)
        self.process.send_signal(sig)
        status = self.process.wait(timeout)
        wait_until(lambda: not any(alive(c) for c in children),
                   message=lambda: f"still alive: {[c for c in children if alive(c)]}")
        return status

    def kill_everything(self) -> None:
        """Cleanup after a failed test: SIGKILL the supervisor and all it started."""
        for child in descendants(self.process.pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(child, signal.SIGKILL)
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def serve_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """The environment of a test ``daily serve``: embedded Valkey, no table builds, no
    warm-up of the engine in the web workers."""
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env.update(
        DAILY_DATA_DIR=str(tmp_path / "data"), DAILY_KEY_PREFIX="ts:", PYTHONPATH=str(ROOT),
        DAILY_PAR_JOBS="off", DAILY_TABLES_AT_START="none", DAILY_TABLES_IN_BACKGROUND="none",
        DAILY_WARM_AT_START="off",
    )
    env.update(extra)
    return env


def start_serve(tmp_path: Path, env: dict[str, str], *args: str) -> Serve:
    """Start ``daily serve --port <free> ARGS`` and wait for its "ready" line."""
    port = free_port()
    log_path = tmp_path / "serve.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "daily", "serve", "--port", str(port), *args],
            env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
        )
    serve = Serve(process, log_path, port, Path(env["DAILY_DATA_DIR"]))
    try:
        serve.wait_for("ready on")
    except AssertionError:
        serve.kill_everything()
        raise
    return serve


def open_day_now() -> tuple[str, float]:
    """A date open for ranked play at the real current time (the one that stays open
    longest) and the current Unix time: a result a live ``daily serve`` accepts."""
    import datetime as dt

    from daily import calendar

    now = dt.datetime.now(dt.UTC)
    return calendar.open_dates(now)[-1].isoformat(), now.timestamp()
