"""The informed cheater: the best game that the public parts of the detector let through.

It has read the code: it knows every slot of the day (a scout saw them), the strategy
table, the detector and every published range (:mod:`daily.fairplay.daykey`), but not
the day's fair-play key, so neither the day's lines nor its scrutiny subset. It plays
candidate games with foresight and keeps the best-scoring one that it can check is safe:

* the mixed games ``argmax E(a) + rho V(a)`` for a grid of ``rho`` (:data:`RHOS`), from
  optimal play to the perfect game;
* the partial games: optimal play with full foresight on its ``b`` decisions that gain
  at least ``g`` points in hindsight (:data:`PARTIAL`);

safe meaning: the ordinary statistic under the lowest line of its range, and the
scrutiny statistics under the lowest line the stricter test can use, the audit's
(:func:`daily.fairplay.daykey.audit_range`), for each of ``subsets`` subsets it draws
itself (it aims at the top, where the stricter test runs). Optimal play is always safe
(its statistic is 0).

The *gambling* cheater (``gamble=True``) ignores the audit: it stays under the lowest
strict lines only and accepts being held on the audited games (one in two hundred of
those entering the top); the evidence across days is what catches it
(:mod:`daily.fairplay.history.residual`). ``bench/fairplay.py`` measures both over many days;
the tests run them on a few.

>>> from daily.rules import get_ruleset
>>> from daily.strategy.solver import solve
>>> from daily.strategy.simulate import random_slots
>>> from daily.fairplay.daykey import DayParams
>>> rules = get_ruleset("yacht", {"forced_order": True})
>>> params = DayParams.from_key(bytes(32), "yacht")
>>> day = SimDay(rules, solve(rules), random_slots(rules, 1, 3)[0], params)
>>> game = informed_game(day, np.random.default_rng(1), subsets=4)
>>> game.total >= day.walk(kernel.SOFTMAX).total  # never worse than optimal play
True
"""

from __future__ import annotations

import numpy as np

from daily.fairplay import kernel
from daily.fairplay.ceiling import Ceiling, solve_ceiling
from daily.fairplay.columns import walk_columns
from daily.fairplay.daykey import (
    AUDIT_POSITIONAL_RANGE,
    POSITIONAL_RANGE,
    SCRUTINY_SHARE,
    STRICT_POSITIONAL_RANGE,
    STRICT_RANGE,
    THRESHOLD_RANGE,
    DayParams,
    audit_range,
)
from daily.fairplay.foresight import BETAS_E, BETAS_V, Walked, positional_statistic, statistic
from daily.fairplay.strict import strict_lines, weighted_statistic
from daily.rules import Ruleset
from daily.strategy.solver import StrategyTable

#: The mixed cheater's weights of hindsight (per point of expected value).
RHOS = tuple(float(x) for x in np.geomspace(0.01, 3.0, 16))
#: The partial cheater's (decisions with foresight, least hindsight gain).
PARTIAL = tuple((b, g) for b in (1, 2, 3, 4, 6, 8) for g in (3.0, 10.0, 25.0))
_NAMES = {kernel.SOFTMAX: "softmax", kernel.MIXED: "mixed", kernel.FORESIGHT: "foresight"}


class SimDay:
    """One day of one ruleset for simulation: its slots, ceiling (none for Triple
    Yahtzee, whose ``table`` is its column table) and secret parameters."""

    def __init__(self, rules: Ruleset, table: StrategyTable, slots: np.ndarray,
                 params: DayParams, ceiling: Ceiling | None = None) -> None:
        self.rules, self.table, self.slots, self.params = rules, table, slots, params
        self.columns = len(rules.weights) > 1
        self.ceiling = ceiling if ceiling is not None or self.columns else solve_ceiling(
            rules, slots)

    def walk(self, policy: int, tau: float = 0.0, seed: int = 0, budget: int = 0,
             gain: float = 5.0) -> Walked:
        """Play one game by a kernel policy, walked through the detector."""
        if self.columns:
            return walk_columns(self.table, self.rules, self.slots, _NAMES[policy], tau=tau,
                                seed=seed)
        c = self.ceiling
        assert c is not None
        spec = self.table.spec
        py_order, code_index = c.orders
        loglik, decided, evidence, total, per = kernel.walk(
            c.slots, policy, tau, gain, budget, seed, np.zeros(1, dtype=np.int64), BETAS_E,
            BETAS_V, self.table.values, c.values, spec.params, spec.raw, spec.raw_served,
            spec.alike, spec.upper_face, spec.joker_points, spec.child, spec.parent,
            spec.keeps, py_order, code_index,
        )
        return Walked(loglik, per, decided, evidence, int(total))

    def scrutiny(self, walked: Walked) -> float:
        """The scrutiny statistic on the day's secret subset."""
        return weighted_statistic(walked.per, self.params.weights(
            walked.evidence[:, :2].astype(np.int64)))

    def weights(self, walked: Walked) -> np.ndarray:
        """The day's scrutiny subset, as weights of the game's decisions."""
        return self.params.weights(walked.evidence[:, :2].astype(np.int64))

    def held(self, walked: Walked, at_top: bool, audited: bool = False) -> bool:
        """The day's decision: the ordinary test, and the stricter one at the top (with
        the audit's lines when ``audited``)."""
        p = self.params
        if (statistic(walked.loglik) >= p.threshold
                or positional_statistic(walked.evidence) >= p.positional_threshold):
            return True
        weights = self.weights(walked)
        line, line_pos = strict_lines(p, audited)
        return at_top and (weighted_statistic(walked.per, weights) >= line
                           or positional_statistic(walked.evidence, weights) >= line_pos)


def own_subsets(walked: Walked, rng: np.random.Generator, count: int) -> tuple[float, float]:
    """The largest scrutiny and positional statistics over ``count`` random subsets drawn
    by the cheater (as the day's is: each (turn, roll) with probability ``SCRUTINY_SHARE``)."""
    slots = walked.evidence[:, :2].astype(np.int64)
    if not len(slots):
        return 0.0, 0.0
    turns, rolls = int(slots[:, 0].max()) + 1, int(slots[:, 1].max()) + 1
    worst = worst_pos = 0.0
    for _ in range(count):
        pick = rng.random((turns, rolls)) < SCRUTINY_SHARE
        weights = pick[slots[:, 0], slots[:, 1]].astype(float)
        worst = max(worst, weighted_statistic(walked.per, weights))
        worst_pos = max(worst_pos, positional_statistic(walked.evidence, weights))
    return worst, worst_pos


def safe_lines(ruleset: str, gamble: bool = False) -> tuple[float, float]:
    """The scrutiny lines the cheater stays under on a day of ``ruleset``: the audit's
    lowest (the lowest lines the stricter test can use), or with ``gamble`` the strict
    ones' lowest.

    >>> safe_lines("yahtzee") < safe_lines("yahtzee", gamble=True)
    True
    >>> safe_lines("maxi-yatzy") < safe_lines("yahtzee")
    True
    """
    if gamble:
        return STRICT_RANGE[0], STRICT_POSITIONAL_RANGE[0]
    return (min(audit_range(ruleset)[0], STRICT_RANGE[0]),
            min(AUDIT_POSITIONAL_RANGE[0], STRICT_POSITIONAL_RANGE[0]))


def subset_bounds(walked: Walked, steps: int = 200) -> tuple[float, float]:
    """Bounds of the scrutiny statistics (likelihood, positional) over *every* subset
    of the (turn, roll) slots, the day's included: a game under both lines by these is
    provably safe against the stricter test, whatever subset the key draws.

    Likelihood, by convex duality: with ``A_s = `` the sum of slot ``s``'s decisions'
    log-likelihoods at ``(i, j)`` and ``B_s`` at ``(i', 0)``, a subset's statistic is
    at most ``max_ij min_i' sum_{s in subset} (A_s - B_s)``; over the box ``[0, 1]`` per
    slot (which holds every subset) and for any weights ``lam`` over ``i'`` (a mean is
    at least the least), that is at most ``sum_s max(0, sum_i' lam_i' (A_s - B_s))``.
    Any ``lam`` gives a bound; ``steps`` of mirror descent look for a small one.
    Positional: a subset's tail ``P(S >= s)`` is at least the chance that its lucky
    holds were all lucky, so its statistic is at most ``sum -ln p`` over every lucky
    hold of the game (the subset of those holds reaches it).

    >>> per = np.zeros((2, 1, 2)); per[:, 0, 1] = [3.0, -2.0]
    >>> ev = np.zeros((2, 10)); ev[:, 1] = [0, 1]; ev[:, 7:10] = [[2, 1, 1], [2, 1, 0]]
    >>> w = Walked(per.sum(axis=0), per, np.zeros(2), ev, 0)
    >>> bound, bound_pos = subset_bounds(w)
    >>> round(bound, 6), round(bound_pos, 3)  # the first slot alone: 3, and one lucky half
    (3.0, 0.693)
    >>> bound >= weighted_statistic(per, np.array([1.0, 0.0]))
    True
    """
    if not len(walked.per):
        return 0.0, 0.0
    slots = walked.evidence[:, :2].astype(np.int64)
    _, slot = np.unique(slots, axis=0, return_inverse=True)
    by_slot = np.zeros((int(slot.max()) + 1, *walked.per.shape[1:]))
    np.add.at(by_slot, slot.ravel(), walked.per)
    pairs = by_slot.reshape(len(by_slot), -1)  # (slots, pairs (i, j))
    honest = by_slot[:, :, 0]  # (slots, i')
    diff = pairs[:, :, None] - honest[:, None, :]  # (slots, pairs, i')
    lam = np.full(diff.shape[1:], 1.0 / diff.shape[2])
    best = np.full(diff.shape[1], np.inf)
    rate = 1.0 / max(float(np.abs(diff).sum(axis=0).max()), 1e-9)
    for _ in range(steps):
        inner = np.einsum("spk,pk->sp", diff, lam)
        best = np.minimum(best, np.maximum(inner, 0.0).sum(axis=0))
        grad = np.einsum("sp,spk->pk", (inner > 0).astype(float), diff)
        lam = lam * np.exp(-rate * 4.0 * (grad - grad.min(axis=1, keepdims=True)))
        lam /= lam.sum(axis=1, keepdims=True)
    ev = walked.evidence
    lucky = (ev[:, 7] > ev[:, 8]) & (ev[:, 8] > 0) & (ev[:, 9] > 0)
    bound_pos = float(-np.log(ev[lucky, 8] / ev[lucky, 7]).sum()) if lucky.any() else 0.0
    return float(best.max()), bound_pos


def provably_safe(walked: Walked) -> bool:
    """Whether a game is safe against the ordinary test (under the lowest lines of its
    ranges) and the unaudited stricter one for every subset and every line it can draw
    (:func:`subset_bounds` under the lowest strict lines): the cheater of issue 37, who
    takes no risk but the audit's (one game in 200 entering the top).

    >>> per = np.zeros((1, 1, 2)); ev = np.zeros((1, 10))
    >>> provably_safe(Walked(per.sum(axis=0), per, np.zeros(1), ev, 0))
    True
    """
    if (statistic(walked.loglik) >= THRESHOLD_RANGE[0]
            or positional_statistic(walked.evidence) >= POSITIONAL_RANGE[0]):
        return False
    bound, bound_pos = subset_bounds(walked)
    return bound < STRICT_RANGE[0] and bound_pos < STRICT_POSITIONAL_RANGE[0]


def looks_safe(walked: Walked, ruleset: str, rng: np.random.Generator, subsets: int,
               gamble: bool = False) -> bool:
    """Whether the public parts of the detector let a game of ``ruleset`` through, as
    far as the cheater can tell (the lowest lines; its own draws of the subset;
    ``gamble``: the audit ignored)."""
    if (statistic(walked.loglik) >= THRESHOLD_RANGE[0]
            or positional_statistic(walked.evidence) >= POSITIONAL_RANGE[0]):
        return False
    worst, worst_pos = own_subsets(walked, rng, subsets)
    line, line_pos = safe_lines(ruleset, gamble)
    return worst < line and worst_pos < line_pos


def candidates(day: SimDay) -> list[Walked]:
    """Every game the cheater considers (the mixed ones; the partial ones too where the
    kernel plays them)."""
    out = [day.walk(kernel.MIXED, rho) for rho in RHOS]
    if not day.columns:
        out += [day.walk(kernel.PARTIAL, 0.0, 0, b, g) for b, g in PARTIAL]
    return out


def informed_game(day: SimDay, rng: np.random.Generator, subsets: int = 32,
                  gamble: bool = False) -> Walked:
    """The best-scoring candidate that looks safe, or optimal play (always safe) when
    none scores more (``gamble``: the gambling cheater's)."""
    best = day.walk(kernel.SOFTMAX, 0.0)
    for walked in candidates(day):
        if walked.total > best.total and looks_safe(walked, day.rules.name, rng, subsets,
                                                    gamble):
            best = walked
    return best
