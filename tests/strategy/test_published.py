"""The published optimal expected scores, computed from scratch."""

from __future__ import annotations

import pytest

from daily.strategy.solver import StrategyTable


def test_yahtzee_official_rules(yahtzee_table: StrategyTable) -> None:
    assert yahtzee_table.expected == pytest.approx(254.5877287, abs=1e-6)


def test_yatzy(yatzy_table: StrategyTable) -> None:
    # 248.63, often quoted, comes from a two-pairs scoring bug; two equal pairs are not two pairs
    assert yatzy_table.expected == pytest.approx(248.4399894, abs=1e-6)


def test_yahtzee_without_extra_bonus_or_joker(plain_yahtzee_table: StrategyTable) -> None:
    assert plain_yahtzee_table.expected == pytest.approx(245.8707745, abs=1e-6)


def test_the_options_change_the_value(
    yahtzee_table: StrategyTable, plain_yahtzee_table: StrategyTable
) -> None:
    # the extra bonus is worth a few points: the two tables really differ
    assert yahtzee_table.expected - plain_yahtzee_table.expected > 8
