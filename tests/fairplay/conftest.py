"""Fixtures of the fair-play tests: the Yahtzee table, built once per run."""

from __future__ import annotations

import pytest

from daily.rules import get_ruleset
from daily.strategy.solver import StrategyTable
from tests.strategy.conftest import shared_table


@pytest.fixture(scope="session")
def yahtzee_table(tmp_path_factory: pytest.TempPathFactory) -> StrategyTable:
    """Yahtzee with the official forced joker and bonuses."""
    return shared_table(tmp_path_factory, get_ruleset("yahtzee"))


@pytest.fixture(scope="session")
def generala_table(tmp_path_factory: pytest.TempPathFactory) -> StrategyTable:
    """Generala with the default options."""
    return shared_table(tmp_path_factory, get_ruleset("generala"))
