"""The stricter test a ranked game passes before it enters the top of its board.

A game that would enter the top (the top 100, or the top 1% where that is fewer) is
where cheating pays, and where honest games are few, so it can be tested harder at
little cost in honest games held. It passes when both hold:

* the ordinary test: ``Λ`` (:func:`daily.fairplay.foresight.statistic`) under the day's
  secret line :attr:`DayParams.threshold`, and the positional test
  (:func:`daily.fairplay.foresight.positional_statistic`) under
  :attr:`DayParams.positional_threshold`;
* the scrutiny test: the same likelihood ratio over the decisions of the day's secret
  scrutiny subset only (:meth:`DayParams.weights`: a random half of the (turn, roll)
  slots), under the day's secret line :attr:`DayParams.strict_threshold`, and the
  positional test over the same subset under :attr:`DayParams.strict_positional_threshold`;
* on an audited game (:meth:`DayParams.audited`: one in 200, drawn from the key
  and the game's id), both scrutiny statistics under the audit's far lower lines too
  (:attr:`DayParams.audit_threshold`, :attr:`DayParams.audit_positional_threshold`).

A cheater who runs this code knows every range but neither line, nor which decisions
are looked at, nor which games are audited: to be safe it must stay under the lowest
line (the audit's) for every subset, and the
subset that holds it is the one that gathers its foresight, while an honest game meets
one random subset, not its worst. ``docs/fairplay.md`` gives the method and the figures,
``bench/fairplay.py`` the calibration on honest games that reach the top.

>>> from daily.rules import get_ruleset
>>> from daily.strategy.solver import solve
>>> from daily.fairplay.ceiling import ceiling_of_seed
>>> from daily.fairplay.daykey import DayParams
>>> rules = get_ruleset("yacht", {"forced_order": True})
>>> ceiling = ceiling_of_seed(rules, bytes(32))
>>> params = DayParams.from_key(bytes(32), "yacht")
>>> verdict = strict_assess(ceiling.perfect_log(seed=bytes(32)), ceiling, solve(rules), params)
>>> verdict.method, verdict.strict is not None, verdict.audit_threshold is None
('foresight-strict/3', True, True)
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from daily.fairplay.ceiling import Ceiling
from daily.fairplay.daykey import DayParams
from daily.fairplay.foresight import (
    Verdict,
    Walked,
    positional_statistic,
    verdict_of,
    walk_log,
)
from daily.movelog import MoveLog
from daily.strategy.solver import StrategyTable

#: Version of the stricter test; stored with its verdicts. "foresight-strict/3": the
#: strict likelihood line drawn in 8 to 10 and Maxi Yatzy's audit line in 1 to 2
#: (:mod:`daily.fairplay.daykey`); "/2": 7 to 9 and 1.5 to 2.5 for every ruleset; "/1":
#: without the audit.
STRICT_METHOD = "foresight-strict/3"


def weighted_statistic(per: np.ndarray, weights: np.ndarray) -> float:
    """The likelihood ratio of the decisions' log-likelihoods weighted by ``weights``.

    ``per[d, i, j]``: decision ``d``'s log-likelihood at (beta_E[i], beta_V[j]); column 0
    is the honest model. With every weight 1 it is the ordinary statistic.

    >>> per = np.array([[[-2.0, -1.0]], [[-1.0, -3.0]]])
    >>> weighted_statistic(per, np.ones(2)), weighted_statistic(per, np.array([2.0, 1.0]))
    (0.0, 0.0)
    >>> weighted_statistic(per, np.array([3.0, 1.0]))
    1.0
    """
    total = np.tensordot(weights, per, axes=(0, 0)) if len(per) else np.zeros((1, 1))
    return float(total.max() - total[:, 0].max())


def strict_of(walked: Walked, ceiling: Ceiling, params: DayParams,
              game_id: str | None = None) -> Verdict:
    """The stricter verdict of a walked game (shared with the simulations)."""
    return strict_verdict(verdict_of(ceiling.rules, ceiling.slots, ceiling.value, walked,
                                     params.threshold,
                                     positional_threshold=params.positional_threshold),
                          walked, params, game_id=game_id)


def strict_lines(params: DayParams, audited: bool) -> tuple[float, float]:
    """The lines of the scrutiny statistics (likelihood, positional): the strict ones,
    or the audit's on an audited game.

    >>> p = DayParams.from_key(bytes(32), "yahtzee")
    >>> strict_lines(p, True) < strict_lines(p, False)
    True
    """
    if audited:
        return (min(params.strict_threshold, params.audit_threshold),
                min(params.strict_positional_threshold, params.audit_positional_threshold))
    return params.strict_threshold, params.strict_positional_threshold


def strict_verdict(ordinary: Verdict, walked: Walked, params: DayParams,
                   method: str = STRICT_METHOD, game_id: str | None = None) -> Verdict:
    """The ordinary verdict of a walked game made strict: held too when a scrutiny
    statistic reaches the day's strict line, or the audit's when the game ``game_id``
    is audited (no audit without an id)."""
    weights = params.weights(walked.evidence[:, :2].astype(np.int64))
    strict = weighted_statistic(walked.per, weights)
    strict_pos = positional_statistic(walked.evidence, weights)
    audited = params.audited(game_id)
    line, line_pos = strict_lines(params, audited)
    flagged = ordinary.flagged or strict >= line or strict_pos >= line_pos
    return replace(ordinary, flagged=flagged, method=method, strict=strict,
                   strict_threshold=params.strict_threshold, strict_positional=strict_pos,
                   strict_positional_threshold=params.strict_positional_threshold,
                   audit_threshold=params.audit_threshold if audited else None,
                   audit_positional_threshold=(params.audit_positional_threshold
                                               if audited else None))


def strict_assess(
    log: MoveLog, ceiling: Ceiling, table: StrategyTable, params: DayParams,
    game_id: str | None = None,
) -> Verdict:
    """The stricter check of a game on its way into the top of its board.

    ``ceiling`` is the day's (its dice), ``table`` the ruleset's strategy table,
    ``params`` the day set's secret parameters (:class:`DayParams`, from its fair-play
    key) and ``game_id`` the game's id, which draws whether it is audited. Pure: no
    Flask, no Redis; raises :class:`daily.errors.LogFormatError` for a log that does not
    replay on the day's dice.
    """
    return strict_of(walk_log(log, ceiling, table), ceiling, params, game_id)
