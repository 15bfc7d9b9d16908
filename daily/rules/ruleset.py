"""The :class:`Ruleset` type: a game's boxes, dice, bonuses and rule options as data.

A ruleset is immutable. Its :attr:`Ruleset.table` maps every sorted roll to the raw
points of every box, so scoring during replay is one dictionary look-up; joker values
and placement rules live in :mod:`daily.rules.placement`.

>>> from daily.rules import get_ruleset
>>> rules = get_ruleset("yahtzee")
>>> rules.dice, len(rules.boxes), rules.box_index("chance")
(5, 13, 12)
>>> rules.table[(2, 3, 4, 5, 5)][rules.box_index("small_straight")]
30
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from daily.errors import RulesetError
from daily.rules.combos import Scorer, counts_of

OptionValue = bool | int | str


@dataclass(frozen=True)
class Box:
    """One box of the score card.

    ``joker_points`` is what the box scores under Yahtzee's forced joker rule when it
    differs from the normal scorer (full house 25, straights 30 and 40).
    ``served_points`` is what a met combination scores when it stands on the turn's
    first roll (Generala's served combinations), when that differs. ``column`` is the
    0-based column of a multi-column card (Triple Yahtzee), 0 elsewhere.
    """

    id: str
    upper: bool
    scorer: Scorer = field(repr=False, compare=False)
    joker_points: int | None = None
    served_points: int | None = None
    column: int = 0


@dataclass(frozen=True)
class OptionSpec:
    """A rule option: its name, default, allowed values and what it means."""

    name: str
    default: OptionValue
    choices: tuple[OptionValue, ...]
    doc: str

    def check(self, value: Any, ruleset: str) -> OptionValue:
        """The value, if allowed; otherwise a :class:`RulesetError` naming the option.

        >>> OptionSpec("saved_rolls", False, (False, True), "").check(True, "maxi-yatzy")
        True
        """
        ok = any(type(value) is type(c) and value == c for c in self.choices)
        if not ok:
            allowed = ", ".join(_show(c) for c in self.choices)
            raise RulesetError(
                f"option {self.name!r} of {ruleset} is {_show(value)}; allowed: {allowed}",
                field=f"options.{self.name}",
            )
        return value


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value)


@dataclass(frozen=True)
class Ruleset:
    """A fully resolved game: a variant with every rule option decided."""

    name: str
    title: str
    dice: int
    boxes: tuple[Box, ...]
    upper_bonus_threshold: int
    upper_bonus: int
    options: Mapping[str, OptionValue]
    option_specs: tuple[OptionSpec, ...] = field(repr=False, compare=False)
    rolls_per_turn: int = 3
    yahtzee_box: str | None = None
    extra_yahtzee_bonus: int = 0
    joker: bool = False
    forced_order: bool = False
    saved_rolls: bool = False
    #: A box that scores only once :attr:`yahtzee_box` holds points (doble_generala).
    double_box: str | None = None
    #: Column weights of the card: ``(1,)`` for a one-column card, ``(1, 2, 3)`` for
    #: Triple Yahtzee, where each column's total (its bonus included) is multiplied.
    weights: tuple[int, ...] = (1,)
    #: A served combination in :attr:`yahtzee_box` ends the game as a win (Generala).
    served_wins: bool = False

    @cached_property
    def box_ids(self) -> tuple[str, ...]:
        """The canonical box ids in printed order."""
        return tuple(b.id for b in self.boxes)

    @cached_property
    def _index(self) -> dict[str, int]:
        return {b.id: i for i, b in enumerate(self.boxes)}

    @cached_property
    def upper_indices(self) -> tuple[int, ...]:
        """Indices of ones .. sixes, in face order."""
        return tuple(i for i, b in enumerate(self.boxes) if b.upper)

    @cached_property
    def yahtzee_index(self) -> int | None:
        """Index of the box whose filling enables extra-Yahtzee bonuses and jokers.

        On a multi-column card, the one of the first column (see :meth:`column_yahtzee`).
        """
        return None if self.yahtzee_box is None else self._index[self.yahtzee_box]

    @cached_property
    def double_index(self) -> int | None:
        """Index of :attr:`double_box` (``None`` without one)."""
        return None if self.double_box is None else self._index[self.double_box]

    @cached_property
    def columns(self) -> tuple[tuple[int, ...], ...]:
        """The box indices of each column, in printed order.

        >>> from daily.rules import get_ruleset
        >>> [len(c) for c in get_ruleset("triple-yahtzee").columns]
        [13, 13, 13]
        """
        return tuple(
            tuple(i for i, b in enumerate(self.boxes) if b.column == c)
            for c in range(len(self.weights))
        )

    @cached_property
    def column_upper(self) -> tuple[tuple[int, ...], ...]:
        """Per column, the indices of its ones .. sixes in face order."""
        return tuple(tuple(i for i in col if self.boxes[i].upper) for col in self.columns)

    @cached_property
    def column_lower(self) -> tuple[tuple[int, ...], ...]:
        """Per column, the indices of its other boxes (all but ones .. sixes).

        >>> from daily.rules import get_ruleset
        >>> get_ruleset("yacht").column_lower
        ((6, 7, 8, 9, 10, 11),)
        """
        return tuple(
            tuple(i for i in col if i not in upper)
            for col, upper in zip(self.columns, self.column_upper, strict=True)
        )

    @cached_property
    def column_yahtzee(self) -> tuple[int | None, ...]:
        """Per column, the index of its yahtzee box (``None`` in games without one).

        >>> from daily.rules import get_ruleset
        >>> get_ruleset("triple-yahtzee").column_yahtzee
        (11, 24, 37)
        """
        if self.yahtzee_box is None:
            return (None,) * len(self.weights)
        suffix = self.yahtzee_box.split(".")[-1]
        return tuple(
            next(i for i in col if self.boxes[i].id.split(".")[-1] == suffix)
            for col in self.columns
        )

    @cached_property
    def served(self) -> bool:
        """Some box scores more when its combination is served (made on the first roll)."""
        return any(b.served_points is not None for b in self.boxes)

    @cached_property
    def served_table(self) -> dict[tuple[int, ...], tuple[int, ...]]:
        """Like :attr:`table`, for a roll scored on the turn's first roll.

        >>> from daily.rules import get_ruleset
        >>> rules = get_ruleset("generala")
        >>> rules.table[(3, 3, 3, 5, 5)][7], rules.served_table[(3, 3, 3, 5, 5)][7]
        (30, 35)
        """
        if not self.served:
            return self.table
        return {
            roll: tuple(
                b.served_points if p and b.served_points is not None else p
                for b, p in zip(self.boxes, raw, strict=True)
            )
            for roll, raw in self.table.items()
        }

    @cached_property
    def table(self) -> dict[tuple[int, ...], tuple[int, ...]]:
        """Raw points of every box for every sorted roll of :attr:`dice` dice."""
        out = {}
        for roll in itertools.combinations_with_replacement(range(1, 7), self.dice):
            counts = counts_of(roll)
            out[roll] = tuple(b.scorer(counts) for b in self.boxes)
        return out

    @cached_property
    def turns(self) -> int:
        """A game has one turn per box."""
        return len(self.boxes)

    def box_index(self, box_id: str) -> int:
        """Index of a box id; a :class:`RulesetError` for an id this game lacks.

        >>> from daily.rules import get_ruleset
        >>> get_ruleset("yatzy").box_index("yatzy")
        14
        """
        try:
            return self._index[box_id]
        except (KeyError, TypeError):
            raise RulesetError(
                f"{self.name} has no box {box_id!r}; boxes: {', '.join(self.box_ids)}",
                field="box",
            ) from None

    def non_default_options(self) -> dict[str, OptionValue]:
        """The options that differ from the variant's defaults, in name order.

        >>> from daily.rules import get_ruleset
        >>> get_ruleset("maxi-yatzy", {"full_straight": 30}).non_default_options()
        {'full_straight': 30}
        """
        return dict(self.non_default_items)

    @cached_property
    def non_default_items(self) -> tuple[tuple[str, OptionValue], ...]:
        """:meth:`non_default_options` as pairs, computed once (what a move log names).

        >>> from daily.rules import get_ruleset
        >>> get_ruleset("maxi-yatzy", {"full_straight": 30}).non_default_items
        (('full_straight', 30),)
        """
        defaults = {s.name: s.default for s in self.option_specs}
        return tuple((k, v) for k, v in sorted(self.options.items()) if defaults[k] != v)

    def max_rolls(self, bank: int = 0) -> int:
        """Rolls allowed this turn, counting rolls banked from earlier turns."""
        return self.rolls_per_turn + (bank if self.saved_rolls else 0)
