"""Triple Yahtzee: a heuristic player built on the exact single-column values.

Triple Yahtzee (39 boxes) has far too many states for an exact table. The player here
values a card as the sum, over its columns, of the column's weight times the exact
expected score still to come in that column played on its own (the Yahtzee table of
the matching edition: no joker and no extra bonus by default). Inside a turn it is
exact: every keep is valued by expectimax over the turn's remaining rolls, with each
final roll scored in the best of the 39 boxes (points and upper bonus weighted by the
column, plus the column's future value). That is a one-turn lookahead over the three
columns with the single-column values as the evaluation; its strength is measured by
``bench/triple_bots.py``, not claimed. Hints and analysis from it are *heuristic*.

``greedy=True`` drops the future values: every decision maximises this turn's weighted
points (the baseline of the benchmark).

>>> from daily.rules import get_ruleset
>>> from daily.strategy.solver import solve
>>> rules = get_ruleset("triple-yahtzee")
>>> column_rules(rules).non_default_options()
{'extra_yahtzee_bonus': False, 'joker': False}
"""

from __future__ import annotations

from typing import Any

import numpy as np

from daily.card import Card
from daily.game import Game
from daily.rules import Ruleset, get_ruleset
from daily.rules.placement import placements
from daily.strategy import kernel, placing
from daily.strategy.advisor import (
    Action,
    hint_json,
    hold_mask,
    play_out,
)
from daily.strategy.simulate import keep_orders
from daily.strategy.solver import StrategyTable
from daily.strategy.spec import CardState, Position, StrategyError, sub_multisets


def column_rules(rules: Ruleset) -> Ruleset:
    """The one-column game whose exact values the Triple Yahtzee player uses.

    >>> column_rules(get_ruleset("triple-yahtzee", {"joker": True})).name
    'yahtzee'
    """
    if len(rules.weights) < 2:
        raise StrategyError(f"{rules.name} is not a multi-column game", field="ruleset")
    if rules.joker:
        return get_ruleset("yahtzee")
    return get_ruleset("yahtzee", {"joker": False, "extra_yahtzee_bonus": False})


class TripleAdvisor:
    """Values the actions of a Triple Yahtzee position (heuristically; see the module).

    The interface matches :class:`daily.strategy.advisor.Advisor`: ``actions``,
    ``best``, ``hint``, ``play``, ``expected``.
    """

    heuristic = True

    def __init__(
        self, column_table: StrategyTable, rules: Ruleset, *, greedy: bool = False,
        cache: int = 64,
    ) -> None:
        wanted = column_rules(rules)
        if column_table.rules != wanted:
            raise StrategyError(
                f"{rules.name} needs the table of yahtzee {wanted.non_default_options()}, "
                f"not of {column_table.rules.name} {column_table.rules.non_default_options()}",
                field="table",
            )
        self.rules = rules
        self.table = column_table
        self.spec = column_table.spec
        self.greedy = greedy
        self._width = len(wanted.boxes)
        # A plain dict emptied when full: safe to share between threads (as Advisor's).
        self._turns: dict[tuple[int | None, ...], tuple[float, np.ndarray]] = {}
        self._cache = cache

    # ----- the evaluation --------------------------------------------------------------

    def _columns(self, scores: tuple[int | None, ...]) -> list[tuple[int | None, ...]]:
        w = self._width
        return [scores[c * w : (c + 1) * w] for c in range(len(self.rules.weights))]

    def _future(self, state: CardState) -> float:
        if self.greedy or state.mask == (1 << self._width) - 1:
            return 0.0
        return self.table.value(state)

    def estimate(self, scores: tuple[int | None, ...]) -> float:
        """The heuristic value of the boxes still open: sum of weight x column value.

        >>> from daily.strategy.solver import solve
        >>> rules = get_ruleset("triple-yahtzee")
        >>> adv = TripleAdvisor(solve(column_rules(rules)), rules)
        >>> round(adv.estimate((None,) * 39) / 6, 2) == round(adv.table.expected, 2)
        True
        """
        total = 0.0
        for weight, col in zip(self.rules.weights, self._columns(scores), strict=True):
            total += weight * self._future(self.spec.card_state(col))
        return total

    @property
    def expected(self) -> float:
        """The heuristic estimate of a new game: the three columns played apart. Real
        play scores more (each roll may go in any column); the bench measures it."""
        return self.estimate((None,) * len(self.rules.boxes))

    def _turn(self, scores: tuple[int | None, ...]) -> tuple[float, np.ndarray]:
        """(heuristic value now, ``E_all``): keep values relative to the value now."""
        hit = self._turns.get(scores)
        if hit is not None:
            return hit
        s = self.spec
        n, nb = self.rules.dice, self._width
        v0 = np.full(s.n_rolls, placing.NEG)
        succ = np.empty((nb, n + 1))
        col_v0 = np.empty(s.n_rolls)
        W = self.table.values
        base = 0.0
        for weight, col in zip(self.rules.weights, self._columns(scores), strict=True):
            state = s.card_state(col)
            here = self._future(state)
            base += weight * here
            if state.mask == (1 << nb) - 1:
                continue
            kernel.box_values(
                state.mask, state.upper, state.flag, W, not self.greedy, s.params, s.raw,
                s.alike, s.upper_face, s.joker_points, succ, col_v0,
            )
            cand = weight * (col_v0 - here)
            if s.params[8]:  # the extra-Yahtzee bonus is not weighted by the column
                for r in np.flatnonzero(s.alike >= 0):
                    bonus = placing.extra_bonus(r, state.mask, state.flag, s.params, s.alike)
                    cand[r] -= (weight - 1) * bonus
            np.maximum(v0, cand, out=v0)
        R, nk = self.rules.rolls_per_turn, s.n_keeps
        E_all = np.full((R + 1, nk), np.nan)
        M_all = np.full((R, nk), np.nan)
        kernel.turn_tables(v0, v0, s.params, s.child, s.parent, E_all, M_all)
        hit = (base, E_all)
        if len(self._turns) >= self._cache:
            self._turns.clear()
        self._turns[scores] = hit
        return hit

    # ----- actions ---------------------------------------------------------------------

    def box_actions(self, pos: Position) -> list[Action]:
        """Every legal box for the dice showing, best first (heuristic values)."""
        rules, s = self.rules, self.spec
        card = Card(rules, pos.scores, pos.extra_bonus)
        states = [s.card_state(col) for col in self._columns(pos.scores)]
        futures = [self._future(st) for st in states]
        start = card.total + sum(w * f for w, f in zip(rules.weights, futures, strict=True))
        out = []
        for p in placements(rules, pos.scores, pos.dice).legal():
            c = rules.boxes[p.index].column
            weight = rules.weights[c]
            gained = card.fill(p.index, p.points, 0).column(c).total - card.column(c).total
            nxt = s.next_state(states[c], p.index - c * self._width, p.points)
            # the same arithmetic as kernel.play_triple_games, so both break ties alike
            delta = weight * ((gained + self._future(nxt)) - futures[c]) + p.bonus
            out.append(Action("box", start + delta, box=p.box, points=p.points, bonus=p.bonus))
        out.sort(key=lambda a: -a.value)
        return out

    def keep_actions(self, pos: Position, limit: int | None = None) -> list[Action]:
        """The distinct keeps (fewer than all dice) with rolls left, best first."""
        if pos.rolls_left == 0:
            return []
        base, E = self._turn(pos.scores)
        kept = [k for k in sub_multisets(pos.dice) if len(k) < self.rules.dice]
        kept.sort(key=lambda k: -len(k))  # larger keeps first: they win ties
        values = [float(E[pos.rolls_left][self.spec.keep_of(k)]) for k in kept]
        order = sorted(range(len(kept)), key=lambda i: -values[i])
        if limit is not None:
            order = order[:limit]
        start = Card(self.rules, pos.scores, pos.extra_bonus).total + base
        return [
            Action("keep", start + values[i], hold_mask(pos.dice, kept[i]), kept[i])
            for i in order
        ]

    def actions(self, pos: Position, limit: int | None = None) -> list[Action]:
        """The actions of the position, best first (a box wins a tie with a keep)."""
        acts = self.box_actions(pos) + self.keep_actions(pos, limit)
        acts.sort(key=lambda a: -a.value)
        return acts if limit is None else acts[:limit]

    def best(self, pos: Position) -> Action:
        """The action the player takes."""
        return self.actions(pos, 1)[0]

    def hint(self, pos: Position, top: int = 3) -> dict[str, Any]:
        """The best action and ``top`` alternatives as JSON, marked ``heuristic``."""
        return dict(hint_json(self.actions(pos, top + 1), pos, top), heuristic=True)

    def play_slots(self, slots: np.ndarray) -> np.ndarray:
        """Totals of one game per row of ``slots`` (games, 39 turns, rolls, dice), played
        by the compiled twin of :meth:`play` (same decisions, for benchmarks)."""
        s = self.spec
        proper, code_index = keep_orders(s)
        return kernel.play_triple_games(
            np.ascontiguousarray(slots, dtype=np.int64), not self.greedy, self.table.values,
            s.params, s.raw, s.alike, s.upper_face, s.joker_points, s.child, s.parent,
            s.keeps, proper, code_index, np.array(self.rules.weights, dtype=np.int64),
        )

    def play(self, game: Game) -> Game:
        """Play ``game`` to the end with the best action each time; returns it."""
        return play_out(game, self.best)


def play_triple_bots(column_table: StrategyTable, rules: Ruleset, seed: bytes) -> dict[str, Any]:
    """The greedy (easy) and lookahead (hard) players' totals on the dice of ``seed``.

    >>> from daily.strategy.solver import solve
    >>> rules = get_ruleset("triple-yahtzee")
    >>> sorted(play_triple_bots(solve(column_rules(rules)), rules, bytes(32)))
    ['easy', 'hard', 'heuristic']
    """
    out: dict[str, Any] = {"heuristic": True}
    for level, greedy in (("easy", True), ("hard", False)):
        player = TripleAdvisor(column_table, rules, greedy=greedy)
        out[level] = player.play(Game.from_seed(rules, seed)).card.total
    return out
