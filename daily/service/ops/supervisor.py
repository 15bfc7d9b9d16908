"""Keep a set of child processes running: the process supervision of ``daily serve``.

Each child runs in its own process group. A child that dies is logged with its exit
status and started again after a delay that doubles with each quick death
(:class:`Backoff`: 0.5 s, 1 s, 2 s ... up to 30 s; back to 0.5 s once the child has
stayed up for a minute). When a child dies, whatever is left of its process group
(gunicorn's workers after a ``kill -9`` of their master) is killed first, so that the
restarted child finds its port free. A one-shot child (``ChildSpec.once``, such as a
strategy-table build) is not started again once it has exited with status 0, and a
child with ``max_restarts`` is given up after that many restarts.

On Linux the supervisor makes itself the "child subreaper" of its descendants
(``PR_SET_CHILD_SUBREAPER``): a grandchild orphaned by a killed child (an RQ work horse
finishing its job) is reparented to the supervisor, reaped when it exits, and stopped
by :meth:`Supervisor.stop`, so that nothing outlives the supervisor.

If the supervisor itself dies (``kill -9``), its watchdog (:meth:`Supervisor.start_watchdog`,
:mod:`daily.service.ops.watchdog`), a process told of every child it starts, stops the
children in the same order as :meth:`Supervisor.stop`: Valkey last.

>>> backoff = Backoff()
>>> [backoff.next_delay(uptime=1.0) for _ in range(8)]
[0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 30.0, 30.0]
>>> backoff.next_delay(uptime=120.0)  # it ran for two minutes: a fresh start
0.5
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from daily.errors import StateError

#: Seconds a child gets to stop after SIGTERM before SIGKILL.
STOP_TIMEOUT = 10.0
#: Seconds a child gets to become ready at start.
START_TIMEOUT = 30.0
_PR_SET_CHILD_SUBREAPER = 36


def _prctl(option: int, value: int) -> None:
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(option, value, 0, 0, 0)


def become_subreaper(enable: bool = True) -> None:
    """Adopt orphaned descendants, or stop adopting them (Linux only)."""
    _prctl(_PR_SET_CHILD_SUBREAPER, 1 if enable else 0)


@dataclass
class Backoff:
    """Delays before restarting a child that keeps dying."""

    first: float = 0.5
    factor: float = 2.0
    cap: float = 30.0
    #: A child that ran at least this long starts again from :attr:`first`.
    stable_after: float = 60.0
    _next: float = 0.0

    def next_delay(self, uptime: float) -> float:
        """The delay before the next start of a child that ran ``uptime`` seconds."""
        if uptime >= self.stable_after or self._next == 0.0:
            self._next = self.first
        delay = self._next
        self._next = min(self.cap, self._next * self.factor)
        return delay


@dataclass(frozen=True)
class ChildSpec:
    """How to start one child."""

    name: str
    argv: list[str]
    env: dict[str, str]
    #: Text written to the child's standard input at each start, then closed.
    stdin_text: str | None = None
    #: Discard the child's standard output (Valkey writes its own log file).
    quiet: bool = False
    #: A job that ends: not started again after exit status 0.
    once: bool = False
    #: File mode creation mask of the child (0o077: files only for the owner).
    umask: int | None = None
    #: Give up after this many restarts (None: never; a service must stay up).
    max_restarts: int | None = None


@dataclass
class Child:
    """A supervised child: its spec, its current process and its restart state."""

    spec: ChildSpec
    process: subprocess.Popen[bytes]
    started_at: float
    restarts: int = 0
    backoff: Backoff = field(default_factory=Backoff)
    restart_at: float | None = None  # set while it is dead and waiting to start again
    finished: bool = False  # a one-shot child that completed

    @property
    def name(self) -> str:
        """The child's name in log lines."""
        return self.spec.name

    @property
    def running(self) -> bool:
        """True while its current process lives."""
        return self.restart_at is None and not self.finished and self.process.poll() is None


def describe_exit(status: int) -> str:
    """A process's exit status in words.

    >>> describe_exit(-9), describe_exit(3)
    ('killed by SIGKILL', 'exited with status 3')
    """
    if status < 0:
        try:
            return f"killed by {signal.Signals(-status).name}"
        except ValueError:
            return f"killed by signal {-status}"
    return f"exited with status {status}"


def _kill_group(pgid: int, sig: int = signal.SIGKILL) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


def _proc_children(pid: int) -> dict[int, str]:
    """Direct children of ``pid`` (Linux /proc) with their state letter."""
    found: dict[int, str] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == pid:
            found[int(stat.parent.name)] = fields[0]
    return found


class Supervisor:
    """Start children, restart the ones that die, stop them all in reverse order."""

    def __init__(self, say: Callable[[str], None], clock: Callable[[], float] = time.monotonic):
        self.say = say
        self.clock = clock
        self.children: list[Child] = []
        self.watchdog: subprocess.Popen[bytes] | None = None

    def start_watchdog(self) -> None:
        """Start the watchdog that stops the children, in order, should this process die
        (:mod:`daily.service.ops.watchdog`), and tell it of the children started so far."""
        self.watchdog = subprocess.Popen(
            [sys.executable, "-m", "daily.service.ops.watchdog"],
            stdin=subprocess.PIPE, process_group=0, close_fds=True,
        )
        for child in self.children:
            self._announce(child)

    def _announce(self, child: Child) -> None:
        """Tell the watchdog the current pid of ``child`` (a new watchdog if it died)."""
        dog = self.watchdog
        if dog is None:
            return
        if dog.poll() is not None:
            self.say(f"watchdog {describe_exit(dog.returncode)}; starting it again")
            self.start_watchdog()
            return
        assert dog.stdin is not None
        try:
            dog.stdin.write(f"child {child.process.pid} {child.name}\n".encode())
            dog.stdin.flush()
        except BrokenPipeError:
            self.start_watchdog()

    def _stop_watchdog(self) -> None:
        dog, self.watchdog = self.watchdog, None
        if dog is None:
            return
        assert dog.stdin is not None
        with contextlib.suppress(BrokenPipeError, ValueError):
            dog.stdin.write(b"stop\n")
            dog.stdin.close()
        try:
            dog.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            dog.kill()
            dog.wait()

    def _popen(self, spec: ChildSpec) -> subprocess.Popen[bytes]:
        mask = spec.umask

        def in_child() -> None:  # between fork and exec
            if mask is not None:
                os.umask(mask)

        process = subprocess.Popen(
            spec.argv,
            env=spec.env,
            process_group=0,
            preexec_fn=in_child,
            stdin=subprocess.PIPE if spec.stdin_text is not None else subprocess.DEVNULL,
            stdout=subprocess.DEVNULL if spec.quiet else None,
        )
        if spec.stdin_text is not None:
            assert process.stdin is not None
            with contextlib.suppress(BrokenPipeError):
                process.stdin.write(spec.stdin_text.encode())
            process.stdin.close()
        return process

    def start(self, spec: ChildSpec) -> Child:
        """Start a new child now."""
        child = Child(spec, self._popen(spec), self.clock())
        self.children.append(child)
        self._announce(child)
        self.say(f"started {spec.name} (pid {child.process.pid})")
        return child

    def wait_ready(self, child: Child, ready: Callable[[], bool], what: str) -> None:
        """Wait until ``ready()``; a child that exits or stays unready is a StateError."""
        deadline = self.clock() + START_TIMEOUT
        while self.clock() < deadline:
            if child.process.poll() is not None:
                raise StateError(f"{what} {describe_exit(child.process.returncode)} at start")
            if ready():
                return
            time.sleep(0.05)
        raise StateError(f"{what} did not become ready within {START_TIMEOUT:.0f} s")

    def check(self) -> None:
        """One supervision pass: notice deaths, restart children whose delay is over."""
        now = self.clock()
        for child in self.children:
            if child.finished:
                continue
            if child.restart_at is None:
                status = child.process.poll()
                if status is None:
                    continue
                _kill_group(child.process.pid)  # leftovers of its process group
                if child.spec.once and status == 0:
                    child.finished = True
                    self.say(f"{child.name} finished")
                    continue
                limit = child.spec.max_restarts
                if limit is not None and child.restarts >= limit:
                    child.finished = True
                    self.say(f"{child.name} {describe_exit(status)}; giving up after"
                             f" {child.restarts} restarts")
                    continue
                delay = child.backoff.next_delay(now - child.started_at)
                child.restart_at = now + delay
                self.say(f"{child.name} {describe_exit(status)}; restarting in {delay:.1f} s")
            elif now >= child.restart_at:
                child.process = self._popen(child.spec)
                child.started_at = now
                child.restart_at = None
                child.restarts += 1
                self._announce(child)
                self.say(
                    f"restarted {child.name} (pid {child.process.pid}, restart {child.restarts})"
                )
        self.reap_orphans()

    def reap_orphans(self) -> None:
        """Collect the exit status of adopted orphans that have ended (no zombies)."""
        own = {c.process.pid for c in self.children}
        if self.watchdog is not None:
            own.add(self.watchdog.pid)
        for pid, state in _proc_children(os.getpid()).items():
            if state == "Z" and pid not in own:
                with contextlib.suppress(ChildProcessError):
                    os.waitpid(pid, os.WNOHANG)

    def stop(self) -> None:
        """Stop every child in reverse start order (SIGTERM, then SIGKILL if stuck),
        then every adopted orphan."""
        self._stop_watchdog()
        for child in reversed(self.children):
            proc = child.process
            if child.running:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(STOP_TIMEOUT)
                except subprocess.TimeoutExpired:
                    self.say(f"{child.name} did not stop in {STOP_TIMEOUT:.0f} s; killing it")
                    proc.kill()
                    proc.wait()
                self.say(f"{child.name} stopped ({proc.returncode})")
            _kill_group(proc.pid)
        self.children.clear()
        self._stop_orphans()

    def _stop_orphans(self) -> None:
        orphans = [p for p, state in _proc_children(os.getpid()).items() if state != "Z"]
        for pid in orphans:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)
        deadline = self.clock() + STOP_TIMEOUT
        for pid in orphans:
            while self.clock() < deadline:
                try:
                    done, _ = os.waitpid(pid, os.WNOHANG)
                except ChildProcessError:
                    break
                if done:
                    break
                time.sleep(0.05)
            else:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
                with contextlib.suppress(ChildProcessError):
                    os.waitpid(pid, 0)
        self.reap_orphans()
