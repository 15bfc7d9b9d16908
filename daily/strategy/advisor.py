"""Positions and the value of every action in them: the basis of hints, bots and analysis.

A :class:`Position` is a card, the dice showing (in slot order) and the rolls left. An
:class:`Action` is a keep (a hold mask; the other dice are rerolled) or a box. Its
value is the expected final score of the game when that action is taken and optimal
play follows. Box points, legality and bonuses come from
:func:`daily.rules.placement.placements`.

>>> from daily.rules import get_ruleset
>>> from daily.strategy.solver import solve
>>> rules = get_ruleset("yahtzee", {"forced_order": True})
>>> advisor = Advisor(solve(rules))
>>> pos = Position(rules, (None,) * 13, (1, 1, 1, 5, 6), rolls_left=2)
>>> best = advisor.actions(pos)[0]
>>> best.kind, best.hold, best.describe()
('keep', '11100', 'keeping 1-1-1')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from daily.game import Game
from daily.rules.combos import counts_of
from daily.rules.placement import placements
from daily.strategy.hints import HintEngine
from daily.strategy.solver import StrategyTable
from daily.strategy.spec import CardState, GameSpec, Position, sub_multisets


@dataclass(frozen=True)
class Action:
    """A keep (``hold`` mask) or a box, with the expected final score it leads to."""

    kind: str  # "keep" or "box"
    value: float
    hold: str | None = None
    kept: tuple[int, ...] = ()
    box: str | None = None
    points: int = 0
    bonus: int = 0

    def describe(self) -> str:
        """The action in words.

        >>> Action("keep", 250.0, "11100", (6, 6, 6)).describe()
        'keeping 6-6-6'
        >>> Action("keep", 250.0, "00000", ()).describe()
        'rerolling everything'
        >>> Action("box", 250.0, box="full_house", points=25).describe()
        'scoring 25 in full house'
        """
        if self.kind == "keep":
            if not self.kept:
                return "rerolling everything"
            return "keeping " + "-".join(str(d) for d in self.kept)
        return f"scoring {self.points} in {str(self.box).replace('_', ' ')}"

    def to_json(self) -> dict[str, Any]:
        """The action as JSON (value rounded to 4 decimals).

        >>> Action("box", 253.91234, box="chance", points=22).to_json()["value"]
        253.9123
        """
        out: dict[str, Any] = {"kind": self.kind, "value": round(self.value, 4)}
        if self.kind == "keep":
            out.update(hold=self.hold, kept=list(self.kept))
        else:
            out.update(box=self.box, points=self.points, bonus=self.bonus)
        out["text"] = self.describe()
        return out


def hold_mask(dice: Sequence[int], kept: Sequence[int]) -> str:
    """A hold mask on ``dice`` keeping the multiset ``kept`` (leftmost dice first).

    >>> hold_mask((6, 2, 6, 3, 6), (6, 6))
    '10100'
    """
    need = list(counts_of(kept))
    out = []
    for d in dice:
        if need[d - 1]:
            need[d - 1] -= 1
            out.append("1")
        else:
            out.append("0")
    return "".join(out)


class Advisor:
    """Values every action of a position with a strategy table.

    ``greedy=True`` values actions by the points of this turn only (the easy bot).
    """

    def __init__(self, table: StrategyTable, *, greedy: bool = False, cache: int = 64) -> None:
        self.table = table
        self._setup(table.spec, greedy=greedy, cache=cache)

    def _setup(self, spec: GameSpec, *, greedy: bool, cache: int) -> None:
        """The state every advisor has (:class:`daily.strategy.heuristic.HeuristicAdvisor`
        too, which has no table)."""
        self.spec = spec
        self.rules = spec.rules
        self.greedy = greedy
        # Plain dicts, emptied when full: safe to share between threads (the GIL makes
        # each get, set and clear atomic), so one warm Advisor serves a whole process.
        self._turns: dict[CardState, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        self._cache = cache
        self._boxes: dict[
            tuple[CardState, tuple[int, ...], bool], list[tuple[float, str, int, int]]
        ]
        self._boxes = {}
        self._keep_lists: dict[tuple[int, ...], tuple[np.ndarray, list[tuple[int, ...]]]] = {}
        self._engine: HintEngine | None = None

    #: The values are exact (see :class:`daily.strategy.triple.TripleAdvisor`).
    heuristic = False

    @property
    def expected(self) -> float:
        """The optimal expected score of a new game."""
        return self.table.expected

    def _turn(self, state: CardState) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        hit = self._turns.get(state)
        if hit is None:
            hit = self.table.turn(state, use_future=not self.greedy)
            if len(self._turns) >= self._cache:
                self._turns.clear()
            self._turns[state] = hit
        return hit

    def _keeps(self, dice: Sequence[int]) -> tuple[np.ndarray, list[tuple[int, ...]]]:
        key = tuple(sorted(dice))
        hit = self._keep_lists.get(key)
        if hit is None:
            kept = [k for k in sub_multisets(key) if len(k) < self.rules.dice]
            kept.sort(key=lambda k: -len(k))  # larger keeps first: they win ties
            idx = np.array([self.spec.keep_of(k) for k in kept], dtype=np.int64)
            hit = (idx, kept)
            self._keep_lists[key] = hit
        return hit

    def box_actions(self, pos: Position, limit: int | None = None) -> list[Action]:
        """Every legal box for the dice showing, best first (the ``limit`` best if given).

        What a box gains (points, bonuses and the table's value of the state after it)
        depends only on the card's between-turn state, the dice multiset and (Generala's
        served points) whether it is the turn's first roll, so it is computed once per
        (state, dice, first roll) and kept (``cache`` * 16 entries at most).
        """
        return self._box_list(pos, self.spec.card_state(pos.scores), pos.total, limit)

    def _box_list(
        self, pos: Position, state: CardState, base: int, limit: int | None
    ) -> list[Action]:
        key = (state, tuple(sorted(pos.dice)), pos.first_roll and self.rules.served)
        gains = self._boxes.get(key)
        if gains is None:
            gains = self._box_gains(pos, state)
            if len(self._boxes) >= self._cache * 16:
                self._boxes.clear()
            self._boxes[key] = gains
        return [
            Action("box", base + gain, box=box, points=points, bonus=bonus)
            for gain, box, points, bonus in (gains if limit is None else gains[:limit])
        ]

    def _box_gains(self, pos: Position, state: CardState) -> list[tuple[float, str, int, int]]:
        rules, spec = self.rules, self.spec
        turn = placements(rules, pos.scores, pos.dice, first_roll=pos.first_roll)
        upper_before = state.upper  # capped at the threshold: crossing it is all that counts
        threshold = rules.upper_bonus_threshold
        out = []
        full = bin(state.mask).count("1") == len(rules.boxes) - 1
        for p in turn.legal():
            gained = p.points + p.bonus
            crossing = upper_before < threshold <= upper_before + p.points
            if spec.upper_face[p.index] and rules.upper_bonus and crossing:
                gained += rules.upper_bonus
            future = 0.0
            if not self.greedy and not full:
                future = self._future(state, p.index, p.points)
            out.append((gained + future, p.box, p.points, p.bonus))
        out.sort(key=lambda g: -g[0])
        return out

    def _future(self, state: CardState, box: int, points: int) -> float:
        """The value of the state after putting ``points`` in box index ``box``."""
        return self.table.value(self.spec.next_state(state, box, points))

    def keep_actions(self, pos: Position, limit: int | None = None) -> list[Action]:
        """The distinct keeps (fewer than all dice) with rolls left, best first.

        Only the ``limit`` best are built when ``limit`` is given.
        """
        return self._keep_list(pos, self.spec.card_state(pos.scores), pos.total, limit)

    def _keep_list(
        self, pos: Position, state: CardState, base: int, limit: int | None
    ) -> list[Action]:
        if pos.rolls_left == 0:
            return []
        _, E, _ = self._turn(state)
        idx, kept = self._keeps(pos.dice)
        values = E[pos.rolls_left][idx]
        order = np.argsort(-values, kind="stable")
        if limit is not None:
            order = order[:limit]
        return [
            Action("keep", base + float(values[i]), hold_mask(pos.dice, kept[i]), kept[i])
            for i in order
        ]

    def actions(self, pos: Position, limit: int | None = None) -> list[Action]:
        """The actions of the position, best first (a box wins a tie with a keep)."""
        state = self.spec.card_state(pos.scores)
        base = pos.total
        acts = self._box_list(pos, state, base, limit) + self._keep_list(pos, state, base, limit)
        acts.sort(key=lambda a: -a.value)  # stable: boxes before keeps on ties
        return acts if limit is None else acts[:limit]

    def best(self, pos: Position) -> Action:
        """The best action of the position."""
        return self.actions(pos, 1)[0]

    def position_value(self, pos: Position) -> float:
        """The expected final score of the position under optimal play."""
        return self.best(pos).value

    @property
    def engine(self) -> HintEngine:
        """The fast path of :meth:`hint` (built on first use, then kept)."""
        engine = self._engine
        if engine is None:
            engine = self._engine = HintEngine(self.table, greedy=self.greedy)
        return engine

    def hint(self, pos: Position, top: int = 3) -> dict[str, Any]:
        """The best action and the next ``top`` alternatives, as JSON.

        Answered by :class:`daily.strategy.hints.HintEngine`: the same answer as
        :meth:`reference_hint`, in a few microseconds.

        >>> from daily.rules import get_ruleset
        >>> from daily.strategy.solver import solve
        >>> rules = get_ruleset("yacht", {"forced_order": True})
        >>> h = Advisor(solve(rules)).hint(Position(rules, (None,) * 12, (1, 1, 1, 1, 2), 0))
        >>> h["best"]["box"], h["best"]["points"]
        ('ones', 4)
        """
        return self.engine.hint(pos, top)

    def reference_hint(self, pos: Position, top: int = 3) -> dict[str, Any]:
        """:meth:`hint` computed from :meth:`actions` (placements in Python): the
        definition the fast path is tested against.

        >>> from daily.rules import get_ruleset
        >>> from daily.strategy.solver import solve
        >>> rules = get_ruleset("yacht", {"forced_order": True})
        >>> advisor = Advisor(solve(rules))
        >>> pos = Position(rules, (None,) * 12, (1, 1, 3, 1, 2), 2)
        >>> advisor.reference_hint(pos) == advisor.hint(pos)
        True
        """
        return hint_json(self.actions(pos, top + 1), pos, top)


def hint_json(acts: Sequence[Action], pos: Position, top: int) -> dict[str, Any]:
    """A hint as JSON: the best of ``acts`` (best first) and ``top`` alternatives.

    >>> from daily.rules import get_ruleset
    >>> pos = Position(get_ruleset("yacht"), (None,) * 12, (1, 1, 1, 1, 2), 0)
    >>> hint_json([Action("box", 9.5, box="ones", points=4)], pos, 3)["alternatives"]
    []
    """
    best = acts[0]
    return {
        "best": best.to_json(),
        "alternatives": [
            dict(a.to_json(), loss=round(best.value - a.value, 4)) for a in acts[1 : 1 + top]
        ],
        "rolls_left": pos.rolls_left,
        "dice": list(pos.dice),
        "total": pos.total,
    }


def take_action(game: Game, action: Action) -> Action:
    """Apply one action (a reroll or a box) to ``game``; returns it."""
    if action.kind == "keep":
        assert action.hold is not None
        game.reroll(action.hold)
    else:
        assert action.box is not None
        game.score(action.box)
    return action


def play_out(game: Game, choose: Callable[[Position], Action]) -> Game:
    """Play ``game`` to the end, taking the action ``choose`` picks each time."""
    while not game.over:
        take_action(game, choose(Position.from_game(game)))
    return game
