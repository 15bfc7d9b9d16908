"""Where a roll may go: legal boxes, their points, and extra-Yahtzee bonuses.

This is the one implementation of the placement rules (forced order, Yahtzee's forced
joker rule and extra-Yahtzee bonus, Generala's served combinations and doble_generala,
the columns of Triple Yahtzee), used by the game, replay and the strategy engine.
A card state is given as ``scores``, a sequence with one entry per box, ``None`` for
an open box. ``first_roll`` says whether the dice stand on the turn's first roll (a
served combination in Generala); the game passes it from its roll counter.

>>> from daily.rules import get_ruleset
>>> rules = get_ruleset("yahtzee")
>>> scores = [None] * 13
>>> scores[rules.box_index("yahtzee")] = 50
>>> scores[rules.box_index("fours")] = 12
>>> turn = placements(rules, scores, (4, 4, 4, 4, 4))
>>> turn.bonus, [(p.box, p.points) for p in turn.options if p.legal][:3]
(100, [('three_of_a_kind', 20), ('four_of_a_kind', 20), ('full_house', 25)])
>>> ones = turn.get("ones")
>>> ones.reason
'joker rule: with the fours box filled, five 4s must go in an open lower box'
>>> ones.why.to_json()
{'code': 'joker_lower_first', 'box': 'fours'}

Each refusal has a machine code (:class:`Reason`) that clients translate, and an English
sentence for people reading logs and the terminal:

=====================  =========================================================
code                   meaning (``box`` names the box it is about)
=====================  =========================================================
``forced_order``       forced order: only ``box`` (the first open box) may be filled
``joker_upper_open``   joker rule: five alike must go in the open upper ``box``
``joker_lower_first``  joker rule: the upper ``box`` is filled, so five alike go in
                       an open lower box
=====================  =========================================================
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from daily.rules.ruleset import Ruleset

FACE_WORDS = ("1s", "2s", "3s", "4s", "5s", "6s")


@dataclass(frozen=True)
class Reason:
    """Why a box may not be chosen: a machine code, the box it is about, and the text.

    >>> Reason("forced_order", "ones", "forced order: fill the boxes top to bottom").to_json()
    {'code': 'forced_order', 'box': 'ones'}
    """

    code: str
    box: str
    text: str

    def to_json(self) -> dict[str, str]:
        """The machine form a client translates: ``{"code", "box"}``."""
        return {"code": self.code, "box": self.box}


class Placement(NamedTuple):
    """One open box for the current roll: its points, and whether it may be chosen.

    A named tuple rather than a frozen dataclass: every state document builds one per
    open box, and a named tuple is made in a tenth of the time.

    >>> Placement("chance", 12, 17, True).reason is None
    True
    """

    box: str
    index: int  # type: ignore[assignment]  # shadows tuple.index, never called on one
    points: int
    legal: bool
    why: Reason | None = None
    bonus: int = 0

    @property
    def reason(self) -> str | None:
        """Why the box may not be chosen, in English (``None`` when it may)."""
        return self.why.text if self.why else None


@dataclass(frozen=True)
class TurnOptions:
    """Every open box for a roll, and the extra-Yahtzee bonus the roll earns.

    On a multi-column card the bonus depends on the column: each placement carries its
    own, and ``bonus`` is the largest of them.
    """

    options: tuple[Placement, ...]
    bonus: int
    joker: bool

    def legal(self) -> tuple[Placement, ...]:
        """Only the boxes that may be chosen."""
        return tuple(p for p in self.options if p.legal)

    def get(self, box: str) -> Placement | None:
        """The entry for ``box`` if it is open."""
        for p in self.options:
            if p.box == box:
                return p
        return None


def is_all_alike(dice: Sequence[int]) -> bool:
    """Every die shows the same face.

    >>> is_all_alike((2, 2, 2, 2, 2)), is_all_alike((2, 2, 2, 2, 3))
    (True, False)
    """
    first = dice[0]
    return all(d == first for d in dice)


def extra_bonus(
    rules: Ruleset, scores: Sequence[int | None], dice: Sequence[int], column: int = 0
) -> int:
    """The extra-Yahtzee bonus this roll earns when scored in ``column`` (0 in most games).

    >>> from daily.rules import get_ruleset
    >>> rules = get_ruleset("yahtzee")
    >>> extra_bonus(rules, [None] * 12 + [0], (3, 3, 3, 3, 3))
    0
    """
    if not is_all_alike(dice):
        return 0
    return _column_context(rules, scores, column)[1]


def _column_context(rules: Ruleset, scores: Sequence[int | None], column: int) -> tuple[bool, int]:
    """For a five-alike roll: whether the joker applies in ``column``, and its bonus."""
    yi = rules.column_yahtzee[column]
    if yi is None or scores[yi] is None:
        return False, 0
    bonus = rules.extra_yahtzee_bonus if scores[yi] == 50 else 0
    return bool(rules.joker), bonus


def _raw(rules: Ruleset, key: tuple[int, ...], first_roll: bool) -> tuple[int, ...]:
    return rules.served_table[key] if first_roll and rules.served else rules.table[key]


def _forbidden(
    rules: Ruleset, scores: Sequence[int | None], face: int, jokers: Sequence[bool]
) -> dict[int, Reason]:
    """Why each open box may not be chosen now, by index (empty: all are allowed)."""
    if rules.forced_order:
        open_idx = [i for i, s in enumerate(scores) if s is None]
        why = Reason(
            "forced_order", rules.boxes[open_idx[0]].id,
            "forced order: fill the boxes top to bottom",
        )
        return {i: why for i in open_idx[1:]}
    out: dict[int, Reason] = {}
    for column, joker in enumerate(jokers):
        if joker:
            out.update(_joker_reasons(rules, scores, face, column))
    return out


def _points(
    rules: Ruleset, scores: Sequence[int | None], raw: tuple[int, ...], index: int, joker: bool
) -> int:
    box = rules.boxes[index]
    if joker and not box.upper and box.joker_points is not None:
        return box.joker_points
    if index == rules.double_index:
        gi = rules.yahtzee_index
        return raw[index] if gi is not None and scores[gi] else 0
    return raw[index]


def placements(
    rules: Ruleset,
    scores: Sequence[int | None],
    dice: Sequence[int],
    *,
    first_roll: bool = False,
) -> TurnOptions:
    """Every open box with its points for ``dice``, and which of them are legal.

    >>> from daily.rules import get_ruleset
    >>> rules = get_ruleset("yatzy", {"forced_order": True})
    >>> [p.box for p in placements(rules, [None] * 15, (1, 1, 2, 3, 4)).legal()]
    ['ones']
    >>> generala = get_ruleset("generala")
    >>> placements(generala, [None] * 11, (2, 2, 2, 5, 5), first_roll=True).get("full").points
    35
    """
    key = tuple(sorted(dice))
    raw = _raw(rules, key, first_roll)
    if key[0] != key[-1] and not rules.forced_order and rules.double_index is None:
        # the common case (as in place): no joker, no bonus, free choice, raw points
        ids = rules.box_ids
        return TurnOptions(
            tuple([Placement(ids[i], i, raw[i], True) for i, s in enumerate(scores) if s is None]),
            0, False,
        )
    return _placements(rules, scores, key, raw)


def _placements(
    rules: Ruleset, scores: Sequence[int | None], key: tuple[int, ...], raw: tuple[int, ...]
) -> TurnOptions:
    """:func:`placements` in every case (``key``: the sorted dice, ``raw``: their points)."""
    alike = key[0] == key[-1]
    ncols = len(rules.weights)
    context = [_column_context(rules, scores, c) if alike else (False, 0) for c in range(ncols)]
    jokers = [j for j, _ in context]
    reasons = _forbidden(rules, scores, key[0], jokers)
    out = []
    for i, s in enumerate(scores):
        if s is not None:
            continue
        column = rules.boxes[i].column
        joker, bonus = context[column]
        points = _points(rules, scores, raw, i, joker)
        out.append(Placement(rules.boxes[i].id, i, points, i not in reasons, reasons.get(i), bonus))
    best_bonus = max((b for _, b in context), default=0)
    return TurnOptions(tuple(out), best_bonus, any(jokers))


def place(
    rules: Ruleset,
    scores: Sequence[int | None],
    dice: Sequence[int],
    index: int,
    *,
    first_roll: bool = False,
) -> tuple[int, int, Reason | None]:
    """Points and extra bonus of putting ``dice`` in open box ``index``, and why not.

    The third item is ``None`` when the move is legal, else the reason it is not.
    This is the fast path of :func:`placements` for one box (used by replay).

    >>> from daily.rules import get_ruleset
    >>> rules = get_ruleset("yahtzee")
    >>> place(rules, [None] * 13, (2, 3, 4, 5, 6), rules.box_index("large_straight"))
    (40, 0, None)
    """
    key = tuple(sorted(dice))
    if key[0] != key[-1] and not rules.forced_order:  # the common case: no joker, free choice
        return _raw(rules, key, first_roll)[index], 0, None
    raw = _raw(rules, key, first_roll)
    column = rules.boxes[index].column
    joker, bonus = _column_context(rules, scores, column) if key[0] == key[-1] else (False, 0)
    if rules.forced_order or joker:
        jokers = [joker if c == column else False for c in range(len(rules.weights))]
        reason = _forbidden(rules, scores, key[0], jokers).get(index)
    else:
        reason = None
    return _points(rules, scores, raw, index, joker), bonus, reason


def _joker_reasons(
    rules: Ruleset, scores: Sequence[int | None], face: int, column: int
) -> dict[int, Reason]:
    """Why each open box of ``column`` is forbidden under the forced joker rule."""
    open_idx = [i for i in rules.columns[column] if scores[i] is None]
    matching = rules.column_upper[column][face - 1]
    word = FACE_WORDS[face - 1]
    upper_name = rules.boxes[matching].id
    if scores[matching] is None:
        why = Reason(
            "joker_upper_open", upper_name,
            f"joker rule: five {word} must go in the {upper_name} box while it is open",
        )
        return {i: why for i in open_idx if i != matching}
    lower_open = [i for i in open_idx if not rules.boxes[i].upper]
    if lower_open:
        why = Reason(
            "joker_lower_first", upper_name,
            f"joker rule: with the {upper_name} box filled, five {word} must go in an "
            "open lower box",
        )
        return {i: why for i in open_idx if rules.boxes[i].upper}
    return {}
