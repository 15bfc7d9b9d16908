"""The exact solver: dynamic programming over the between-turn states of a ruleset.

States are processed from the full card back to the empty one; the states with the
same number of filled boxes are independent and computed in parallel (numba threads
over box masks), and the states of one mask go through a turn together, lanes
innermost (:func:`daily.strategy.kernel.solve_masks`).

>>> from daily.rules import get_ruleset
>>> table = solve(get_ruleset("yatzy", {"forced_order": True}))
>>> round(table.expected, 4), table.spec.n_states
(122.5585, 2097152)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from daily.rules import Ruleset
from daily.strategy import kernel
from daily.strategy.spec import P_BOXES, P_FORCED, CardState, GameSpec

#: Called as ``progress(done, total)`` in units of work: the states computed (the
#: cost of a state hardly depends on its level, so the rate of a build is steady and
#: its estimated time to go is right early on).
Progress = Callable[[int, int], None]

#: Masks handed to the compiled kernel per call (bounds the progress granularity).
CHUNK = 2048


@dataclass(eq=False)
class StrategyTable:
    """The optimal value of every between-turn state of one ruleset."""

    spec: GameSpec
    values: np.ndarray
    build_seconds: float = 0.0
    meta: dict[str, object] = field(default_factory=dict)

    @property
    def rules(self) -> Ruleset:
        """The ruleset the table solves."""
        return self.spec.rules

    @property
    def expected(self) -> float:
        """The optimal expected final score of a new game.

        A table stored in float32 keeps the float64 figure in its header.
        """
        stored = self.meta.get("expected")
        if isinstance(stored, float) and self.values.dtype != np.float64:
            return stored
        return float(self.values[0])

    def value(self, state: CardState) -> float:
        """Optimal expected score still to come from a between-turn state."""
        return float(self.values[self.spec.state_index(state)])

    def turn(
        self, state: CardState, *, use_future: bool = True
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Within-turn values of ``state``: ``(v0, E, M)`` (see :mod:`daily.strategy.kernel`).

        With ``use_future=False`` the values ignore every later turn (the greedy player).
        """
        s = self.spec
        return kernel.state_turn(
            state.mask,
            state.upper,
            state.flag,
            self.values,
            use_future,
            s.params,
            s.raw,
            s.raw_served,
            s.alike,
            s.upper_face,
            s.joker_points,
            s.child,
            s.parent,
        )


def masks_by_level(spec: GameSpec) -> list[np.ndarray]:
    """Box masks grouped by the number of filled boxes, most filled first.

    >>> from daily.rules import get_ruleset
    >>> [len(m) for m in masks_by_level(GameSpec.from_rules(get_ruleset("yacht")))][:3]
    [1, 12, 66]
    """
    nb = int(spec.params[P_BOXES])
    if spec.params[P_FORCED]:
        return [np.array([(1 << p) - 1], dtype=np.int64) for p in range(nb, -1, -1)]
    masks = np.arange(1 << nb, dtype=np.int64)
    pop = np.zeros(len(masks), dtype=np.int64)
    for b in range(nb):
        pop += (masks >> b) & 1
    return [masks[pop == p] for p in range(nb, -1, -1)]


def solve(
    rules: Ruleset, progress: Progress | None = None, *, chunk: int = CHUNK
) -> StrategyTable:
    """Compute the optimal strategy table of ``rules`` (any dice, boxes or rolls per turn).

    >>> from daily.rules import get_ruleset
    >>> round(solve(get_ruleset("yacht", {"forced_order": True})).expected, 4)
    101.0853
    """
    start = time.perf_counter()
    spec = GameSpec.from_rules(rules)
    values = np.zeros(spec.n_states, dtype=np.float64)
    levels = masks_by_level(spec)[1:]  # the full card is worth 0
    work = [kernel.mask_work(m, spec.params, spec.upper_face, spec.reach) for m in levels]
    total = int(sum(int(w.sum()) for w in work))
    done = 0
    if progress:
        progress(0, total)
    for masks, cost in zip(levels, work, strict=True):
        for lo in range(0, len(masks), chunk):
            part = masks[lo : lo + chunk]
            kernel.solve_masks(
                part,
                values,
                spec.params,
                spec.raw,
                spec.raw_served,
                spec.alike,
                spec.upper_face,
                spec.joker_points,
                spec.child,
                spec.parent,
                spec.reach,
            )
            done += int(cost[lo : lo + chunk].sum())
            if progress:
                progress(done, total)
    return StrategyTable(spec, values, time.perf_counter() - start)
