"""The placement rule, compiled (numba): where a roll may go, its points, the next state.

These helpers are the one compiled form of :mod:`daily.rules.placement` (the reference,
pure Python): forced order, Yahtzee's forced joker rule, the extra-Yahtzee bonus,
Generala's doble_generala, and what filling a box does to the card state (the capped
upper total with its bonus, the yahtzee flag). The solver (:mod:`daily.strategy.kernel`),
hints (:mod:`daily.strategy.hints`), the heuristic player
(:mod:`daily.strategy.heuristic`) and fair play (:mod:`daily.fairplay.kernel`) all place
boxes through them; ``tests/strategy/test_placing.py`` compares them with
:func:`daily.rules.placement.placements` on every roll, box and card state that matters.

The arguments are the arrays of :class:`daily.strategy.spec.GameSpec`: ``P`` its
parameters (indexed by the ``P_*`` constants), ``raw[r, b]`` the points of roll ``r`` in
box ``b``, ``alike[r]`` the face (0-5) of an all-alike roll or -1, ``upper_face[b]`` the
face (1-6) of an upper box or 0, ``joker_points[b]`` a lower box's joker points or -1.
A card state is ``mask`` (bit ``b``: box ``b`` filled), ``u`` (the upper total, capped at
the bonus threshold) and ``y`` (the yahtzee flag: the yahtzee box holds points).

>>> from daily.rules import get_ruleset
>>> from daily.strategy.spec import GameSpec
>>> rules = get_ruleset("yahtzee")
>>> spec = GameSpec.from_rules(rules)
>>> r = int(np.flatnonzero(spec.alike == 3)[0])  # five 4s
>>> mask = 1 << rules.box_index("yahtzee") | 1 << rules.box_index("fours")
>>> mode, mbox, jok = joker_mode(r, mask, spec.params, spec.alike, spec.upper_face)
>>> mode == LOWER_ONLY, bool(jok)  # the fours are filled: open lower boxes only
(True, True)
>>> full = rules.box_index("full_house")
>>> int(box_points(r, full, 1, True, spec.params, spec.raw, spec.joker_points))
25
"""

from __future__ import annotations

import numpy as np
from numba import njit

from daily.strategy.spec import (
    P_BOXES,
    P_DOUBLE,
    P_EXTRA,
    P_FORCED,
    P_JOKER,
    P_NY,
    P_THRESHOLD,
    P_UPPER_BONUS,
    P_YBOX,
)

#: The value of an action that is not allowed (below every real value).
NEG = -1e300

#: Placement regimes of :func:`joker_mode`: every open box; only the matching upper box;
#: only open lower boxes.
ANY_BOX, UPPER_ONLY, LOWER_ONLY = 0, 1, 2


@njit(cache=True)
def first_open(mask, nb):  # pragma: no cover - compiled
    """Index of the first open box (-1 when the card is full)."""
    for b in range(nb):
        if not mask >> b & 1:
            return b
    return -1


@njit(cache=True)
def extra_bonus(r, mask, y, P, alike):  # pragma: no cover - compiled
    """The extra-Yahtzee bonus roll ``r`` earns in state (``mask``, ``y``)."""
    ybox, extra = P[P_YBOX], P[P_EXTRA]
    if alike[r] >= 0 and ybox >= 0 and (mask >> ybox & 1) == 1 and extra > 0 and y == 1:
        return extra
    return 0


@njit(cache=True)
def joker_mode(r, mask, P, alike, upper_face):  # pragma: no cover - compiled
    """Placement regime of roll ``r``: (mode, matching upper box, joker points apply).

    mode :data:`ANY_BOX`, :data:`UPPER_ONLY` (the matching upper box) or
    :data:`LOWER_ONLY` (open lower boxes), as the forced joker rule says.
    """
    nb, ybox = P[P_BOXES], P[P_YBOX]
    face = alike[r]
    jok = face >= 0 and ybox >= 0 and (mask >> ybox & 1) == 1 and P[P_JOKER] == 1
    mode = ANY_BOX
    mbox = -1
    if jok and P[P_FORCED] == 0:
        for b in range(nb):
            if upper_face[b] == face + 1:
                mbox = b
        if mbox >= 0 and (mask >> mbox & 1) == 0:
            mode = UPPER_ONLY
        else:
            for b in range(nb):
                if upper_face[b] == 0 and (mask >> b & 1) == 0:
                    mode = LOWER_ONLY
    return mode, mbox, jok


@njit(cache=True)
def box_allowed(b, mask, first, mode, mbox, P, upper_face):  # pragma: no cover - compiled
    """Whether box ``b`` may be filled: open, first under forced order (``first``: the
    first open box), and allowed by the joker regime (``mode``, ``mbox``)."""
    if mask >> b & 1:
        return False
    if P[P_FORCED] == 1 and b != first:
        return False
    if mode == UPPER_ONLY and b != mbox:
        return False
    return not (mode == LOWER_ONLY and upper_face[b] > 0)


@njit(cache=True)
def box_points(r, b, y, jok, P, raw, joker_points):  # pragma: no cover - compiled
    """The points roll ``r`` scores in box ``b``: a lower box's joker points when the
    joker applies (``jok``), nothing in doble_generala unless the flag ``y`` is set."""
    pts = raw[r, b]
    if jok and joker_points[b] >= 0:
        pts = joker_points[b]
    if b == P[P_DOUBLE] and y == 0:
        pts = 0
    return pts


@njit(cache=True)
def outcome(b, pts, P, upper_face):  # pragma: no cover - compiled
    """Which successor of box ``b`` its points ``pts`` lead to (the column of ``succ``
    in :func:`daily.strategy.kernel.fill_successors`): an upper box's count of dice of
    its face, the yahtzee box's flag (1 when it gets points), else 0."""
    f = upper_face[b]
    if f > 0:
        return pts // f
    if b == P[P_YBOX] and P[P_NY] == 2:
        return 1 if pts > 0 else 0
    return 0


@njit(cache=True)
def outcomes(b, n, P, upper_face):  # pragma: no cover - compiled
    """How many successors box ``b`` has (:func:`outcome` is below it): ``n + 1``
    counts of dice for an upper box, two flags for the yahtzee box, else one."""
    if upper_face[b] > 0:
        return n + 1
    if b == P[P_YBOX] and P[P_NY] == 2:
        return 2
    return 1


@njit(cache=True)
def placed(mask, u, y, b, pts, P, upper_face):  # pragma: no cover - compiled
    """The state after box ``b`` gets ``pts`` points, and what it adds to the total
    (without an extra bonus): ``(mask, upper total, flag, points + upper bonus)``."""
    T = P[P_THRESHOLD]
    gained = pts
    if upper_face[b] > 0:
        if T > 0:
            if u < T <= u + pts:
                gained += P[P_UPPER_BONUS]
            u = min(T, u + pts)
        else:
            u = 0
    if b == P[P_YBOX] and P[P_NY] == 2:
        y = 1 if pts > 0 else 0
    return mask | (1 << b), u, y, gained


@njit(cache=True)
def box_value(
    r, b, mask, y, succ, P, raw, upper_face, joker_points, mode, mbox, jok, first
):  # pragma: no cover - compiled
    """Value of putting roll ``r`` in box ``b`` (without the extra bonus), and its points.

    ``succ[b, k]`` is the value of the box's successor ``k`` (:func:`outcome`), an upper
    box's points and bonus included. Returns ``(NEG, 0)`` when the box is not allowed.
    """
    if not box_allowed(b, mask, first, mode, mbox, P, upper_face):
        return NEG, 0
    pts = box_points(r, b, y, jok, P, raw, joker_points)
    k = outcome(b, pts, P, upper_face)
    if upper_face[b] > 0:
        return succ[b, k], pts
    return pts + succ[b, k], pts


@njit(cache=True)
def pick_box(
    r, mask, y, first, succ, P, raw, alike, upper_face, joker_points
):  # pragma: no cover - compiled
    """The best legal box for roll ``r``: ``(value, box, points)``; first box wins ties
    (the value without the extra bonus)."""
    mode, mbox, jok = joker_mode(r, mask, P, alike, upper_face)
    best = NEG
    best_b = -1
    best_pts = 0
    for b in range(P[P_BOXES]):
        v, pts = box_value(
            r, b, mask, y, succ, P, raw, upper_face, joker_points, mode, mbox, jok, first
        )
        if v > best:
            best = v
            best_b = b
            best_pts = pts
    return best, best_b, best_pts


def placement_grid(
    mask: int, y: int, params: np.ndarray, raw: np.ndarray, alike: np.ndarray,
    upper_face: np.ndarray, joker_points: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every roll and box in state (``mask``, ``y``) as the helpers place them: whether
    allowed, the points, and each roll's extra bonus (for the tests and a reader).

    >>> from daily.rules import get_ruleset
    >>> from daily.strategy.spec import GameSpec
    >>> spec = GameSpec.from_rules(get_ruleset("yacht", {"forced_order": True}))
    >>> ok, pts, bonus = placement_grid(0, 0, spec.params, spec.raw, spec.alike,
    ...                                 spec.upper_face, spec.joker_points)
    >>> int(ok.sum(axis=1).max()), int(bonus.max())  # forced order: only the first box
    (1, 0)
    """
    return _grid(mask, y, params, raw, alike, upper_face, joker_points)


@njit(cache=True)
def _grid(mask, y, P, raw, alike, upper_face, joker_points):  # pragma: no cover - compiled
    nr, nb = raw.shape
    ok = np.zeros((nr, nb), dtype=np.bool_)
    pts = np.zeros((nr, nb), dtype=np.int64)
    bonus = np.zeros(nr, dtype=np.int64)
    first = first_open(mask, nb)
    for r in range(nr):
        mode, mbox, jok = joker_mode(r, mask, P, alike, upper_face)
        bonus[r] = extra_bonus(r, mask, y, P, alike)
        for b in range(nb):
            ok[r, b] = box_allowed(b, mask, first, mode, mbox, P, upper_face)
            pts[r, b] = box_points(r, b, y, jok, P, raw, joker_points)
    return ok, pts, bonus
