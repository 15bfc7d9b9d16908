"""The first start's preparation, run by ``daily serve`` in the background.

``python -m daily.service.ops.firststart RULESET...`` builds the missing strategy tables
of the rulesets named (``DAILY_TABLES_AT_START``, Yahtzee and Yatzy by default: about
10 s each on an idle 2-core machine, 25 s on a busy one), one after the other, each
writing its progress for ``/api/v1/health`` (:func:`daily.strategy.tables.status.
progress_writer`), then compiles the strategy engine's kernels once (:func:`warm_engine`)
so that the web workers' first hint loads them from numba's cache instead of compiling
them. (The fair-play check's kernels compile in the results consumer, from its start:
compiling them here too, at the same time, would only double the work.)

``daily serve`` starts it after its web server answers: the page is there within
seconds, and what needs a table says so plainly until it is built (hints: 503
``table_not_ready`` with the table's progress; the page's "being prepared" notice).

It prints one line per table and one for the engine; a failed build is its exit
status 1 (the supervisor starts it again, twice at most).

>>> main(["no-such-game"])
daily serve: unknown ruleset 'no-such-game'
2
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from pathlib import Path

from daily.errors import DailyError
from daily.rules import Ruleset, get_ruleset


def build_missing(rules: Ruleset, folder: Path) -> float | None:
    """Build and save ``rules``' table unless it is there; the seconds it took, or None
    when it was already built."""
    from daily.strategy.solver import solve
    from daily.strategy.tables.fileformat import save_table
    from daily.strategy.tables.status import clear_progress, progress_writer, table_ready

    if table_ready(rules, folder):
        return None
    started = time.monotonic()
    try:
        save_table(solve(rules, progress_writer(rules, folder)), folder)
    finally:
        clear_progress(rules, folder)
    return time.monotonic() - started


def warm_engine(rulesets: Sequence[Ruleset], folder: Path) -> dict[str, str]:
    """Compile (or load from numba's cache) the kernels of the hints and the bots;
    returns what each ruleset's hints got (``exact``, ``stand-in``...:
    :func:`daily.strategy.tables.lookup.warm`)."""
    from daily.strategy.tables.lookup import warm

    return warm(rulesets, folder)


def main(argv: Sequence[str] | None = None) -> int:
    """Build the missing tables of the rulesets in ``argv``, then warm the engine."""
    from daily.service.config import load_config

    names = list(sys.argv[1:] if argv is None else argv)
    rulesets = []
    for name in names:
        try:
            rulesets.append(get_ruleset(name))
        except DailyError:
            print(f"daily serve: unknown ruleset {name!r}", flush=True)
            return 2
    config = load_config()
    folder = config.tables_dir
    for rules in rulesets:
        try:
            seconds = build_missing(rules, folder)
        except DailyError as exc:
            print(f"daily serve: building the {rules.name} strategy table failed: {exc}",
                  flush=True)
            return 1
        if seconds is not None:
            print(f"daily serve: {rules.name} strategy table ready in {seconds:.1f} s;"
                  " its hints and computer opponents are on", flush=True)
    started = time.monotonic()
    wanted = dict.fromkeys((*config.daily_rulesets, *names))
    warm_engine([get_ruleset(name) for name in wanted], folder)
    print(f"daily serve: strategy engine compiled in {time.monotonic() - started:.1f} s",
          flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
