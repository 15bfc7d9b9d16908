"""One daemon thread that runs the results consumer's long computations in turn.

The day's ceiling of a big ruleset (Maxi Yatzy: 10 to 90 s, 170 MB) or Triple
Yahtzee's column table is computed beside the consumer's loop, one at a time (two Maxi
ceilings at once would double the memory). The thread is a daemon: a consumer told to
stop (SIGTERM) returns from its loop and exits at once, abandoning a computation in
hand (the next start reads what the prepare job kept, or computes it again), where a
``ThreadPoolExecutor``'s thread would hold the exit until the computation ended.

>>> background = Background("example")
>>> background.submit(sum, [1, 2, 3]).result(timeout=5)
6
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, TypeVar

T = TypeVar("T")


class Background:
    """A queue of calls run by one daemon thread (started at the first call)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._calls: queue.SimpleQueue[tuple[Future[Any], Callable[..., Any], tuple[Any, ...]]]
        self._calls = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def submit(self, fn: Callable[..., T], *args: Any) -> Future[T]:
        """Queue ``fn(*args)``; its future holds the result or the exception."""
        future: Future[T] = Future()
        self._calls.put((future, fn, args))
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
                self._thread.start()
        return future

    def _run(self) -> None:
        while True:
            future, fn, args = self._calls.get()
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(fn(*args))
            except BaseException as exc:  # handed to whoever waits on the future
                future.set_exception(exc)
