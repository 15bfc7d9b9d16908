"""Strategy tables built once per test session (each takes a few seconds)."""

from __future__ import annotations

import dataclasses

import pytest

from daily.rules import Ruleset, get_ruleset
from daily.strategy.solver import StrategyTable, solve

#: Yahtzee without the extra-Yahtzee bonus and without the joker rule.
PLAIN_YAHTZEE = {"joker": False, "extra_yahtzee_bonus": False}


@pytest.fixture(scope="session")
def yahtzee_table() -> StrategyTable:
    """Yahtzee with the official forced joker and bonuses."""
    return solve(get_ruleset("yahtzee"))


@pytest.fixture(scope="session")
def yatzy_table() -> StrategyTable:
    """Scandinavian Yatzy."""
    return solve(get_ruleset("yatzy"))


@pytest.fixture(scope="session")
def plain_yahtzee_table() -> StrategyTable:
    """Yahtzee without extra bonus or joker (upper bonus kept)."""
    return solve(get_ruleset("yahtzee", PLAIN_YAHTZEE))


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
    return dataclasses.replace(rules, **changes)
