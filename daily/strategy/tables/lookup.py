"""Where tables live and a process-wide cache of the ones opened.

The folder is ``Config.tables_dir``: ``$DAILY_DATA_DIR/tables`` (default
``./var/tables``). An opened table is memory-mapped, so keeping it cached costs only
address space; a rebuilt file (new modification time) is opened afresh.

>>> tables_dir_for(Path("/srv/dice")).as_posix()
'/srv/dice/tables'
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Iterable
from pathlib import Path

from daily.rules import Ruleset
from daily.strategy.advisor import Advisor
from daily.strategy.heuristic import HeuristicAdvisor
from daily.strategy.solver import StrategyTable, solve
from daily.strategy.spec import Position, StrategyError
from daily.strategy.tables.fileformat import load_table, table_filename
from daily.strategy.triple import TripleAdvisor, column_rules

_LOCK = threading.Lock()
_OPEN: dict[tuple[str, float], StrategyTable] = {}
_PATHS: dict[Path, str] = {}
_ADVISORS: dict[int, Advisor] = {}
_TRIPLES: dict[tuple[int, str, tuple[tuple[str, object], ...]], TripleAdvisor] = {}


def tables_dir_for(data_dir: Path) -> Path:
    """The tables folder inside a data directory."""
    return data_dir / "tables"


def default_tables_dir() -> Path:
    """``$DAILY_TABLES_DIR``, else ``$DAILY_DATA_DIR/tables``, else ``./var/tables``."""
    explicit = os.environ.get("DAILY_TABLES_DIR")
    if explicit:
        return Path(explicit)
    return tables_dir_for(Path(os.environ.get("DAILY_DATA_DIR") or "var"))


def get_table(rules: Ruleset, folder: Path | None = None) -> StrategyTable:
    """The table of ``rules`` from ``folder`` (opened once per file version)."""
    folder = default_tables_dir() if folder is None else folder
    named = folder / table_filename(rules)
    path = _PATHS.get(named)
    if path is None:  # resolved once per file name: a request then costs one stat
        path = _PATHS[named] = str(named.resolve())
    try:
        stamp = os.stat(path).st_mtime
    except FileNotFoundError:
        stamp = -1.0
    key = (path, stamp)
    with _LOCK:
        table = _OPEN.get(key)
        if table is None:
            table = load_table(rules, folder)  # raises a clear error when missing/stale
            _OPEN[key] = table
        return table


def get_advisor(rules: Ruleset, folder: Path | None = None) -> Advisor:
    """A warm :class:`Advisor` on the table of ``rules``, one per table and process.

    Its caches (turn values, box gains, keep lists) stay warm across requests; it is
    safe to share between threads. A rebuilt table file gets a new advisor.
    """
    table = get_table(rules, folder)
    with _LOCK:
        advisor = _ADVISORS.get(id(table))
        if advisor is None or advisor.table is not table:
            advisor = Advisor(table, cache=256)  # about 10 MB of caches at most
            advisor.engine.warm()  # its turn cache: 6.6 MiB (Yahtzee) to 14.4 MiB, mapped now
            _ADVISORS[id(table)] = advisor
        return advisor


def table_or_solve(rules: Ruleset, folder: Path | None = None) -> StrategyTable:
    """The saved table of ``rules``, or, when none is saved, one solved in memory.

    For benchmarks and tools; the service always uses :func:`get_table`, which refuses a
    missing table with the command that builds it.

    >>> from daily.rules import get_ruleset
    >>> rules = get_ruleset("yacht", {"forced_order": True})
    >>> round(table_or_solve(rules, Path("/nonexistent")).expected, 1) > 0
    True
    """
    try:
        return get_table(rules, folder)
    except StrategyError:
        print(f"(no saved {rules.name} table: solving it in memory)", file=sys.stderr)
        return solve(rules)


def advisor_for(rules: Ruleset, folder: Path | None = None) -> Advisor | TripleAdvisor:
    """The engine that advises on ``rules``, warm and one per table and process: the
    exact :class:`Advisor` on its table, or for Triple Yahtzee the heuristic
    :class:`TripleAdvisor` on its one-column table.

    >>> from daily.rules import get_ruleset
    >>> advisor_for(get_ruleset("yacht"), Path("/nonexistent"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    daily.strategy.spec.StrategyError: table: no strategy table for yacht in /nonexistent; ...
    """
    if len(rules.weights) < 2:
        return get_advisor(rules, folder)
    table = get_table(column_rules(rules), folder)
    key = (id(table), rules.name, tuple(sorted(rules.options.items())))
    with _LOCK:
        triple = _TRIPLES.get(key)
        if triple is None or triple.table is not table:
            triple = TripleAdvisor(table, rules, cache=256)
            _TRIPLES[key] = triple
        return triple


def warm(rulesets: Iterable[Ruleset], folder: Path | None = None) -> dict[str, str]:
    """Make the first hint and the first opponents of each ruleset fast: open its table
    and answer one hint (which loads the compiled kernels and fills the engine's caches);
    without its table, calibrate and run the heuristic player that stands in for its
    bots. Returns what each ruleset got: ``exact``, ``heuristic`` (Triple Yahtzee's
    lookahead player on its table), ``stand-in`` or ``none``.

    >>> from daily.rules import get_ruleset
    >>> warm([get_ruleset("yacht", {"forced_order": True})], Path("/nonexistent"))
    {'yacht': 'stand-in'}
    """
    out: dict[str, str] = {}
    for rules in rulesets:
        dice = tuple(1 + i % 6 for i in range(rules.dice))
        pos = Position(rules, (None,) * len(rules.boxes), dice, rules.rolls_per_turn - 1)
        try:
            advisor = advisor_for(rules, folder)
            advisor.hint(pos)
            out[rules.name] = "heuristic" if advisor.heuristic else "exact"
            continue
        except StrategyError:
            pass
        try:
            HeuristicAdvisor(rules).hint(pos)
            out[rules.name] = "stand-in"
        except StrategyError:
            out[rules.name] = "none"
    return out
