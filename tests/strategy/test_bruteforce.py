"""Exact brute force on reduced games, with fractions, against the solver.

The brute force plays the game by its definition: every roll outcome with its exact
probability, every keep, every legal box from ``placements()``, bonuses from the
card's totals. It shares no code with the solver.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter
from fractions import Fraction
from functools import cache

import pytest

from daily.card import Card
from daily.rules import Ruleset
from daily.rules.placement import placements
from daily.strategy.solver import solve
from tests.strategy.conftest import reduced


@cache
def outcomes(m: int) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    """Sorted results of rolling ``m`` dice with their exact probabilities."""
    counts = Counter(tuple(sorted(r)) for r in itertools.product(range(1, 7), repeat=m))
    total = 6**m
    return tuple((r, Fraction(c, total)) for r, c in sorted(counts.items()))


def brute_force(rules: Ruleset) -> Fraction:
    n, nb = rules.dice, len(rules.boxes)
    upper = [i for i, b in enumerate(rules.boxes) if b.upper]
    yi = rules.yahtzee_index
    cap = rules.upper_bonus_threshold

    def scores_of(filled: frozenset[int], up: int, yval: int | None) -> tuple[int | None, ...]:
        # a representative card: the (capped) upper total in the first filled upper box
        out: list[int | None] = [None] * nb
        first = True
        for i in sorted(filled):
            out[i] = 0
            if i in upper and first:
                out[i] = up
                first = False
        if yi is not None and yi in filled:
            out[yi] = yval
        return tuple(out)

    @cache
    def state_value(filled: frozenset[int], up: int, yval: int | None) -> Fraction:
        if len(filled) == nb:
            return Fraction(0)
        scores = scores_of(filled, up, yval)
        card = Card(rules, scores)

        @cache
        def decide(dice: tuple[int, ...], left: int) -> Fraction:
            first_roll = left == rules.rolls_per_turn - 1  # served points in Generala
            turn = placements(rules, scores, dice, first_roll=first_roll)
            best = None
            for p in turn.legal():
                after = card.fill(p.index, p.points, p.bonus)
                gain = after.total - card.total
                new_up = min(cap, up + p.points) if p.index in upper else up
                new_y = p.points if p.index == yi else yval
                v = gain + state_value(filled | {p.index}, new_up, new_y)
                best = v if best is None or v > best else best
            if left:
                for size in range(n):
                    for kept in set(itertools.combinations(dice, size)):
                        v = keep_value(kept, left - 1)
                        best = v if best is None or v > best else best
            assert best is not None
            return best

        @cache
        def keep_value(kept: tuple[int, ...], left: int) -> Fraction:
            return sum(
                (pr * decide(tuple(sorted(kept + extra)), left)
                 for extra, pr in outcomes(n - len(kept))),
                Fraction(0),
            )

        first = sum((pr * decide(r, rules.rolls_per_turn - 1) for r, pr in outcomes(n)),
                    Fraction(0))
        return first

    return state_value(frozenset(), 0, None)


UPPER = ("ones", "twos", "threes", "fours", "fives", "sixes")

CASES = {
    # one die: every roll is five-alike, so the joker rule and the extra bonus fire constantly
    "yahtzee-1-die-joker": reduced(
        "yahtzee", (*UPPER, "full_house", "yahtzee"), dice=1, rolls=2, threshold=8
    ),
    "yahtzee-2-dice-no-joker": reduced(
        "yahtzee", ("ones", "sixes", "full_house", "yahtzee", "chance"), dice=2, rolls=3,
        threshold=8, options={"joker": False},
    ),
    "yahtzee-2-dice-forced-order": reduced(
        "yahtzee", ("twos", "small_straight", "yahtzee", "chance"), dice=2, rolls=2,
        threshold=4, options={"forced_order": True},
    ),
    "yatzy-3-dice": reduced(
        "yatzy", ("ones", "sixes", "one_pair", "three_of_a_kind", "chance"), dice=3, rolls=3,
        threshold=7,
    ),
    "maxi-6-dice": reduced("maxi-yatzy", ("sixes", "maxi_yatzy"), rolls=2, threshold=12),
    # Generala: served points on the first roll, doble_generala only after a generala
    "generala-2-dice-double": reduced(
        "generala", ("ones", "sixes", "generala", "doble_generala"), dice=2, rolls=3
    ),
    "generala-4-dice-poker": reduced(
        "generala", ("twos", "poker", "generala", "doble_generala"), dice=4, rolls=2,
        options={"generala_points": "40-50"},
    ),
    "generala-5-dice-escalera-full": reduced(
        "generala", ("escalera", "full"), rolls=2, options={"ace_high": False}
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_solver_equals_exact_brute_force(name: str) -> None:
    rules = CASES[name]
    exact = brute_force(rules)
    assert solve(rules).expected == pytest.approx(float(exact), abs=1e-9)


def test_the_reduced_generala_is_sensitive_to_served_points() -> None:
    # the served bonus must matter in the check above: without it the value drops
    rules = CASES["generala-2-dice-double"]
    plain = dataclasses.replace(
        rules, boxes=tuple(dataclasses.replace(b, served_points=None) for b in rules.boxes)
    )
    assert solve(rules).expected - solve(plain).expected > 1
    assert solve(rules).expected == pytest.approx(float(brute_force(rules)), abs=1e-9)


def test_the_reduced_games_are_sensitive_to_the_joker_rule() -> None:
    # the one-die check above is only meaningful if the joker rule changes the value
    with_joker = solve(CASES["yahtzee-1-die-joker"]).expected
    rules = reduced("yahtzee", (*UPPER, "full_house", "yahtzee"), dice=1, rolls=2, threshold=8,
                    options={"joker": False})
    assert abs(solve(rules).expected - with_joker) > 1
