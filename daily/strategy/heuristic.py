"""A heuristic player for any ruleset, without its exact table: the stand-in opponent.

The exact table of a large ruleset (Maxi Yatzy) takes minutes to build; until it
exists, a player of this module stands in for the table's bots. Like the Triple Yahtzee
player (:mod:`daily.strategy.triple`) it is exact inside a turn - every keep is valued
by expectimax over the turn's remaining rolls, with each final roll scored in its best
box - and heuristic between turns: the value of a card state is an estimate instead of
the table's exact value,

    ``V(state) = sum of par[b] over the open boxes b + upper_bonus * chance(state)``

* ``par[b]`` is what this very player scores in box ``b`` on average. It starts from a
  turn spent on ``b`` alone (expectimax over the turn with ``b``'s points) and is then
  calibrated by self-play: :data:`CALIBRATION_ROUNDS` rounds of
  :data:`CALIBRATION_GAMES` games on seeded random dice, each round's pars being the
  previous round's means per box. Deterministic: every process gets the same pars.
* ``chance(state)`` is the probability that the open upper boxes still bring the upper
  total to the bonus threshold, each open box of face ``f`` getting ``f`` times ``k``
  dice with probability ``pmf[k]``: first Binomial(dice, 1 - (5/6)**rolls) (a turn
  spent keeping that face), then, round after round, how often the self-play put ``k``
  dice in an upper box.

Generala's doble_generala counts only while the generala box holds points. The
placement rules (forced order, joker, extra bonus, served points) are the kernel's
(:mod:`daily.strategy.placing`), so every move is legal. Its strength against
the exact bot is measured by ``bench/heuristic_bots.py``, not claimed. The compiled
player releases the GIL, so a web worker calibrates it in the background (at start)
while its threads go on answering.

``greedy=True`` drops the future values: that is exactly the easy bot, which needs no
table at all.

>>> from daily.rules import get_ruleset
>>> player = HeuristicAdvisor(get_ruleset("yacht", {"forced_order": True}))
>>> player.play(Game.from_seed(player.rules, bytes(32))).over
True
"""

from __future__ import annotations

import math
import threading
from typing import Any

import numpy as np
from numba import njit

from daily.game import Game
from daily.rules import Ruleset
from daily.strategy import kernel, placing
from daily.strategy.advisor import Advisor, hint_json, play_out
from daily.strategy.simulate import keep_orders, random_slots
from daily.strategy.spec import (
    P_BOXES,
    P_DICE,
    P_DOUBLE,
    P_NKEEPS,
    P_NROLLS,
    P_NU,
    P_ROLLS,
    P_SERVED,
    P_THRESHOLD,
    P_UPPER_BONUS,
    CardState,
    GameSpec,
    Position,
)

#: Self-play rounds that calibrate the pars, and games per round.
CALIBRATION_ROUNDS = 2
CALIBRATION_GAMES = 200
#: The seed of the calibration dice (numpy's generator; any fixed value).
CALIBRATION_SEED = 20261202


@njit(cache=True)
def bonus_chances(P, upper_face, pmf):  # pragma: no cover - compiled
    """``chance[um, u]``: probability that the upper boxes not in ``um`` (6-bit set of
    filled faces) bring the upper total from ``u`` to the threshold, when each gets
    ``k`` dice of its face with probability ``pmf[k]``."""
    n, T, nu = P[P_DICE], P[P_THRESHOLD], P[P_NU]
    out = np.zeros((64, nu))
    if T == 0:
        return out
    present = 0
    for b in range(upper_face.shape[0]):
        if upper_face[b] > 0:
            present |= 1 << (upper_face[b] - 1)
    for um in range(63, -1, -1):
        face = 0
        for f in range(1, 7):
            if present >> (f - 1) & 1 and not um >> (f - 1) & 1:
                face = f
                break
        for u in range(nu):
            if u >= T:
                out[um, u] = 1.0
            elif face > 0:
                s = 0.0
                for k in range(n + 1):
                    s += pmf[k] * out[um | 1 << (face - 1), min(T, u + face * k)]
                out[um, u] = s
    return out


@njit(cache=True)
def state_value(mask, u, y, P, upper_face, par, chance):  # pragma: no cover - compiled
    """The heuristic value of a between-turn state: points still to come."""
    nb, T, ub, dbox = P[P_BOXES], P[P_THRESHOLD], P[P_UPPER_BONUS], P[P_DOUBLE]
    v = 0.0
    um = 0
    for b in range(nb):
        if mask >> b & 1:
            if upper_face[b] > 0:
                um |= 1 << (upper_face[b] - 1)
        elif not (b == dbox and y == 0):
            v += par[b]
    if T > 0 and u < T:
        v += ub * chance[um, u]
    return v


@njit(cache=True)
def successors(mask, u, y, use_future, P, upper_face, par, chance, succ):  # pragma: no cover
    """:func:`daily.strategy.kernel.fill_successors` with :func:`state_value` as the
    value of the next state."""
    n = P[P_DICE]
    for b in range(P[P_BOXES]):
        for k in range(0 if mask >> b & 1 else placing.outcomes(b, n, P, upper_face)):
            nm, nxt, yn, own = kernel.successor(mask, u, y, b, k, P, upper_face)
            succ[b, k] = own + (state_value(nm, nxt, yn, P, upper_face, par, chance)
                                if use_future else 0.0)


@njit(cache=True)
def roll_values(mask, y, P, raw, alike, upper_face, joker_points, succ, v0):  # pragma: no cover
    """``v0[r]``: the best box for each roll given ``succ`` (the kernel's placement, by
    :func:`daily.strategy.kernel.box_values_lanes` with one lane)."""
    nb, n, nr = P[P_BOXES], P[P_DICE], P[P_NROLLS]
    lanes_y = np.full(1, y, dtype=np.int64)
    kernel.box_values_lanes(mask, lanes_y, 1, P, raw, alike, upper_face, joker_points,
                            succ.reshape((1, nb, n + 1)), np.empty((nb, n + 1, 1)),
                            v0.reshape((nr, 1)))


@njit(cache=True, nogil=True)
def turn(
    mask, u, y, use_future, P, raw, raw_served, alike, upper_face, joker_points, child, parent,
    par, chance,
):  # pragma: no cover - compiled
    """Every within-turn value of one state, as :func:`daily.strategy.kernel.state_turn`."""
    n, nb, R = P[P_DICE], P[P_BOXES], P[P_ROLLS]
    nk, nr = P[P_NKEEPS], P[P_NROLLS]
    succ = np.zeros((nb, n + 1))
    v0 = np.empty(nr)
    v0s = np.empty(nr)
    successors(mask, u, y, use_future, P, upper_face, par, chance, succ)
    roll_values(mask, y, P, raw, alike, upper_face, joker_points, succ, v0)
    if P[P_SERVED] == 1:
        roll_values(mask, y, P, raw_served, alike, upper_face, joker_points, succ, v0s)
    E_all = np.full((R + 1, nk), np.nan)
    M_all = np.full((R, nk), np.nan)
    kernel.turn_tables(v0, v0s, P, child, parent, E_all, M_all)
    return v0, E_all, M_all


@njit(cache=True, nogil=True)
def play_games(
    slots, use_future, P, raw, raw_served, alike, upper_face, joker_points, child, parent, keeps,
    py_order, code_index, par, chance,
):  # pragma: no cover - compiled
    """Play one game per row of ``slots`` (games, turns, rolls, dice) with the decisions
    and tie-breaks of :class:`HeuristicAdvisor`; returns the totals and each box's points
    (games x boxes)."""
    n, nb = P[P_DICE], P[P_BOXES]
    G = slots.shape[0]
    totals = np.zeros(G, dtype=np.int64)
    points = np.zeros((G, nb), dtype=np.int64)
    succ = np.zeros((nb, n + 1))
    dice, need, cand_v, cand_a = kernel.turn_scratch(P)
    for g in range(G):
        mask = u = y = total = 0
        for t in range(nb):
            _, E_all, _ = turn(mask, u, y, use_future, P, raw, raw_served, alike, upper_face,
                               joker_points, child, parent, par, chance)
            successors(mask, u, y, use_future, P, upper_face, par, chance, succ)
            b, pts, extra = kernel.play_turn(2, 0.0, slots[g, t], mask, y, succ, E_all, P, raw,
                                             raw_served, alike, upper_face, joker_points,
                                             keeps, py_order, code_index, dice, need, cand_v,
                                             cand_a)
            points[g, b] = pts
            mask, u, y, gained = placing.placed(mask, u, y, b, pts, P, upper_face)
            total += gained + extra
        totals[g] = total
    return totals, points


def dedicated_pars(spec: GameSpec) -> np.ndarray:
    """Each box's expected points when a whole turn is spent on it alone (the pars the
    calibration starts from).

    >>> from daily.rules import get_ruleset
    >>> pars = dedicated_pars(GameSpec.from_rules(get_ruleset("yahtzee")))
    >>> round(float(pars[12]), 2)  # chance
    23.33
    """
    R, nk = spec.rules.rolls_per_turn, spec.n_keeps
    out = np.empty(len(spec.rules.boxes))
    E_all, M_all = np.empty((R + 1, nk)), np.empty((R, nk))
    for b in range(len(out)):
        v0 = spec.raw[:, b].astype(np.float64)
        kernel.turn_tables(v0, v0, spec.params, spec.child, spec.parent, E_all, M_all)
        out[b] = E_all[R, 0]
    return out


class HeuristicAdvisor(Advisor):
    """Values the actions of a position without a table (see the module); the interface
    of :class:`daily.strategy.advisor.Advisor`, with values that are estimates.

    >>> from daily.rules import get_ruleset
    >>> player = HeuristicAdvisor(get_ruleset("yacht", {"forced_order": True}))
    >>> pos = Position(player.rules, (None,) * 12, (1, 1, 1, 1, 2), 0)
    >>> player.best(pos).box
    'ones'
    """

    heuristic = True

    def __init__(self, rules: Ruleset, *, greedy: bool = False, cache: int = 64) -> None:
        self._setup(GameSpec.from_rules(rules), greedy=greedy, cache=cache)
        self.par, self.chance = calibrated(rules)

    @property
    def expected(self) -> float:
        """The heuristic estimate of a new game's score (the value of the empty card)."""
        return self.value(CardState(0, 0, 0))

    def value(self, state: CardState) -> float:
        """The heuristic value of a between-turn state (0 for the greedy player)."""
        if self.greedy:
            return 0.0
        return float(state_value(state.mask, state.upper, state.flag, self.spec.params,
                                 self.spec.upper_face, self.par, self.chance))

    def _turn(self, state: CardState) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        hit = self._turns.get(state)
        if hit is None:
            s = self.spec
            hit = turn(state.mask, state.upper, state.flag, not self.greedy, s.params, s.raw,
                       s.raw_served, s.alike, s.upper_face, s.joker_points, s.child, s.parent,
                       self.par, self.chance)
            if len(self._turns) >= self._cache:
                self._turns.clear()
            self._turns[state] = hit
        return hit

    def _future(self, state: CardState, box: int, points: int) -> float:
        return self.value(self.spec.next_state(state, box, points))

    def hint(self, pos: Position, top: int = 3) -> dict[str, Any]:
        """The best action and ``top`` alternatives as JSON, marked ``heuristic``."""
        return dict(hint_json(self.actions(pos, top + 1), pos, top), heuristic=True)

    def play_slots(self, slots: np.ndarray) -> np.ndarray:
        """Totals of one game per row of ``slots``, played by the compiled twin of
        :meth:`play` (the same decisions; for benchmarks)."""
        return self._play(slots)[0]

    def _play(self, slots: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        s = self.spec
        proper, code_index = keep_orders(s)
        totals, points = play_games(
            np.ascontiguousarray(slots, dtype=np.int64), not self.greedy, s.params, s.raw,
            s.raw_served, s.alike, s.upper_face, s.joker_points, s.child, s.parent, s.keeps,
            proper, code_index, self.par, self.chance,
        )
        return totals, points

    def play(self, game: Game) -> Game:
        """Play ``game`` to the end with the best action each time; returns it."""
        return play_out(game, self.best)


_PARS: dict[tuple[str, tuple[tuple[str, Any], ...]], tuple[np.ndarray, np.ndarray]] = {}
_PARS_LOCK = threading.Lock()


def calibrated(rules: Ruleset) -> tuple[np.ndarray, np.ndarray]:
    """The calibrated pars and bonus chances of ``rules`` (computed once per process)."""
    with _PARS_LOCK:
        key = (rules.name, tuple(sorted(rules.options.items())))
        hit = _PARS.get(key)
        if hit is None:
            hit = _PARS[key] = calibrate(GameSpec.from_rules(rules))
        return hit


def calibrate(
    spec: GameSpec, rounds: int = CALIBRATION_ROUNDS, games: int = CALIBRATION_GAMES
) -> tuple[np.ndarray, np.ndarray]:
    """Pars by self-play from :func:`dedicated_pars`, and the bonus chances.

    >>> from daily.rules import get_ruleset
    >>> par, chance = calibrate(GameSpec.from_rules(get_ruleset("yatzy")), 1, 50)
    >>> par.shape, chance.shape
    ((15,), (64, 64))
    """
    n, q = spec.rules.dice, 1.0 - (5 / 6) ** spec.rules.rolls_per_turn
    pmf = np.array([math.comb(n, k) * q**k * (1 - q) ** (n - k) for k in range(n + 1)])
    chance = bonus_chances(spec.params, spec.upper_face, pmf)
    par = dedicated_pars(spec)
    slots = random_slots(spec.rules, games, CALIBRATION_SEED)
    proper, code_index = keep_orders(spec)
    for _ in range(rounds):
        _, points = play_games(
            slots, True, spec.params, spec.raw, spec.raw_served, spec.alike, spec.upper_face,
            spec.joker_points, spec.child, spec.parent, spec.keeps, proper, code_index, par,
            chance,
        )
        par = points.mean(axis=0)
        pmf = upper_counts(spec, points)
        chance = bonus_chances(spec.params, spec.upper_face, pmf)
    return par, chance


def upper_counts(spec: GameSpec, points: np.ndarray) -> np.ndarray:
    """How often an upper box got ``k`` dice of its face, over the games (a pmf)."""
    counts = np.zeros(spec.rules.dice + 1)
    for b, face in enumerate(spec.upper_face):
        if face:
            counts += np.bincount(points[:, b] // face, minlength=len(counts))[: len(counts)]
    return counts / counts.sum() if counts.sum() else counts
