"""The day's ceiling: the exact best score with full knowledge of every slot.

Everyone plays the same slots, and a slot's dice do not depend on holds, so a player
who has seen every slot (a scout rerolling every die sees them all) can plan the whole
game. The ceiling is the score of that perfect-information game: a dynamic programme
over (filled boxes, capped upper total, yahtzee flag), turn by turn from the last,
where each turn offers the best dice per box reachable from that turn's three slots
(see :mod:`daily.fairplay.kernel`).

>>> from daily.rules import get_ruleset
>>> ceiling = ceiling_of_seed(get_ruleset("yacht", {"forced_order": True}), bytes(32))
>>> ceiling.value
137
>>> from daily.replay import replay
>>> replay(ceiling.perfect_log(seed=bytes(32))).total
137
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from daily.dice import SlotCache, SlotSource
from daily.errors import LogFormatError
from daily.fairplay import kernel
from daily.movelog import MoveLog, Turn
from daily.rules import Ruleset
from daily.strategy.simulate import keep_orders, slot_matrix
from daily.strategy.solver import masks_by_level
from daily.strategy.spec import GameSpec, StrategyError

#: Every ceiling fits in 16 bits (Yahtzee's can reach 1575 with twelve extra Yahtzees).
CEILING_DTYPE = np.int16


def _bound(spec: GameSpec) -> int:
    rules = spec.rules
    top = int(np.maximum(spec.raw, spec.raw_served).max(axis=0).sum()) + rules.upper_bonus
    top += rules.extra_yahtzee_bonus * rules.turns + int(max(spec.joker_points.max(), 0))
    return top


@dataclass(frozen=True, eq=False)
class Ceiling:
    """The ceiling of one set of slots and the value of every state knowing them."""

    spec: GameSpec
    slots: np.ndarray = field(repr=False)
    values: np.ndarray = field(repr=False)  # H[state], CEILING_DTYPE
    seconds: float = 0.0

    @property
    def rules(self) -> Ruleset:
        """The ruleset."""
        return self.spec.rules

    @property
    def value(self) -> int:
        """The best final score knowing every slot."""
        return int(self.values[0])

    @cached_property
    def orders(self) -> tuple[np.ndarray, np.ndarray]:
        """Keep order and roll-code index for the walk kernel."""
        return keep_orders(self.spec)

    def perfect_log(
        self, *, seed: bytes | None = None, day: dt.date | None = None
    ) -> MoveLog:
        """A move log that scores the ceiling (what a scout's accomplice would play)."""
        spec = self.spec
        py_order, code_index = self.orders
        _, decided, _, total, _ = kernel.walk(
            self.slots, kernel.FORESIGHT, 0.0, 0.0, 0, 0, np.zeros(1, dtype=np.int64),
            np.ones(1), np.zeros(1), self.values, self.values, spec.params, spec.raw,
            spec.raw_served, spec.alike,
            spec.upper_face, spec.joker_points, spec.child, spec.parent, spec.keeps,
            py_order, code_index,
        )
        if total != self.value:  # pragma: no cover - would be a bug in the kernels
            raise StrategyError(f"perfect play scored {total}, the ceiling is {self.value}")
        return MoveLog(
            self.rules.name, actions_to_turns(self.rules, decided),
            tuple(self.rules.non_default_options().items()), seed, day,
        )


def actions_to_turns(rules: Ruleset, decided: np.ndarray) -> tuple[Turn, ...]:
    """Kernel action codes (hold bits, or ``-(box + 1)``) as the turns of a move log.

    >>> from daily.rules import get_ruleset
    >>> actions_to_turns(get_ruleset("yacht"), np.array([3, -1]))
    (Turn(holds=('11000',), box='ones'),)
    """
    turns: list[Turn] = []
    holds: list[str] = []
    for a in (int(x) for x in decided):
        if a >= 0:
            holds.append("".join("1" if a >> i & 1 else "0" for i in range(rules.dice)))
        else:
            turns.append(Turn(tuple(holds), rules.box_ids[-a - 1]))
            holds = []
    if holds:
        turns.append(Turn(tuple(holds), None))
    return tuple(turns)


def turns_to_actions(rules: Ruleset, log: MoveLog) -> np.ndarray:
    """The inverse of :func:`actions_to_turns` (complete or partial logs).

    >>> from daily.rules import get_ruleset
    >>> log = MoveLog("yacht", (Turn(("11000",), "ones"),), seed=bytes(32))
    >>> turns_to_actions(get_ruleset("yacht"), log)
    array([ 3, -1])
    """
    out: list[int] = []
    for turn in log.turns:
        for mask in turn.holds:
            out.append(sum(1 << i for i, c in enumerate(mask) if c == "1"))
        if turn.box is not None:
            out.append(-(rules.box_index(turn.box) + 1))
    return np.array(out, dtype=np.int64)


#: ``progress(levels_done, levels)``: called after each level of the programme.
Progress = Callable[[int, int], None]


def solve_ceiling(
    rules: Ruleset, slots: np.ndarray, progress: Progress | None = None
) -> Ceiling:
    """The ceiling of the slots ``(turns, rolls, dice)`` of a game of ``rules``.

    The compiled kernels release the GIL, so a thread can solve a big one (Maxi Yatzy)
    while the rest of its process goes on.
    """
    start = time.perf_counter()
    spec = GameSpec.from_rules(rules)  # refuses saved rolls and more than 24 boxes
    if _bound(spec) >= np.iinfo(CEILING_DTYPE).max:  # pragma: no cover - no such ruleset
        raise StrategyError(f"{rules.name} scores too high for a 16-bit ceiling table")
    expected = (rules.turns, rules.rolls_per_turn, rules.dice)
    if slots.shape != expected:
        raise LogFormatError(f"slots of shape {slots.shape}, expected {expected}", field="slots")
    slots = np.ascontiguousarray(slots, dtype=np.int64)
    _, code_index = keep_orders(spec)
    best, alikes, n_alike, served_alike = kernel.turn_bests(
        slots, code_index, spec.params, spec.raw, spec.raw_served, spec.alike)
    values = np.zeros(spec.n_states, dtype=CEILING_DTYPE)
    levels = masks_by_level(spec)
    nb = len(rules.boxes)
    for level, masks in enumerate(levels[1:], start=1):
        turn = nb - level
        kernel.ceiling_level(
            masks, turn, values, spec.params, spec.raw, spec.raw_served, spec.alike,
            spec.upper_face, spec.joker_points, spec.reach, best, alikes, n_alike,
            served_alike,
        )
        if progress is not None:
            progress(level, len(levels) - 1)
    return Ceiling(spec, slots, values, time.perf_counter() - start)


def ceiling_of_slots(
    rules: Ruleset, slots: SlotSource, progress: Progress | None = None
) -> Ceiling:
    """The ceiling of a game whose dice come from ``slots`` (a day's :class:`SlotCache`)."""
    return solve_ceiling(rules, slot_matrix(rules, slots), progress)


def ceiling_of_seed(rules: Ruleset, seed: bytes, progress: Progress | None = None) -> Ceiling:
    """The ceiling of the dice of ``seed`` (a day seed gives the day's ceiling)."""
    return ceiling_of_slots(rules, SlotCache(seed, rules.dice), progress)


def slots_of_seed(rules: Ruleset, seed: bytes) -> np.ndarray:
    """The slot matrix ``(turns, rolls, dice)`` of the dice of ``seed`` (cheap: no
    programme is solved).

    >>> from daily.rules import get_ruleset
    >>> slots_of_seed(get_ruleset("maxi-yatzy"), bytes(32)).shape
    (20, 3, 6)
    """
    return np.ascontiguousarray(slot_matrix(rules, SlotCache(seed, rules.dice)), dtype=np.int64)
