"""The test tiers: which tests start servers, browsers or worker processes.

``make test`` runs everything; ``make test-fast`` leaves out the tests marked ``live``,
``browser``, ``slow`` or ``spawns`` (tests/README.md). Nobody has to remember the
markers by hand:

- :func:`mark_by_fixtures` (called from ``pytest_collection_modifyitems`` in
  ``tests/conftest.py``) gives a test the marker of every fixture it uses that starts
  something (:data:`FIXTURE_MARKERS`): a test that asks for ``live_server`` is ``live``.
- :func:`guard_processes` checks every process a test starts (``subprocess.Popen``,
  which ``subprocess.run`` and Playwright use too) against :data:`PROCESS_MARKERS`: a
  test that starts gunicorn, ``daily serve``, an RQ worker, a Valkey server, nginx or a
  browser without the marker that keeps it out of the fast tier fails, in every run,
  with a message naming the marker to add.

>>> needed_marker(["python", "-m", "gunicorn", "-c", "conf.py", "app:create()"])
'live'
>>> needed_marker(["python", "-m", "daily", "worker", "results", "--burst"])
'spawns'
>>> needed_marker(["python", "-m", "daily", "verify-day", "2026-11-29", "yahtzee"]) is None
True
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

#: The markers that keep a test out of ``make test-fast``.
SLOW_TIERS = ("live", "browser", "slow", "spawns")
FAST_EXPRESSION = " and ".join(f"not {m}" for m in SLOW_TIERS)

#: Fixtures that start something, and the marker a test using one gets.
FIXTURE_MARKERS = {
    # real gunicorn (tests/service/live.py, tests/web/conftest.py)
    "live_server": "live",
    "live_client": "live",
    "live_variants": "live",
    "web_server": "live",
    "web_variants": "live",
    # Debian's Chromium through Playwright (tests/web/conftest.py)
    "chromium": "browser",
    # worker processes and servers of a test's own
    "run_burst_worker": "spawns",
    "run_results_worker": "spawns",
    "own_valkey": "spawns",
    "valkey_cluster": "spawns",
    # strategy tables that take seconds to solve (Generala's takes a fraction of one)
    "yahtzee_table": "slow",
    "yatzy_table": "slow",
    "plain_yahtzee_table": "slow",
    "yahtzee_tables_dir": "slow",
    "fairplay_table": "slow",
}

#: Fixtures that reach the test Redis (directly or through the app they build).
REDIS_FIXTURES = {"redis_db", "redis_url", "redis_client", "service_config", "app", "client"}

#: The ``daily`` subcommands that start a long-running process (``daily serve`` runs
#: gunicorn too).
_DAILY_PROCESSES = {"serve": "live", "worker": "spawns", "scheduler": "spawns"}


#: Doctests of the package that take seconds (a doctest has no markers of its own).
SLOW_DOCTESTS = {
    "daily.fairplay.columns",
    "daily.strategy.triple.TripleAdvisor.estimate",
    "daily.strategy.triple.play_triple_bots",
}


def mark_by_fixtures(items: Sequence[pytest.Item]) -> None:
    """Add the markers :data:`FIXTURE_MARKERS` and :data:`REDIS_FIXTURES` call for (a
    parameter naming a fixture, for ``request.getfixturevalue``, counts as using it),
    and ``slow`` to the :data:`SLOW_DOCTESTS`."""
    for item in items:
        used = set(getattr(item, "fixturenames", ()))
        callspec = getattr(item, "callspec", None)
        if callspec is not None:
            used |= {v for v in callspec.params.values() if isinstance(v, str)}
        if item.name in SLOW_DOCTESTS:
            item.add_marker("slow")
        for name in sorted(used & FIXTURE_MARKERS.keys()):
            marker = FIXTURE_MARKERS[name]
            if item.get_closest_marker(marker) is None:
                item.add_marker(marker)
        if used & REDIS_FIXTURES and item.get_closest_marker("redis") is None:
            item.add_marker("redis")


def needed_marker(args: Any) -> str | None:
    """The marker a test needs to start the process ``args`` (None: any test may).

    >>> needed_marker(["/usr/sbin/nginx", "-c", "nginx.conf"])
    'spawns'
    >>> needed_marker("ls -l") is None
    True
    """
    if isinstance(args, (str, bytes, os.PathLike)):
        return None  # a shell line or a lone program: none of ours start that way
    words = [os.fsdecode(a) if isinstance(a, (bytes, os.PathLike)) else str(a) for a in args]
    names = [Path(w).name for w in words]
    if "gunicorn" in names:
        return "live"
    if any("playwright" in w for w in words) or any(n.startswith("chromium") for n in names):
        return "browser"
    if any(n.startswith(("valkey-server", "redis-server", "nginx")) for n in names):
        return "spawns"
    if "rq.cli" in words or "rq" in names[:1]:
        return "spawns" if "worker" in words else None
    if "daily" in words:
        command = words[words.index("daily") + 1:words.index("daily") + 2]
        if command:
            return _DAILY_PROCESSES.get(command[0])
    return None


_current: list[pytest.Item] = []


def running(item: pytest.Item | None) -> None:
    """Note the test now running (None between tests)."""
    _current[:] = [item] if item is not None else []


def guard_processes() -> None:
    """Make ``subprocess.Popen`` refuse, inside a test without the right marker, to start
    a process :func:`needed_marker` names (once per test process)."""
    if getattr(subprocess.Popen.__init__, "daily_tier_guard", False):
        return
    original = subprocess.Popen.__init__

    def guarded(self: subprocess.Popen[Any], args: Any, *rest: Any, **kw: Any) -> None:
        marker = needed_marker(args)
        if marker is not None and _current:
            item = _current[0]
            if not any(item.get_closest_marker(m) for m in SLOW_TIERS):
                pytest.fail(
                    f"{item.nodeid} starts {args!r}: mark it (or its module)"
                    f" `pytest.mark.{marker}` so that `make test-fast` leaves it out"
                    " (tests/README.md)", pytrace=False)
        original(self, args, *rest, **kw)

    guarded.daily_tier_guard = True  # type: ignore[attr-defined]
    subprocess.Popen.__init__ = guarded  # type: ignore[method-assign]
