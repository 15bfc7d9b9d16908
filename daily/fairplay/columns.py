"""Foresight detection for Triple Yahtzee (39 boxes in three weighted columns).

No exact table and no exact ceiling exist for 39 boxes on one machine, so the test of
:mod:`daily.fairplay.foresight` is run with what can be computed:

* ``E(a)``: the value of the action for the lookahead player of
  :mod:`daily.strategy.triple` (exact single-column values, weighted, one turn of
  expectimax over the three columns): the honest model is a softmax over it;
* ``V(a)``: hindsight *within the turn*: the best end of the turn reachable after the
  action with the dice to come, valued the same way.

A player who knows the turn's slots picks the holds that reach its best end (left or
right die of a pair, say): that is what ``Λ`` measures here. Foresight *across* turns
(leaving a box open for a Yahtzee known to come) is not measured (``docs/fairplay.md``
says what that leaves a cheater).

>>> from daily.rules import get_ruleset
>>> from daily.strategy.solver import solve
>>> from daily.strategy.triple import column_rules
>>> from daily.fairplay.ceiling import slots_of_seed
>>> rules = get_ruleset("triple-yahtzee")
>>> table = solve(column_rules(rules))
>>> slots = slots_of_seed(rules, bytes(32))
>>> cheat = play_columns(table, rules, slots, "foresight")
>>> assess_columns(cheat, slots, table).flagged
True
"""

from __future__ import annotations

import numpy as np

from daily.errors import LogFormatError
from daily.fairplay import kernel
from daily.fairplay.ceiling import actions_to_turns, turns_to_actions
from daily.fairplay.daykey import DayParams
from daily.fairplay.foresight import (
    BETAS_E,
    BETAS_V,
    THRESHOLD,
    Verdict,
    Walked,
    verdict_of,
)
from daily.fairplay.strict import STRICT_METHOD, strict_verdict
from daily.movelog import MoveLog
from daily.rules import Ruleset
from daily.strategy.simulate import keep_orders
from daily.strategy.solver import StrategyTable
from daily.strategy.spec import StrategyError
from daily.strategy.triple import column_rules

#: Version of the multi-column test; stored with every verdict.
TURN_METHOD = "turn-foresight/1"
#: The stricter form of it (games entering the top of a board).
TURN_STRICT_METHOD = STRICT_METHOD.replace("foresight", "turn-foresight")
POLICIES = {"replay": kernel.REPLAY, "softmax": kernel.SOFTMAX,
            "foresight": kernel.FORESIGHT, "mixed": kernel.MIXED}


def _check(rules: Ruleset, table: StrategyTable) -> None:
    if len(rules.weights) < 2:
        raise StrategyError(f"{rules.name} is not a multi-column game", field="ruleset")
    if table.rules != column_rules(rules):
        raise StrategyError(f"{rules.name} needs the table of {column_rules(rules).name}"
                            f" {column_rules(rules).non_default_options()}", field="table")


def walk_columns(
    table: StrategyTable, rules: Ruleset, slots: np.ndarray, policy: str = "replay",
    actions: np.ndarray | None = None, tau: float = 0.0, seed: int = 0,
) -> Walked:
    """Walk one game of a multi-column ruleset (replay ``actions``, or play a policy)."""
    _check(rules, table)
    spec = table.spec
    py_order, code_index = keep_orders(spec)
    weights = np.array(rules.weights, dtype=np.int64)
    acts = np.zeros(1, dtype=np.int64) if actions is None else actions
    loglik, decided, evidence, total, per = kernel.walk_columns(
        np.ascontiguousarray(slots, dtype=np.int64), POLICIES[policy], float(tau), int(seed),
        acts, BETAS_E, BETAS_V, table.values, spec.params, spec.raw, spec.alike,
        spec.upper_face, spec.joker_points, spec.child, spec.parent, spec.keeps, py_order,
        code_index, weights,
    )
    if total < 0 or (actions is not None and len(decided) != len(actions)):
        raise LogFormatError("the log does not replay on the day's dice", field="log")
    return Walked(loglik, per, decided, evidence, int(total))


def play_columns(table: StrategyTable, rules: Ruleset, slots: np.ndarray, policy: str,
                 tau: float = 0.0, seed: int = 0) -> MoveLog:
    """A game played by a policy on ``slots``, as a move log (for tests and the bench)."""
    walked = walk_columns(table, rules, slots, policy, tau=tau, seed=seed)
    return MoveLog(rules.name, actions_to_turns(rules, walked.decided),
                   tuple(rules.non_default_options().items()), bytes(32))


def assess_columns(
    log: MoveLog, slots: np.ndarray, table: StrategyTable, params: DayParams | None = None,
    *, strict: bool = False, game_id: str | None = None,
) -> Verdict:
    """Check a finished multi-column game (ordinary test; ``strict`` adds the weighted
    test of :mod:`daily.fairplay.strict`, which needs ``params``, and its audit drawn by
    ``game_id``)."""
    rules = log.rules
    walked = walk_columns(table, rules, slots, actions=turns_to_actions(rules, log))
    if params is None:
        ordinary = verdict_of(rules, slots, 0, walked, THRESHOLD, TURN_METHOD)
    else:
        ordinary = verdict_of(rules, slots, 0, walked, params.threshold, TURN_METHOD,
                              params.positional_threshold)
    if not strict:
        return ordinary
    if params is None:
        raise ValueError("the stricter test needs the day's parameters")
    return strict_verdict(ordinary, walked, params, TURN_STRICT_METHOD, game_id=game_id)

