"""The variants of the family, as in ``shared/rules.md``, and their rule options.

>>> from daily.rules import get_ruleset
>>> get_ruleset("kniffel").name
'yahtzee'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from daily.rules import combos as c
from daily.rules.ruleset import Box, OptionSpec, OptionValue, Ruleset

UPPER_IDS = ("ones", "twos", "threes", "fours", "fives", "sixes")

FORCED_ORDER = OptionSpec(
    "forced_order", False, (False, True), "Boxes must be filled top to bottom in printed order."
)


def _upper_boxes() -> list[Box]:
    return [Box(name, True, c.upper(face)) for face, name in enumerate(UPPER_IDS, start=1)]


@dataclass(frozen=True)
class Variant:
    """A registry entry: a name, its aliases, its options and how to build the ruleset."""

    name: str
    aliases: tuple[str, ...]
    title: str
    options: tuple[OptionSpec, ...]
    build: Callable[[Mapping[str, OptionValue], tuple[OptionSpec, ...]], Ruleset]


def _yahtzee(opts: Mapping[str, OptionValue], specs: tuple[OptionSpec, ...]) -> Ruleset:
    boxes = [
        *_upper_boxes(),
        Box("three_of_a_kind", False, c.n_of_a_kind_sum_all(3)),
        Box("four_of_a_kind", False, c.n_of_a_kind_sum_all(4)),
        Box("full_house", False, c.two_groups(3, 2, 25), joker_points=25),
        Box("small_straight", False, c.run_of(4, 30), joker_points=30),
        Box("large_straight", False, c.run_of(5, 40), joker_points=40),
        Box("yahtzee", False, c.all_alike(50)),
        Box("chance", False, c.chance),
    ]
    return Ruleset(
        name="yahtzee",
        title="Yahtzee",
        dice=5,
        boxes=tuple(boxes),
        upper_bonus_threshold=63,
        upper_bonus=35 if opts["upper_bonus"] else 0,
        options=dict(opts),
        option_specs=specs,
        yahtzee_box="yahtzee",
        extra_yahtzee_bonus=100 if opts["extra_yahtzee_bonus"] else 0,
        joker=bool(opts["joker"]),
        forced_order=bool(opts["forced_order"]),
    )


def _yatzy(opts: Mapping[str, OptionValue], specs: tuple[OptionSpec, ...]) -> Ruleset:
    boxes = [
        *_upper_boxes(),
        Box("one_pair", False, c.n_of_a_kind_matching(2)),
        Box("two_pairs", False, c.distinct_pairs(2)),
        Box("three_of_a_kind", False, c.n_of_a_kind_matching(3)),
        Box("four_of_a_kind", False, c.n_of_a_kind_matching(4)),
        Box("small_straight", False, c.exact_faces((1, 2, 3, 4, 5), 15)),
        Box("large_straight", False, c.exact_faces((2, 3, 4, 5, 6), 20)),
        Box("full_house", False, c.two_groups(3, 2)),
        Box("chance", False, c.chance),
        Box("yatzy", False, c.all_alike(50)),
    ]
    return Ruleset(
        name="yatzy",
        title="Yatzy",
        dice=5,
        boxes=tuple(boxes),
        upper_bonus_threshold=63,
        upper_bonus=50,
        options=dict(opts),
        option_specs=specs,
        forced_order=bool(opts["forced_order"]),
    )


MAXI_BONUS_EDITIONS = {"100-at-84": (84, 100), "50-at-75": (75, 50)}


def _maxi_yatzy(opts: Mapping[str, OptionValue], specs: tuple[OptionSpec, ...]) -> Ruleset:
    threshold, bonus = MAXI_BONUS_EDITIONS[str(opts["upper_bonus"])]
    boxes = [
        *_upper_boxes(),
        Box("one_pair", False, c.n_of_a_kind_matching(2)),
        Box("two_pairs", False, c.distinct_pairs(2)),
        Box("three_pairs", False, c.distinct_pairs(3)),
        Box("three_of_a_kind", False, c.n_of_a_kind_matching(3)),
        Box("four_of_a_kind", False, c.n_of_a_kind_matching(4)),
        Box("five_of_a_kind", False, c.n_of_a_kind_matching(5)),
        Box("full_house", False, c.two_groups(3, 2)),
        Box("villa", False, c.two_groups(3, 3)),
        Box("tower", False, c.two_groups(4, 2)),
        Box("small_straight", False, c.exact_faces((1, 2, 3, 4, 5), 15)),
        Box("large_straight", False, c.exact_faces((2, 3, 4, 5, 6), 20)),
        Box("full_straight", False, c.exact_faces((1, 2, 3, 4, 5, 6), int(opts["full_straight"]))),
        Box("chance", False, c.chance),
        Box("maxi_yatzy", False, c.all_alike(100)),
    ]
    return Ruleset(
        name="maxi-yatzy",
        title="Maxi Yatzy",
        dice=6,
        boxes=tuple(boxes),
        upper_bonus_threshold=threshold,
        upper_bonus=bonus,
        options=dict(opts),
        option_specs=specs,
        forced_order=bool(opts["forced_order"]),
        saved_rolls=bool(opts["saved_rolls"]),
    )


def _yacht(opts: Mapping[str, OptionValue], specs: tuple[OptionSpec, ...]) -> Ruleset:
    boxes = [
        *_upper_boxes(),
        Box("choice", False, c.chance),
        Box("four_of_a_kind", False, c.n_of_a_kind_sum_all(4)),
        Box("full_house", False, c.full_house_or_five),
        Box("small_straight", False, c.run_of(4, 15)),
        Box("large_straight", False, c.run_of(5, 30)),
        Box("yacht", False, c.all_alike(50)),
    ]
    return Ruleset(
        name="yacht",
        title="Yacht",
        dice=5,
        boxes=tuple(boxes),
        upper_bonus_threshold=63,
        upper_bonus=35,
        options=dict(opts),
        option_specs=specs,
        forced_order=bool(opts["forced_order"]),
    )


VARIANTS: tuple[Variant, ...] = (
    Variant(
        "yahtzee",
        ("kniffel",),
        "Yahtzee",
        (
            FORCED_ORDER,
            OptionSpec("joker", True, (True, False), "The forced joker rule for extra Yahtzees."),
            OptionSpec("upper_bonus", True, (True, False), "35 points for 63 in the upper boxes."),
            OptionSpec(
                "extra_yahtzee_bonus",
                True,
                (True, False),
                "+100 for each extra Yahtzee while the yahtzee box holds 50.",
            ),
        ),
        _yahtzee,
    ),
    Variant("yatzy", ("scandinavian-yatzy",), "Yatzy", (FORCED_ORDER,), _yatzy),
    Variant(
        "maxi-yatzy",
        ("maxi",),
        "Maxi Yatzy",
        (
            FORCED_ORDER,
            OptionSpec(
                "upper_bonus",
                "100-at-84",
                tuple(MAXI_BONUS_EDITIONS),
                "Upper bonus edition: 100 at 84 or 50 at 75.",
            ),
            OptionSpec("full_straight", 21, (21, 25, 30), "Points for 1-2-3-4-5-6."),
            OptionSpec(
                "saved_rolls", False, (False, True), "Unused rolls are banked for later turns."
            ),
        ),
        _maxi_yatzy,
    ),
    Variant("yacht", (), "Yacht", (FORCED_ORDER,), _yacht),
)
