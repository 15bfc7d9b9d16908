"""Pure scoring functions for dice combinations.

Every function takes ``counts``, a tuple of six counts where ``counts[f - 1]`` is how
many dice show face ``f``, and returns the points the combination is worth (0 when
the dice do not meet it). They know nothing of score cards, jokers or bonuses.

>>> c = counts_of((4, 4, 4, 6, 6))
>>> c
(0, 0, 0, 3, 0, 2)
>>> n_of_a_kind_sum_all(3)(c), two_groups(3, 2, 25)(c), upper(4)(c)
(24, 25, 12)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

Counts = tuple[int, ...]
Scorer = Callable[[Counts], int]

FACES = (1, 2, 3, 4, 5, 6)


def counts_of(dice: Sequence[int]) -> Counts:
    """Counts per face of a roll.

    >>> counts_of((1, 1, 6))
    (2, 0, 0, 0, 0, 1)
    """
    out = [0] * 6
    for d in dice:
        out[d - 1] += 1
    return tuple(out)


def total(counts: Counts) -> int:
    """Sum of all dice.

    >>> total(counts_of((2, 3, 4, 5, 5)))
    19
    """
    return sum(f * n for f, n in zip(FACES, counts, strict=True))


def upper(face: int) -> Scorer:
    """ones .. sixes: the sum of the dice showing ``face``.

    >>> upper(6)(counts_of((6, 6, 6, 6, 6)))
    30
    """

    def score(counts: Counts) -> int:
        return face * counts[face - 1]

    return score


def chance(counts: Counts) -> int:
    """The sum of all dice, whatever they show.

    >>> chance(counts_of((1, 2, 4, 5, 6)))
    18
    """
    return total(counts)


def n_of_a_kind_sum_all(n: int) -> Scorer:
    """Yahtzee style: at least ``n`` alike scores the sum of all dice.

    >>> n_of_a_kind_sum_all(3)(counts_of((6, 6, 6, 2, 1)))
    21
    """

    def score(counts: Counts) -> int:
        return total(counts) if max(counts) >= n else 0

    return score


def n_of_a_kind_matching(n: int) -> Scorer:
    """Yatzy style: ``n`` alike scores only those ``n`` dice (the highest such face).

    >>> n_of_a_kind_matching(2)(counts_of((6, 6, 5, 3, 2)))
    12
    >>> n_of_a_kind_matching(4)(counts_of((5, 5, 5, 5, 5)))
    20
    """

    def score(counts: Counts) -> int:
        for face in reversed(FACES):
            if counts[face - 1] >= n:
                return face * n
        return 0

    return score


def distinct_pairs(k: int) -> Scorer:
    """``k`` pairs of different faces: the sum of the ``2k`` dice, highest pairs first.

    >>> distinct_pairs(2)(counts_of((6, 6, 4, 4, 3)))
    20
    >>> distinct_pairs(2)(counts_of((5, 5, 5, 5, 2)))
    0
    >>> distinct_pairs(3)(counts_of((6, 6, 5, 5, 2, 2)))
    26
    """

    def score(counts: Counts) -> int:
        faces = [f for f in reversed(FACES) if counts[f - 1] >= 2][:k]
        return 2 * sum(faces) if len(faces) == k else 0

    return score


def two_groups(big: int, small: int, points: int | None = None) -> Scorer:
    """A group of ``big`` alike plus a group of ``small`` alike of another face.

    Scores ``points`` when given (Yahtzee's full house is 25), otherwise the sum of
    the ``big + small`` dice that form it, taking the best reading.

    >>> two_groups(3, 2)(counts_of((6, 6, 6, 3, 3)))
    24
    >>> two_groups(3, 2, 25)(counts_of((6, 6, 6, 6, 6)))
    0
    >>> two_groups(4, 2)(counts_of((6, 6, 6, 6, 2, 2)))
    28
    >>> two_groups(3, 3)(counts_of((5, 5, 5, 2, 2, 2)))
    21
    """

    def score(counts: Counts) -> int:
        best = 0
        for a in FACES:
            if counts[a - 1] < big:
                continue
            for b in FACES:
                if b != a and counts[b - 1] >= small:
                    best = max(best, big * a + small * b)
        if best and points is not None:
            return points
        return best

    return score


def full_house_or_five(counts: Counts) -> int:
    """Yacht's full house: three and two, or five alike; the sum of all five.

    >>> full_house_or_five(counts_of((2, 2, 2, 2, 2)))
    10
    >>> full_house_or_five(counts_of((3, 3, 3, 1, 2)))
    0
    """
    shape = sorted(n for n in counts if n)
    return total(counts) if shape in ([2, 3], [5]) else 0


def run_of(length: int, points: int) -> Scorer:
    """Any ``length`` consecutive faces present scores ``points``.

    >>> run_of(4, 30)(counts_of((1, 2, 3, 4, 4)))
    30
    >>> run_of(5, 40)(counts_of((1, 2, 4, 5, 6)))
    0
    """

    def score(counts: Counts) -> int:
        streak = 0
        for n in counts:
            streak = streak + 1 if n else 0
            if streak >= length:
                return points
        return 0

    return score


def exact_faces(faces: Sequence[int], points: int) -> Scorer:
    """Every one of ``faces`` present (other dice ignored) scores ``points``.

    >>> exact_faces((1, 2, 3, 4, 5), 15)(counts_of((1, 2, 3, 4, 5, 5)))
    15
    >>> exact_faces((2, 3, 4, 5, 6), 20)(counts_of((1, 2, 3, 4, 5)))
    0
    """
    wanted = tuple(faces)

    def score(counts: Counts) -> int:
        return points if all(counts[f - 1] for f in wanted) else 0

    return score


def all_alike(points: int) -> Scorer:
    """Every die shows the same face.

    >>> all_alike(50)(counts_of((3, 3, 3, 3, 3)))
    50
    """

    def score(counts: Counts) -> int:
        return points if sum(1 for n in counts if n) == 1 else 0

    return score


def five_distinct_without(missing: Sequence[int], points: int) -> Scorer:
    """Five different faces, the one face absent being one of ``missing``: ``points``.

    Generala's escalera: 1-2-3-4-5 (6 absent), 2-3-4-5-6 (1 absent) and, with the ace
    above the six, 3-4-5-6-1 (2 absent).

    >>> escalera = five_distinct_without((6, 1, 2), 20)
    >>> escalera(counts_of((1, 3, 4, 5, 6))), escalera(counts_of((1, 2, 4, 5, 6)))
    (20, 0)
    """
    allowed = frozenset(missing)

    def score(counts: Counts) -> int:
        if any(n > 1 for n in counts) or sum(counts) != 5:
            return 0
        absent = next(f for f, n in zip(FACES, counts, strict=True) if not n)
        return points if absent in allowed else 0

    return score


def at_least_alike(n: int, points: int) -> Scorer:
    """At least ``n`` dice alike scores a fixed ``points`` (Generala's poker).

    >>> poker = at_least_alike(4, 40)
    >>> poker(counts_of((2, 2, 2, 2, 2))), poker(counts_of((2, 2, 2, 3, 3)))
    (40, 0)
    """

    def score(counts: Counts) -> int:
        return points if max(counts) >= n else 0

    return score
