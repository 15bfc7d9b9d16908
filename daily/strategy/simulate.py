"""Fast whole games of the bots (compiled), for statistics: bench averages and checks.

:func:`play_slots` plays many games on an array of slot dice with exactly the
decisions and tie-breaks of :class:`daily.strategy.bots.Bot` (easy and hard; the
medium level draws from its own seeded stream). :func:`slot_array` turns seeds into
the slot dice of :mod:`daily.dice`, so the games are the ones a player would get.

>>> from daily.rules import get_ruleset
>>> from daily.strategy.solver import solve
>>> table = solve(get_ruleset("yacht", {"forced_order": True}))
>>> slots = slot_array(table.rules, [bytes(32)])
>>> slots.shape
(1, 12, 3, 5)
>>> int(play_slots(table, slots, "hard")[0]) > 0
True
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from daily.dice import SlotCache
from daily.rules import Ruleset
from daily.strategy import kernel
from daily.strategy.bots import LEVELS, MEDIUM_TEMPERATURE
from daily.strategy.solver import StrategyTable
from daily.strategy.spec import GameSpec, StrategyError, counts_to_dice


def slot_array(rules: Ruleset, seeds: Sequence[bytes]) -> np.ndarray:
    """The dice of every slot of every seed: shape (games, turns, rolls, dice)."""
    out = np.empty((len(seeds), rules.turns, rules.rolls_per_turn, rules.dice), dtype=np.int64)
    for g, seed in enumerate(seeds):
        cache = SlotCache(seed, rules.dice)
        for t in range(rules.turns):
            for r in range(rules.rolls_per_turn):
                out[g, t, r] = cache(t, r)
    return out


def random_slots(rules: Ruleset, games: int, seed: int) -> np.ndarray:
    """Slot dice from numpy's seeded generator (for large simulations).

    >>> from daily.rules import get_ruleset
    >>> random_slots(get_ruleset("yatzy"), 2, 7).shape
    (2, 15, 3, 5)
    """
    rng = np.random.default_rng(seed)
    shape = (games, rules.turns, rules.rolls_per_turn, rules.dice)
    return rng.integers(1, 7, size=shape, dtype=np.int64)


def keep_orders(spec: GameSpec) -> tuple[np.ndarray, np.ndarray]:
    """The proper keeps in the bots' tie-break order, and keep index by dice code."""
    n = spec.rules.dice
    proper = [i for i in range(spec.n_keeps) if spec.sizes[i] < n]
    proper.sort(key=lambda i: (-int(spec.sizes[i]), counts_to_dice(spec.keeps[i].tolist())))
    code_index = np.full(7**6, -1, dtype=np.int64)
    for i, k in enumerate(spec.keeps):
        code_index[sum(int(c) * 7**f for f, c in enumerate(k))] = i
    return np.array(proper, dtype=np.int64), code_index


def play_slots(
    table: StrategyTable,
    slots: np.ndarray,
    level: str = "hard",
    *,
    temperature: float = MEDIUM_TEMPERATURE,
    seed: int = 0,
) -> np.ndarray:
    """Totals of one bot game per row of ``slots``."""
    if level not in LEVELS:
        raise StrategyError(f"bot level {level!r} is not one of {', '.join(LEVELS)}", field="level")
    spec = table.spec
    proper, code_index = keep_orders(spec)
    return kernel.play_games(
        np.ascontiguousarray(slots, dtype=np.int64),
        LEVELS.index(level),
        float(temperature),
        int(seed),
        table.values,
        spec.params,
        spec.raw,
        spec.raw_served,
        spec.alike,
        spec.upper_face,
        spec.joker_points,
        spec.child,
        spec.parent,
        spec.keeps,
        proper,
        code_index,
    )
