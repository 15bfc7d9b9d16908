"""The supervisor's watchdog: if ``daily serve`` itself dies, stop its children in order.

The supervisor (:class:`daily.service.ops.supervisor.Supervisor`) starts this process
first, in a process group of its own, with a pipe on its standard input, and writes a
line to it for every child it (re)starts: ``child PID NAME``. The watchdog does nothing
else until the pipe closes:

* ``stop`` then end of input: an orderly stop (the supervisor stops its children
  itself); the watchdog exits 0.
* end of input without ``stop``: the supervisor died (``kill -9``, a crash): the
  kernel closed its end of the pipe. The watchdog then stops the children as the
  supervisor would have, in reverse start order - web, scheduler, worker, results
  consumer, Valkey last (so that nothing in flight loses its Redis) - each with SIGTERM
  to its process group, then SIGKILL after :data:`STOP_TIMEOUT` seconds, and exits.

The children carry no parent-death signal: with one, all of them got SIGTERM at once
when the supervisor died, Valkey among them, and the web server answered 503 to the
requests in flight. The watchdog ignores SIGINT and SIGTERM (a Ctrl-C reaches the
supervisor alone, which stops the watchdog with ``stop``), so only SIGKILL ends it
early.

>>> order = Children()
>>> for line in ["child 10 valkey", "child 11 results", "child 12 web", "child 13 results"]:
...     order.note(line)
>>> order.stop_order()
[(12, 'web'), (13, 'results'), (10, 'valkey')]
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

#: Seconds a child gets to stop after SIGTERM before SIGKILL (as the supervisor's).
STOP_TIMEOUT = 10.0


def alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie is not alive).

    >>> alive(os.getpid()), alive(2**22 + 1)
    (True, False)
    """
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return not sys.platform.startswith("linux")
    return state != "Z"


@dataclass
class Children:
    """The supervisor's children as it announced them: name -> current pid, in the order
    of their first start."""

    pids: dict[str, int] = field(default_factory=dict)
    stopped: bool = False

    def note(self, line: str) -> None:
        """Take one line from the supervisor (``child PID NAME`` or ``stop``)."""
        words = line.strip().split(" ", 2)
        if words == ["stop"]:
            self.stopped = True
        elif len(words) == 3 and words[0] == "child" and words[1].isdigit():
            self.pids[words[2]] = int(words[1])

    def stop_order(self) -> list[tuple[int, str]]:
        """(pid, name) in the order to stop them: the reverse of their start order."""
        return [(pid, name) for name, pid in reversed(self.pids.items())]


def stop_children(order: Iterable[tuple[int, str]], say: Callable[[str], None],
                  timeout: float = STOP_TIMEOUT) -> None:
    """SIGTERM each child's process group in turn, waiting for the child to end (SIGKILL
    after ``timeout``)."""
    for pid, name in order:
        if not alive(pid):
            continue
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, signal.SIGTERM)
        deadline = time.monotonic() + timeout
        while alive(pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        if alive(pid):
            say(f"{name} did not stop in {timeout:.0f} s; killing it")
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, signal.SIGKILL)  # and whatever is left of its group
        say(f"{name} stopped")


def main() -> int:
    """Read the supervisor's lines until the end of input; stop the children unless told
    ``stop``."""
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, signal.SIG_IGN)
    children = Children()
    for line in sys.stdin:
        children.note(line)

    def say(text: str) -> None:
        print(f"daily serve (watchdog): {text}", file=sys.stderr, flush=True)

    if children.stopped:
        return 0
    say("the supervisor died: stopping its children, Valkey last")
    stop_children(children.stop_order(), say)
    return 0


if __name__ == "__main__":
    sys.exit(main())
