"""Whether a strategy table is ready, being built (how far, how long to go) or missing.

A build started with ``daily strategy build RULESET --progress-file`` writes its
progress next to the table, in ``<table file>.progress`` (JSON, replaced atomically
about once a second), and removes it when the table is saved. Any process that sees
the tables folder (the web server's ``/api/v1/health``, ``daily serve``, the rollover
job) reads the state from the files alone:

* ``ready``: the table file is there and matches the ruleset;
* ``building``: a progress file updated within :data:`STALE_SECONDS`, with ``percent``
  and ``eta_seconds``: the work left at the speed measured since the first work was
  done (the kernels' compilation and the set-up before it are not work: counted in,
  they made the estimate start hours high and fall for minutes);
* ``missing``: neither (or a progress file left behind by a build that died).

>>> import tempfile
>>> from daily.rules import get_ruleset
>>> folder = Path(tempfile.mkdtemp())
>>> rules = get_ruleset("yahtzee")
>>> table_status(rules, folder)["state"]
'missing'
>>> write = progress_writer(rules, folder, clock=lambda: 100.0)
>>> write(0, 400)
>>> status = table_status(rules, folder, clock=lambda: 110.0)
>>> status["state"], status["percent"]
('building', 0.0)
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from daily.rules import Ruleset
from daily.strategy.spec import StrategyError
from daily.strategy.tables.fileformat import load_table, table_filename
from daily.strategy.triple import column_rules

#: A progress file not updated for this long belongs to a build that died.
STALE_SECONDS = 120.0


def table_rules(rules: Ruleset) -> Ruleset:
    """The rules whose table serves ``rules``: Triple Yahtzee (several columns) uses the
    one-column table of its heuristic player, the others their own.

    >>> from daily.rules import get_ruleset
    >>> table_rules(get_ruleset("yahtzee")).name
    'yahtzee'
    """
    return column_rules(rules) if len(rules.weights) > 1 else rules


def progress_path(rules: Ruleset, folder: Path) -> Path:
    """Where a build of ``rules`` into ``folder`` writes its progress."""
    return folder / (table_filename(table_rules(rules)) + ".progress")


def table_ready(rules: Ruleset, folder: Path) -> bool:
    """True when ``folder`` holds a usable table for ``rules`` (not missing or stale)."""
    try:
        load_table(table_rules(rules), folder)
    except StrategyError:
        return False
    return True


def progress_writer(
    rules: Ruleset, folder: Path, clock: Callable[[], float] = time.time
) -> Callable[[int, int], None]:
    """A ``progress(done, total)`` callback for the solver that keeps the progress file.

    It writes at most once a second (and always the first and the last call).
    """
    path = progress_path(rules, folder)
    started = clock()
    last = [-1.0]
    first: list[tuple[float, int]] = []  # when work was first done, and how much

    def write(done: int, total: int) -> None:
        now = clock()
        if done > 0 and not first:
            first.append((now, done))
        elif 0 < done < total and now - last[0] < 1.0:
            return
        last[0] = now
        body: dict[str, Any] = {"ruleset": rules.name, "done": done, "total": total,
                                "started_at": started, "updated_at": now}
        if first:
            body["measured_from"], body["measured_done"] = first[0]
        folder.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(body))
        os.replace(tmp, path)

    return write


def clear_progress(rules: Ruleset, folder: Path) -> None:
    """Remove the progress file (the build finished or gave up)."""
    with contextlib.suppress(FileNotFoundError):
        progress_path(rules, folder).unlink()


def table_status(
    rules: Ruleset, folder: Path, clock: Callable[[], float] = time.time
) -> dict[str, Any]:
    """``{"state": "ready"|"building"|"missing"}``, with ``percent`` and
    ``eta_seconds`` (None until there is a first measure) while building.

    The estimate is the work left at the speed measured from the first work done: a
    slow start (compiling the kernels) does not inflate it.

    >>> import tempfile
    >>> from daily.rules import get_ruleset
    >>> folder, rules = Path(tempfile.mkdtemp()), get_ruleset("yacht")
    >>> times = iter([0.0, 0.0, 90.0, 100.0])
    >>> write = progress_writer(rules, folder, clock=lambda: next(times))
    >>> write(0, 1000); write(10, 1000)   # 90 s of compilation, then 10 units of work
    >>> write(20, 1000)                   # 10 more units in 10 s: 1 unit a second
    >>> table_status(rules, folder, clock=lambda: 100.0)["eta_seconds"]
    980
    """
    if table_ready(rules, folder):
        return {"state": "ready"}
    try:
        body = json.loads(progress_path(rules, folder).read_text())
        done, total = int(body["done"]), int(body["total"])
        started, updated = float(body["started_at"]), float(body["updated_at"])
    except (OSError, ValueError, KeyError, TypeError):
        return {"state": "missing"}
    now = clock()
    if now - updated > STALE_SECONDS or total <= 0:
        return {"state": "missing"}
    fraction = min(1.0, max(0.0, done / total))
    eta = None
    try:
        since, base = float(body["measured_from"]), int(body["measured_done"])
    except (KeyError, TypeError, ValueError):
        since, base = started, 0
    if done > base and updated > since:
        speed = (done - base) / (updated - since)  # units a second, over the work done
        eta = max(0, round((total - done) / speed - (now - updated)))
    elif fraction > 0:  # one measure so far: from the start (set-up included)
        elapsed = max(0.0, now - started)
        eta = max(0, round(elapsed / fraction - elapsed))
    return {"state": "building", "percent": round(100 * fraction, 1), "eta_seconds": eta}
