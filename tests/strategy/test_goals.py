"""Single-goal probabilities: the solver on one-box games against exact fractions.

The fractions are derived here independently: a Markov chain on the number of dice
showing the most common face (keep j of them, reroll the rest, over every outcome of
the rerolled dice), and plain counting for the straight.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import cache

import pytest

from daily.strategy.advisor import Advisor
from daily.strategy.solver import solve
from daily.strategy.spec import Position
from tests.strategy.conftest import reduced


def chase_all_alike(n: int, rolls: int) -> Fraction:
    """P(all n dice alike within ``rolls`` rolls) when playing for it optimally."""

    @cache
    def after_keep(j: int) -> dict[int, Fraction]:
        # keep j dice of one face (j=0: none) and roll the other n-j; law of the new max count
        law: dict[int, Fraction] = {}
        for extra in itertools.product(range(6), repeat=n - j):
            counts = [0] * 6
            counts[0] += j
            for d in extra:
                counts[d] += 1
            k = max(counts)
            law[k] = law.get(k, Fraction(0)) + Fraction(1, 6 ** (n - j))
        return law

    @cache
    def success(k: int, left: int) -> Fraction:
        if k == n:
            return Fraction(1)
        if left == 0:
            return Fraction(0)
        return max(
            sum((p * success(k2, left - 1) for k2, p in after_keep(j).items()), Fraction(0))
            for j in range(k + 1)
        )

    return sum((p * success(k, rolls - 1) for k, p in after_keep(0).items()), Fraction(0))


def test_the_chain_matches_small_cases_by_hand() -> None:
    assert chase_all_alike(1, 1) == 1
    assert chase_all_alike(2, 1) == Fraction(1, 6)
    assert chase_all_alike(2, 2) == Fraction(1, 6) + Fraction(5, 6) * Fraction(1, 6)


def test_five_alike_within_three_rolls() -> None:
    p = chase_all_alike(5, 3)
    assert 0.046 < p < 0.0461  # the well-known 4.6%
    rules = reduced("yahtzee", ("yahtzee",))
    assert solve(rules).expected == pytest.approx(float(50 * p), abs=1e-12)


def test_six_alike_in_maxi_yatzy() -> None:
    p = chase_all_alike(6, 3)
    rules = reduced("maxi-yatzy", ("maxi_yatzy",))
    assert solve(rules).expected == pytest.approx(float(100 * p), abs=1e-12)


@pytest.mark.parametrize("left", [1, 2])
def test_open_ended_straight(left: int) -> None:
    # holding 2-3-4-5, either 1 or 6 completes the large straight: 2 faces of 6 per roll
    p = 1 - Fraction(4, 6) ** left
    rules = reduced("yahtzee", ("large_straight",))
    advisor = Advisor(solve(rules))
    pos = Position(rules, (None,), (3, 5, 2, 5, 4), left)
    best = advisor.actions(pos)[0]
    assert best.kind == "keep" and best.kept == (2, 3, 4, 5) and best.hold == "11101"
    assert best.value == pytest.approx(float(40 * p), abs=1e-12)


def test_inside_straight_is_worse_than_open_ended() -> None:
    # 1-2-3-5 needs exactly a 4: one face, not two
    rules = reduced("yahtzee", ("large_straight",))
    advisor = Advisor(solve(rules))
    pos = Position(rules, (None,), (1, 2, 3, 5, 5), 1)
    assert advisor.actions(pos)[0].value == pytest.approx(40 / 6, abs=1e-12)
