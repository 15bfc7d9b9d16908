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

    @property
    def upper_total(self) -> int:
        """The sum of the filled upper boxes."""
        return sum(self.scores[i] or 0 for i in self.rules.upper_indices)

    @property
    def upper_bonus(self) -> int:
        """The upper bonus, once earned."""
        if self.rules.upper_bonus and self.upper_total >= self.rules.upper_bonus_threshold:
            return self.rules.upper_bonus
        return 0

    @property
    def upper_to_go(self) -> int:
        """Points still missing for the upper bonus (0 once reached)."""
        return max(0, self.rules.upper_bonus_threshold - self.upper_total)

    @property
    def total(self) -> int:
        """Everything scored so far, bonuses included."""
        boxes = sum(s for s in self.scores if s is not None)
        return boxes + self.upper_bonus + self.extra_bonus

    def as_dict(self) -> dict[str, int | None]:
        """Box id to points (``None`` while open), in printed order."""
        return dict(zip(self.rules.box_ids, self.scores, strict=True))
