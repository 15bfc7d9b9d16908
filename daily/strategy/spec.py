"""Numeric tables of a ruleset for the solver: dice multisets, raw points, state indices.

Everything here is derived from :class:`daily.rules.Ruleset` (its ``table`` of raw
points per sorted roll and its box list); the placement rules themselves (forced
order, joker, extra bonus) are mirrored by :mod:`daily.strategy.kernel` and checked
against :func:`daily.rules.placement.placements` in the tests.

A *keep* is a multiset of 0..n dice, stored as six face counts. Keeps are numbered
by size then lexicographically; the keeps of size n are the rolls.

A between-turn *state* is (mask of filled boxes, upper total capped at the bonus
threshold, whether the yahtzee box holds points: 50 in Yahtzee, the generala box's
50/60 in Generala, where it opens doble_generala), stored at index
``(mask * NU + upper) * NY + flag``.

>>> from daily.rules import get_ruleset
>>> spec = GameSpec.from_rules(get_ruleset("yahtzee"))
>>> spec.n_keeps, spec.n_rolls, spec.n_states
(462, 252, 1048576)
>>> spec.state_index(spec.card_state([None] * 13))
0
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from daily.card import Card
from daily.errors import DailyError, IllegalMoveError
from daily.game import Game
from daily.rules import Ruleset
from daily.rules.combos import counts_of
from daily.rules.variants import UPPER_IDS


class StrategyError(DailyError):
    """A strategy request that cannot be served: no table, stale table, unsupported rules."""


#: Indices into :attr:`GameSpec.params`, the integer parameters passed to the kernels.
P_DICE, P_BOXES, P_THRESHOLD, P_NU, P_NY, P_UPPER_BONUS = 0, 1, 2, 3, 4, 5
P_YBOX, P_JOKER, P_EXTRA, P_FORCED = 6, 7, 8, 9
P_ROLLS, P_NKEEPS, P_NROLLS, P_ROLL0 = 10, 11, 12, 13
P_SERVED, P_DOUBLE = 14, 15


def multisets(n: int) -> list[tuple[int, ...]]:
    """Every multiset of 0..``n`` dice as face counts, by size then lexicographically.

    >>> len(multisets(5)), multisets(1)[:3]
    (462, [(0, 0, 0, 0, 0, 0), (0, 0, 0, 0, 0, 1), (0, 0, 0, 0, 1, 0)])
    """
    out: list[tuple[int, ...]] = []
    for size in range(n + 1):
        block = [
            counts_of(c) for c in itertools.combinations_with_replacement(range(1, 7), size)
        ]
        out.extend(sorted(block))
    return out


#: The faces of a die.
_FACES = frozenset(range(1, 7))


@dataclass(frozen=True)
class Position:
    """A decision point: the card, the dice showing in slot order, and rerolls left."""

    rules: Ruleset
    scores: tuple[int | None, ...]
    dice: tuple[int, ...]
    rolls_left: int
    extra_bonus: int = 0

    def __post_init__(self) -> None:
        rules = self.rules
        if len(self.scores) != len(rules.boxes):
            raise StrategyError(
                f"a {rules.name} card has {len(rules.boxes)} boxes, not {len(self.scores)}",
                field="scores",
            )
        if None not in self.scores:
            raise StrategyError("the card is full: the game is over", field="scores")
        if len(self.dice) != rules.dice or not _FACES.issuperset(self.dice):
            raise StrategyError(
                f"{rules.name} needs {rules.dice} dice from 1 to 6, not {list(self.dice)}",
                field="dice",
            )
        if not 0 <= self.rolls_left < rules.rolls_per_turn:
            raise StrategyError(
                f"rolls left is 0 to {rules.rolls_per_turn - 1}, not {self.rolls_left}",
                field="rolls_left",
            )

    @classmethod
    def from_game(cls, game: Game) -> Position:
        """The position a game is in.

        >>> from daily.rules import get_ruleset
        >>> Position.from_game(Game.from_seed(get_ruleset("yahtzee"), bytes(32))).dice
        (5, 2, 2, 2, 3)
        """
        if game.over:
            raise IllegalMoveError("the game is over", turn=game.turn)
        return cls(game.rules, game.card.scores, game.dice, game.rolls_left, game.card.extra_bonus)

    @property
    def card(self) -> Card:
        """The score card of the position."""
        return Card(self.rules, self.scores, self.extra_bonus)

    @cached_property
    def total(self) -> int:
        """The card's total so far (computed once per position)."""
        return self.card.total

    @property
    def first_roll(self) -> bool:
        """The dice stand on the turn's first roll (a combination scored now is served).

        >>> from daily.rules import get_ruleset
        >>> Position(get_ruleset("generala"), (None,) * 11, (1, 2, 3, 4, 5), 2).first_roll
        True
        """
        return self.rolls_left == self.rules.rolls_per_turn - 1


@dataclass(frozen=True)
class CardState:
    """The between-turn state of a card: filled boxes, capped upper total, yahtzee flag."""

    mask: int
    upper: int
    flag: int


@dataclass(frozen=True, eq=False)
class GameSpec:
    """The arrays and sizes the kernels need for one ruleset."""

    rules: Ruleset
    keeps: np.ndarray  # (n_keeps, 6) face counts
    sizes: np.ndarray  # (n_keeps,)
    child: np.ndarray  # (n_keeps, 6) index of keep + one die of face f, -1 at size n
    parent: np.ndarray  # (n_keeps, 6) index of keep - one die of face f, -1 if absent
    raw: np.ndarray  # (n_rolls, boxes) raw points from Ruleset.table
    raw_served: np.ndarray  # (n_rolls, boxes) the same on the first roll (served_table)
    alike: np.ndarray  # (n_rolls,) face index 0..5 of an all-alike roll, else -1
    upper_face: np.ndarray  # (boxes,) face 1..6 of an upper box, else 0
    joker_points: np.ndarray  # (boxes,) joker points of a lower box, else -1
    reach: np.ndarray  # (64, NU) bool: upper total reachable for a set of upper boxes
    params: np.ndarray  # int64 parameters, see P_*

    @classmethod
    def from_rules(cls, rules: Ruleset) -> GameSpec:
        """Build the numeric tables of ``rules`` (any number of dice, boxes and rolls)."""
        if rules.saved_rolls:
            raise StrategyError(
                "saved rolls make the state space too large for an exact table",
                field="options.saved_rolls",
            )
        n, nb = rules.dice, len(rules.boxes)
        if nb > 24:
            raise StrategyError(
                f"{rules.name} has {nb} boxes, too many for an exact table; its bots are "
                "heuristic",
                field="ruleset",
            )
        if rules.served_wins:
            raise StrategyError(
                "a served Generala that wins outright has no expected score to maximise",
                field="options.served_generala_wins",
            )
        ks = multisets(n)
        index = {k: i for i, k in enumerate(ks)}
        keeps = np.array(ks, dtype=np.int64)
        sizes = keeps.sum(axis=1)
        child = np.full((len(ks), 6), -1, dtype=np.int64)
        parent = np.full((len(ks), 6), -1, dtype=np.int64)
        for i, k in enumerate(ks):
            for f in range(6):
                if sizes[i] < n:
                    up = list(k)
                    up[f] += 1
                    child[i, f] = index[tuple(up)]
                if k[f]:
                    down = list(k)
                    down[f] -= 1
                    parent[i, f] = index[tuple(down)]
        roll0 = int(np.searchsorted(sizes, n))
        n_rolls = len(ks) - roll0
        raw = np.zeros((n_rolls, nb), dtype=np.int64)
        raw_served = np.zeros((n_rolls, nb), dtype=np.int64)
        alike = np.full(n_rolls, -1, dtype=np.int64)
        for r in range(n_rolls):
            counts = ks[roll0 + r]
            raw[r] = rules.table[counts_to_dice(counts)]
            raw_served[r] = rules.served_table[counts_to_dice(counts)]
            if max(counts) == n:
                alike[r] = counts.index(n)
        upper_face = np.zeros(nb, dtype=np.int64)
        joker_points = np.full(nb, -1, dtype=np.int64)
        for i, box in enumerate(rules.boxes):
            if box.upper:
                upper_face[i] = UPPER_IDS.index(box.id) + 1
        for i, box in enumerate(rules.boxes):
            if not box.upper and box.joker_points is not None:
                joker_points[i] = box.joker_points
        threshold = rules.upper_bonus_threshold if rules.upper_bonus else 0
        nu = threshold + 1
        yi = rules.yahtzee_index
        di = rules.double_index
        ny = 2 if yi is not None and (rules.extra_yahtzee_bonus or di is not None) else 1
        reach = _upper_reach(sorted(int(f) for f in upper_face if f), n, threshold)
        params = np.array(
            [
                n,
                nb,
                threshold,
                nu,
                ny,
                rules.upper_bonus,
                -1 if yi is None else yi,
                int(rules.joker and yi is not None),
                rules.extra_yahtzee_bonus if yi is not None else 0,
                int(rules.forced_order),
                rules.rolls_per_turn,
                len(ks),
                n_rolls,
                roll0,
                int(rules.served),
                -1 if di is None else di,
            ],
            dtype=np.int64,
        )
        return cls(
            rules, keeps, sizes, child, parent, raw, raw_served, alike, upper_face, joker_points,
            reach, params,
        )

    @property
    def n_keeps(self) -> int:
        """Number of keeps (multisets of 0..n dice)."""
        return len(self.keeps)

    @property
    def n_rolls(self) -> int:
        """Number of distinct sorted rolls of all the dice."""
        return int(self.params[P_NROLLS])

    @property
    def roll0(self) -> int:
        """Index of the first roll among the keeps."""
        return int(self.params[P_ROLL0])

    @property
    def n_states(self) -> int:
        """Size of the value array (reachable or not)."""
        nb, nu, ny = (int(self.params[i]) for i in (P_BOXES, P_NU, P_NY))
        return (1 << nb) * nu * ny

    @property
    def threshold(self) -> int:
        """The upper total at which the bonus is earned (0 when there is no bonus)."""
        return int(self.params[P_THRESHOLD])

    @cached_property
    def keep_index(self) -> dict[tuple[int, ...], int]:
        """Keep index by face counts."""
        return {tuple(int(x) for x in k): i for i, k in enumerate(self.keeps)}

    def keep_of(self, dice: Sequence[int]) -> int:
        """The keep index of some dice (any order).

        >>> from daily.rules import get_ruleset
        >>> spec = GameSpec.from_rules(get_ruleset("yatzy"))
        >>> spec.keep_of(()), spec.keep_of((6,)), spec.keep_of((1, 1, 1, 1, 1)) - spec.roll0
        (0, 1, 251)
        """
        return self.keep_index[counts_of(dice)]

    def card_state(self, scores: Sequence[int | None]) -> CardState:
        """The between-turn state of a card given its box scores (``None`` = open).

        >>> from daily.rules import get_ruleset
        >>> spec = GameSpec.from_rules(get_ruleset("yahtzee"))
        >>> scores = [None] * 13
        >>> scores[0], scores[5], scores[11] = 3, 30, 50
        >>> spec.card_state(scores)
        CardState(mask=2081, upper=33, flag=1)
        """
        mask = sum(1 << i for i, s in enumerate(scores) if s is not None)
        upper = sum(s or 0 for s, f in zip(scores, self.upper_face, strict=True) if f)
        upper = min(upper, self.threshold)
        flag = 0
        if int(self.params[P_NY]) == 2:
            flag = int(bool(scores[int(self.params[P_YBOX])]))
        return CardState(mask, upper, flag)

    def next_state(self, state: CardState, box: int, points: int) -> CardState:
        """The state after filling box index ``box`` with ``points``.

        >>> from daily.rules import get_ruleset
        >>> spec = GameSpec.from_rules(get_ruleset("yahtzee"))
        >>> spec.next_state(CardState(0, 60, 0), 2, 9)
        CardState(mask=4, upper=63, flag=0)
        """
        upper = state.upper
        if self.upper_face[box]:
            upper = min(self.threshold, upper + points)
        flag = state.flag
        if box == int(self.params[P_YBOX]) and int(self.params[P_NY]) == 2:
            flag = int(points > 0)
        return CardState(state.mask | (1 << box), upper, flag)

    def state_index(self, state: CardState) -> int:
        """Position of a state in the value array."""
        nu, ny = int(self.params[P_NU]), int(self.params[P_NY])
        return (state.mask * nu + state.upper) * ny + state.flag

    def upper_mask(self, mask: int) -> int:
        """The 6-bit set of filled upper boxes (bit f-1 for face f) of a box mask."""
        out = 0
        for i, face in enumerate(self.upper_face):
            if face and mask >> i & 1:
                out |= 1 << (int(face) - 1)
        return out

    def reachable(self, state: CardState) -> bool:
        """Whether the upper total of a state can be reached with its filled upper boxes."""
        return bool(self.reach[self.upper_mask(state.mask), state.upper])


def counts_to_dice(counts: Sequence[int]) -> tuple[int, ...]:
    """Sorted dice from face counts.

    >>> counts_to_dice((2, 0, 0, 0, 0, 1))
    (1, 1, 6)
    """
    return tuple(f for f, c in enumerate(counts, start=1) for _ in range(c))


def _upper_reach(faces: list[int], n: int, threshold: int) -> np.ndarray:
    """For each set of filled upper boxes, which capped upper totals can occur."""
    reach = np.zeros((64, threshold + 1), dtype=np.bool_)
    for um in range(64):
        sums = {0}
        for f in faces:
            if um >> (f - 1) & 1:
                sums = {min(threshold, s + f * k) for s in sums for k in range(n + 1)}
        for s in sums:
            reach[um, s] = True
    return reach


def sub_multisets(dice: Sequence[int]) -> list[tuple[int, ...]]:
    """Every distinct multiset of some of ``dice``, sorted, smallest first.

    >>> sub_multisets((2, 2, 5))
    [(), (2,), (5,), (2, 2), (2, 5), (2, 2, 5)]
    """
    counts = counts_of(dice)
    out = []
    for take in itertools.product(*(range(c + 1) for c in counts)):
        out.append(tuple(f for f in range(1, 7) for _ in range(take[f - 1])))
    return sorted(out, key=lambda k: (len(k), k))
