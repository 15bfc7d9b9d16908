"""Table tests: the points of every box on chosen rolls, game by game (rules: docs/rules.md)."""

from __future__ import annotations

import pytest

from daily.rules import get_ruleset


def points(ruleset: str, dice: tuple[int, ...], box: str, **options) -> int:
    rules = get_ruleset(ruleset, options)
    return rules.table[tuple(sorted(dice))][rules.box_index(box)]


YAHTZEE = [
    ((4, 4, 4, 6, 6), "three_of_a_kind", 24),
    ((4, 4, 4, 6, 6), "full_house", 25),
    ((4, 4, 4, 6, 6), "fours", 12),
    ((4, 4, 4, 6, 6), "sixes", 12),
    ((2, 3, 4, 5, 5), "small_straight", 30),
    ((2, 3, 4, 5, 5), "fives", 10),
    ((2, 3, 4, 5, 5), "chance", 19),
    ((2, 3, 4, 5, 5), "large_straight", 0),
    ((6, 6, 6, 6, 6), "yahtzee", 50),
    ((6, 6, 6, 6, 6), "four_of_a_kind", 30),
    ((6, 6, 6, 6, 6), "sixes", 30),
    ((6, 6, 6, 6, 6), "full_house", 0),  # five alike is not a full house
    ((1, 2, 4, 5, 6), "small_straight", 0),
    ((1, 2, 4, 5, 6), "large_straight", 0),
    ((1, 2, 4, 5, 6), "chance", 18),
    ((6, 6, 6, 2, 1), "three_of_a_kind", 21),
    ((6, 6, 6, 2, 1), "four_of_a_kind", 0),
    ((1, 2, 3, 4, 4), "small_straight", 30),
    ((3, 4, 5, 6, 1), "small_straight", 30),
    ((1, 2, 3, 4, 5), "large_straight", 40),
    ((2, 3, 4, 5, 6), "large_straight", 40),
    ((2, 3, 4, 5, 6), "small_straight", 30),
    ((5, 5, 5, 5, 2), "four_of_a_kind", 22),
    ((3, 3, 2, 2, 2), "full_house", 25),
]

YATZY = [
    ((6, 6, 5, 3, 2), "one_pair", 12),
    ((6, 6, 4, 4, 3), "two_pairs", 20),
    ((5, 5, 5, 3, 2), "three_of_a_kind", 15),
    ((5, 5, 5, 5, 2), "four_of_a_kind", 20),
    ((6, 6, 6, 3, 3), "full_house", 24),
    ((1, 2, 3, 4, 5), "small_straight", 15),
    ((2, 3, 4, 5, 6), "large_straight", 20),
    ((2, 3, 4, 5, 6), "small_straight", 0),
    ((1, 2, 3, 4, 5), "large_straight", 0),
    ((1, 2, 3, 4, 4), "small_straight", 0),
    ((4, 4, 4, 4, 4), "one_pair", 8),
    ((4, 4, 4, 4, 4), "three_of_a_kind", 12),
    ((4, 4, 4, 4, 4), "four_of_a_kind", 16),
    ((4, 4, 4, 4, 4), "two_pairs", 0),
    ((4, 4, 4, 4, 4), "full_house", 0),
    ((4, 4, 4, 4, 4), "yatzy", 50),
    ((5, 5, 5, 5, 2), "two_pairs", 0),  # pairs of different faces only
    ((6, 6, 6, 5, 5), "one_pair", 12),  # highest reading counts
    ((6, 6, 6, 5, 5), "two_pairs", 22),
    ((1, 2, 3, 5, 6), "chance", 17),
]

MAXI = [
    ((6, 6, 5, 3, 2, 1), "one_pair", 12),
    ((6, 6, 4, 4, 3, 1), "two_pairs", 20),
    ((6, 6, 5, 5, 2, 2), "three_pairs", 26),
    ((6, 6, 5, 5, 2, 2), "two_pairs", 22),
    ((5, 5, 5, 3, 2, 1), "three_of_a_kind", 15),
    ((5, 5, 5, 5, 2, 1), "four_of_a_kind", 20),
    ((4, 4, 4, 4, 4, 2), "five_of_a_kind", 20),
    ((6, 6, 6, 3, 3, 1), "full_house", 24),
    ((5, 5, 5, 2, 2, 2), "villa", 21),
    ((5, 5, 5, 2, 2, 2), "full_house", 19),
    ((6, 6, 6, 6, 2, 2), "tower", 28),
    ((6, 6, 6, 6, 2, 2), "three_pairs", 0),
    ((6, 6, 6, 6, 2, 2), "two_pairs", 16),
    ((1, 2, 3, 4, 5, 5), "small_straight", 15),
    ((2, 3, 4, 5, 6, 6), "large_straight", 20),
    ((1, 2, 3, 4, 5, 6), "full_straight", 21),
    ((1, 2, 3, 4, 5, 6), "small_straight", 15),
    ((1, 2, 3, 4, 5, 6), "large_straight", 20),
    ((3, 3, 3, 3, 3, 3), "maxi_yatzy", 100),
    ((3, 3, 3, 3, 3, 3), "five_of_a_kind", 15),
    ((3, 3, 3, 3, 3, 3), "villa", 0),
    ((3, 3, 3, 3, 3, 3), "tower", 0),
    ((6, 5, 4, 3, 2, 1), "chance", 21),
]

YACHT = [
    ((2, 2, 2, 2, 2), "full_house", 10),
    ((3, 3, 3, 1, 1), "full_house", 11),
    ((3, 3, 3, 3, 1), "full_house", 0),
    ((3, 3, 3, 3, 1), "four_of_a_kind", 13),
    ((3, 3, 3, 3, 3), "four_of_a_kind", 15),
    ((1, 2, 3, 4, 6), "small_straight", 15),
    ((1, 2, 3, 4, 5), "large_straight", 30),
    ((5, 5, 5, 5, 5), "yacht", 50),
    ((1, 2, 3, 4, 6), "choice", 16),
]


@pytest.mark.parametrize(("dice", "box", "expected"), YAHTZEE)
def test_yahtzee(dice, box, expected):
    assert points("yahtzee", dice, box) == expected
    assert points("kniffel", dice, box) == expected


@pytest.mark.parametrize(("dice", "box", "expected"), YATZY)
def test_yatzy(dice, box, expected):
    assert points("yatzy", dice, box) == expected


@pytest.mark.parametrize(("dice", "box", "expected"), MAXI)
def test_maxi_yatzy(dice, box, expected):
    assert points("maxi-yatzy", dice, box) == expected


@pytest.mark.parametrize(("dice", "box", "expected"), YACHT)
def test_yacht(dice, box, expected):
    assert points("yacht", dice, box) == expected


@pytest.mark.parametrize("value", [25, 30])
def test_maxi_full_straight_option(value):
    assert points("maxi-yatzy", (1, 2, 3, 4, 5, 6), "full_straight", full_straight=value) == value


def test_box_counts_and_ids():
    assert len(get_ruleset("yahtzee").boxes) == 13
    assert len(get_ruleset("yatzy").boxes) == 15
    assert len(get_ruleset("maxi-yatzy").boxes) == 20
    assert len(get_ruleset("yacht").boxes) == 12
    assert get_ruleset("yacht").box_ids[6:] == (
        "choice", "four_of_a_kind", "full_house", "small_straight", "large_straight", "yacht",
    )


def test_order_of_dice_does_not_matter():
    rules = get_ruleset("maxi-yatzy")
    assert all(tuple(sorted(k)) == k for k in rules.table)
    assert len(rules.table) == 462
