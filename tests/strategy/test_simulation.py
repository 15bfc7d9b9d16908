"""Simulated games of the optimal policy average what the table says they should."""

from __future__ import annotations

import math

import pytest

from daily.strategy.simulate import play_slots, random_slots
from daily.strategy.solver import StrategyTable


def within_three_se(totals, expected: float) -> tuple[float, float]:
    mean = float(totals.mean())
    se = float(totals.std(ddof=1)) / math.sqrt(len(totals))
    return mean, se


@pytest.mark.slow
def test_twenty_thousand_optimal_yahtzee_games(yahtzee_table: StrategyTable) -> None:
    totals = play_slots(yahtzee_table, random_slots(yahtzee_table.rules, 20_000, 2026), "hard")
    mean, se = within_three_se(totals, yahtzee_table.expected)
    assert abs(mean - yahtzee_table.expected) < 3 * se, (mean, se)
    assert 0.2 < se < 0.6  # the spread of Yahtzee scores is about 60 points


@pytest.mark.slow
def test_twenty_thousand_optimal_yatzy_games(yatzy_table: StrategyTable) -> None:
    totals = play_slots(yatzy_table, random_slots(yatzy_table.rules, 20_000, 7), "hard")
    mean, se = within_three_se(totals, yatzy_table.expected)
    assert abs(mean - yatzy_table.expected) < 3 * se, (mean, se)


def test_greedy_play_is_clearly_worse(yahtzee_table: StrategyTable) -> None:
    slots = random_slots(yahtzee_table.rules, 2000, 3)
    easy = play_slots(yahtzee_table, slots, "easy").mean()
    hard = play_slots(yahtzee_table, slots, "hard").mean()
    assert hard - easy > 15
