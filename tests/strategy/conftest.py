"""Strategy tables built once per test run (each takes a few seconds).

With xdist the first worker that needs a table builds it and saves it in the run's
shared temporary folder under a file lock; the other workers load that file.
"""

from __future__ import annotations

import dataclasses
import fcntl
import os
from pathlib import Path

import pytest

from daily.rules import Ruleset, get_ruleset
from daily.strategy.solver import StrategyTable, solve
from daily.strategy.spec import StrategyError
from daily.strategy.tables.fileformat import load_table, save_table


def shared_table(factory: pytest.TempPathFactory, rules: Ruleset) -> StrategyTable:
    """Build ``rules``' table once for all workers of this run."""
    base = Path(factory.getbasetemp())
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # the run's folder, shared by its workers (never by other runs)
    folder = base / "strategy-tables"
    folder.mkdir(exist_ok=True)
    with open(folder / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            return load_table(rules, folder)
        except StrategyError:
            table = solve(rules)
            save_table(table, folder, dtype="float64")
            return table

#: Yahtzee without the extra-Yahtzee bonus and without the joker rule.
PLAIN_YAHTZEE = {"joker": False, "extra_yahtzee_bonus": False}


@pytest.fixture(scope="session")
def yahtzee_table(tmp_path_factory: pytest.TempPathFactory) -> StrategyTable:
    """Yahtzee with the official forced joker and bonuses."""
    return shared_table(tmp_path_factory, get_ruleset("yahtzee"))


@pytest.fixture(scope="session")
def yatzy_table(tmp_path_factory: pytest.TempPathFactory) -> StrategyTable:
    """Scandinavian Yatzy."""
    return shared_table(tmp_path_factory, get_ruleset("yatzy"))


@pytest.fixture(scope="session")
def generala_table(tmp_path_factory: pytest.TempPathFactory) -> StrategyTable:
    """Generala with the default options (4,096 states: well under a second)."""
    return shared_table(tmp_path_factory, get_ruleset("generala"))


@pytest.fixture(scope="session")
def plain_yahtzee_table(tmp_path_factory: pytest.TempPathFactory) -> StrategyTable:
    """Yahtzee without extra bonus or joker (upper bonus kept)."""
    return shared_table(tmp_path_factory, get_ruleset("yahtzee", PLAIN_YAHTZEE))


def reduced(
    name: str,
    boxes: tuple[str, ...],
    *,
    dice: int | None = None,
    rolls: int | None = None,
    threshold: int | None = None,
    options: dict[str, object] | None = None,
) -> Ruleset:
    """A smaller game of the same family: fewer boxes, dice or rolls, a lower bonus bar."""
    rules = get_ruleset(name, options or {})
    keep = tuple(b for b in rules.boxes if b.id in boxes)
    assert len(keep) == len(boxes), "unknown box in a reduced game"
    changes: dict[str, object] = {"boxes": keep}
    if dice is not None:
        changes["dice"] = dice
    if rolls is not None:
        changes["rolls_per_turn"] = rolls
    if threshold is not None:
        changes["upper_bonus_threshold"] = threshold
    if rules.yahtzee_box is not None and rules.yahtzee_box not in boxes:
        changes["yahtzee_box"] = None
    if rules.double_box is not None and rules.double_box not in boxes:
        changes["double_box"] = None
    return dataclasses.replace(rules, **changes)
