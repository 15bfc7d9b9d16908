"""Waiting for a condition in the tests: poll it, never sleep a fixed time for it.

Every test that waits for something another process does (a server that starts, a
consumer that records a result, a log line) calls :func:`wait_until`; the wait ends as
soon as the condition holds, and fails with a message saying what did not happen.

One deadline for everything a test waits on another process for: :data:`PROCESS_TIMEOUT`,
the slowest honest cold start of a process of the project (the strategy engine's numba
compile, on a CI machine running the suite on two cores at twice their load) with room
to spare. A wait ends when its condition holds, so a generous deadline costs nothing
when the code works; only a hang takes that long to fail. ``DAILY_TEST_TIMEOUT``
(seconds) changes it for a run.

>>> from itertools import count
>>> calls = count(1)
>>> wait_until(lambda: next(calls) >= 3, timeout=5, interval=0.001, message="three calls")
True
>>> wait_until(lambda: False, timeout=0.01, interval=0.001, message="never")
Traceback (most recent call last):
...
AssertionError: never (after 0.01 s)
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

#: Seconds a test waits at most for another process: a subprocess to finish (a
#: ``--burst`` worker, a CLI command), a server to start, a consumer to record a result.
PROCESS_TIMEOUT = float(os.environ.get("DAILY_TEST_TIMEOUT") or 300)


def wait_until(
    predicate: Callable[[], T],
    timeout: float = PROCESS_TIMEOUT,
    interval: float = 0.05,
    message: str | Callable[[], str] = "the condition did not hold",
    *,
    ignore: tuple[type[BaseException], ...] = (),
    alive: Callable[[], object] | None = None,
) -> T:
    """Call ``predicate`` every ``interval`` seconds until it returns a true value, and
    return that value; after ``timeout`` seconds fail with ``message`` (a string, or a
    function giving one then, e.g. the tail of a log).

    ``ignore``: exceptions that count as "not yet" (a server still starting). ``alive``:
    checked before each wait; a false value fails at once (the process being waited
    for has exited), with the same message.

    >>> wait_until(lambda: "found", timeout=1)
    'found'
    """
    deadline = time.monotonic() + timeout
    while True:
        try:
            value = predicate()
        except ignore:
            value = None  # type: ignore[assignment]
        if value:
            return value
        if alive is not None and not alive():
            raise AssertionError(f"{_text(message)} (the process exited)")
        if time.monotonic() >= deadline:
            raise AssertionError(f"{_text(message)} (after {timeout:g} s)")
        time.sleep(interval)


def _text(message: str | Callable[[], str]) -> str:
    return message if isinstance(message, str) else message()
