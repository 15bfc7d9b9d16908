"""The score card: what each box holds, and the totals players see.

>>> from daily.rules import get_ruleset
>>> card = Card.empty(get_ruleset("yahtzee"))
>>> card = card.fill(card.rules.box_index("sixes"), 30, 0)
>>> card.upper_total, card.upper_to_go, card.total
(30, 33, 30)
"""

from __future__ import annotations

from typing import NamedTuple

from daily.rules import Ruleset


class ColumnTotals(NamedTuple):
    """One column of a card: its upper total and bonus, its lower total, its weight."""

    upper: int
    bonus: int
    lower: int
    weight: int

    @property
    def total(self) -> int:
        """The column's own total, before its weight."""
        return self.upper + self.bonus + self.lower


class Card(NamedTuple):
    """An immutable score card: one entry per box (``None`` while open).

    A named tuple rather than a dataclass because replay builds one per turn.
    """

    rules: Ruleset
    scores: tuple[int | None, ...]
    extra_bonus: int = 0
    extra_count: int = 0

    @classmethod
    def empty(cls, rules: Ruleset) -> Card:
        """A card with every box open."""
        return cls(rules, (None,) * len(rules.boxes))

    def fill(self, index: int, points: int, bonus: int) -> Card:
        """A new card with box ``index`` holding ``points`` and ``bonus`` added."""
        scores = self.scores
        return Card(
            self.rules,
            (*scores[:index], points, *scores[index + 1 :]),
            self.extra_bonus + bonus,
            self.extra_count + (1 if bonus else 0),
        )

    @property
    def open_boxes(self) -> tuple[str, ...]:
        """Ids of the boxes still open, in printed order."""
        return tuple(b.id for b, s in zip(self.rules.boxes, self.scores, strict=True) if s is None)

    @property
    def complete(self) -> bool:
        """Every box is filled."""
        return all(s is not None for s in self.scores)

    def column(self, column: int) -> ColumnTotals:
        """The unweighted totals of one column (the only one on most cards).

        >>> from daily.rules import get_ruleset
        >>> card = Card.empty(get_ruleset("triple-yahtzee"))
        >>> card.fill(card.rules.box_index("2.chance"), 20, 0).column(1)
        ColumnTotals(upper=0, bonus=0, lower=20, weight=2)
        """
        rules = self.rules
        scores = self.scores
        upper = sum([scores[i] or 0 for i in rules.column_upper[column]])
        lower = sum([scores[i] or 0 for i in rules.column_lower[column]])
        bonus = 0
        if rules.upper_bonus and upper >= rules.upper_bonus_threshold:
            bonus = rules.upper_bonus
        return ColumnTotals(upper, bonus, lower, rules.weights[column])

    @property
    def columns(self) -> tuple[ColumnTotals, ...]:
        """The totals of every column."""
        return tuple(self.column(c) for c in range(len(self.rules.weights)))

    @property
    def upper_total(self) -> int:
        """The sum of the filled upper boxes (weighted by column on a multi-column card)."""
        return sum(c.upper * c.weight for c in self.columns)

    @property
    def upper_bonus(self) -> int:
        """The upper bonus, once earned (weighted by column on a multi-column card)."""
        return sum(c.bonus * c.weight for c in self.columns)

    @property
    def upper_to_go(self) -> int:
        """Points still missing for the upper bonus (0 once reached), summed over columns."""
        return sum(max(0, self.rules.upper_bonus_threshold - c.upper) for c in self.columns)

    @property
    def total(self) -> int:
        """Everything scored so far, bonuses included, columns weighted."""
        boxes = sum((c.upper + c.bonus + c.lower) * c.weight for c in self.columns)
        return boxes + self.extra_bonus

    def as_dict(self) -> dict[str, int | None]:
        """Box id to points (``None`` while open), in printed order."""
        return dict(zip(self.rules.box_ids, self.scores, strict=True))
