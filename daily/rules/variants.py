"""The variants of the family, as in ``docs/rules.md``, and their rule options.

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
    boxes = _yahtzee_boxes()
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


GENERALA_POINTS = {"50-60": (50, 60), "40-50": (40, 50)}


def _generala(opts: Mapping[str, OptionValue], specs: tuple[OptionSpec, ...]) -> Ruleset:
    later, served = GENERALA_POINTS[str(opts["generala_points"])]
    missing = (6, 1, 2) if opts["ace_high"] else (6, 1)
    boxes = [
        *_upper_boxes(),
        Box("escalera", False, c.five_distinct_without(missing, 20), served_points=25),
        Box("full", False, c.two_groups(3, 2, 30), served_points=35),
        Box("poker", False, c.at_least_alike(4, 40), served_points=45),
        Box("generala", False, c.all_alike(later), served_points=served),
    ]
    double = bool(opts["double_generala"])
    if double:
        boxes.append(Box("doble_generala", False, c.all_alike(100)))
    return Ruleset(
        name="generala",
        title="Generala",
        dice=5,
        boxes=tuple(boxes),
        upper_bonus_threshold=0,
        upper_bonus=0,
        options=dict(opts),
        option_specs=specs,
        yahtzee_box="generala",
        double_box="doble_generala" if double else None,
        served_wins=bool(opts["served_generala_wins"]),
    )


def _yahtzee_boxes(prefix: str = "", column: int = 0) -> list[Box]:
    """The 13 boxes of a Yahtzee card (ids prefixed for a column of a wider card)."""
    upper = [
        Box(prefix + name, True, c.upper(face), column=column)
        for face, name in enumerate(UPPER_IDS, start=1)
    ]
    return [
        *upper,
        Box(prefix + "three_of_a_kind", False, c.n_of_a_kind_sum_all(3), column=column),
        Box(prefix + "four_of_a_kind", False, c.n_of_a_kind_sum_all(4), column=column),
        Box(prefix + "full_house", False, c.two_groups(3, 2, 25), joker_points=25, column=column),
        Box(prefix + "small_straight", False, c.run_of(4, 30), joker_points=30, column=column),
        Box(prefix + "large_straight", False, c.run_of(5, 40), joker_points=40, column=column),
        Box(prefix + "yahtzee", False, c.all_alike(50), column=column),
        Box(prefix + "chance", False, c.chance, column=column),
    ]


TRIPLE_WEIGHTS = (1, 2, 3)


def _triple_yahtzee(opts: Mapping[str, OptionValue], specs: tuple[OptionSpec, ...]) -> Ruleset:
    boxes = [b for col in range(3) for b in _yahtzee_boxes(f"{col + 1}.", col)]
    joker = bool(opts["joker"])
    return Ruleset(
        name="triple-yahtzee",
        title="Triple Yahtzee",
        dice=5,
        boxes=tuple(boxes),
        upper_bonus_threshold=63,
        upper_bonus=35,
        options=dict(opts),
        option_specs=specs,
        yahtzee_box="1.yahtzee",
        extra_yahtzee_bonus=100 if joker else 0,
        joker=joker,
        weights=TRIPLE_WEIGHTS,
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
    Variant(
        "generala",
        (),
        "Generala",
        (
            OptionSpec("ace_high", True, (True, False), "3-4-5-6-1 counts as an escalera."),
            OptionSpec(
                "double_generala",
                True,
                (True, False),
                "The doble_generala box: 100 for five alike once generala holds points.",
            ),
            OptionSpec(
                "generala_points",
                "50-60",
                tuple(GENERALA_POINTS),
                "Generala made on a later roll / served: 50 and 60, or 40 and 50.",
            ),
            OptionSpec(
                "served_generala_wins",
                False,
                (False, True),
                "A served Generala scored in the generala box ends the game as a win.",
            ),
        ),
        _generala,
    ),
    Variant(
        "triple-yahtzee",
        ("triple",),
        "Triple Yahtzee",
        (
            OptionSpec(
                "joker",
                False,
                (False, True),
                "Yahtzee's forced joker rule and +100 extra-Yahtzee bonus, per column.",
            ),
        ),
        _triple_yahtzee,
    ),
)
