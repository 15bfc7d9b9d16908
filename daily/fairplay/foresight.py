"""Foresight detection: were a game's decisions explained by the dice to come?

Two models of a player choose among the legal actions of each decision (every hold
mask that rerolls something, every legal box):

* honest: ``P(a) ∝ exp(E(a) / τ)``, ``E`` the expected final score of the action with
  optimal play after it (the strategy table);
* clairvoyant: ``P(a) ∝ exp(V(a) / τ)``, ``V`` the final score the action leads to with
  perfect play knowing every slot of the day (the ceiling's table).

Each model's temperature is fitted to the game (the best of :data:`TAUS`), and the
statistic is the log-likelihood ratio ``Λ = max_τ log L_clairvoyant - max_τ log
L_honest``. A game is held for review when ``Λ >= THRESHOLD``. ``docs/fairplay.md``
gives the maths and ``bench/fairplay.py`` the calibration behind the threshold.

The evidence shown to an operator is the list of *tells*: decisions that lost in
expectation (``E`` below the best by more than :data:`TELL_LOSS` points) and were
exactly right in hindsight (``V`` at its maximum, above the expected-best action's).

>>> from daily.rules import get_ruleset
>>> from daily.strategy.solver import solve
>>> from daily.fairplay.ceiling import ceiling_of_seed
>>> rules = get_ruleset("yacht", {"forced_order": True})
>>> ceiling = ceiling_of_seed(rules, bytes(32))
>>> cheat = assess(ceiling.perfect_log(seed=bytes(32)), ceiling, solve(rules))
>>> cheat.statistic > 0, cheat.total == ceiling.value  # forced order: few decisions
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from daily.errors import DailyError, LogFormatError
from daily.fairplay import kernel
from daily.fairplay.ceiling import Ceiling, actions_to_turns, turns_to_actions
from daily.fairplay.daykey import DayParams
from daily.movelog import MoveLog
from daily.replay import replay
from daily.strategy.solver import StrategyTable

#: Version of the method; stored with every verdict.
METHOD = "foresight-llr/1"
#: The method without a strategy table (or for a ceiling-only ruleset): only a ceiling
#: score is held.
CEILING_ONLY = "ceiling-only/1"
#: Weights (per point of final score) of the expected values over which the models
#: are fitted (inverse temperatures).
BETAS_E = np.array([1 / 32, 1 / 16, 1 / 8, 1 / 4, 1 / 2, 1.0, 2.0, 4.0])
#: Weights of the hindsight values; the first, 0, is the honest model.
BETAS_V = np.array([0.0, 1 / 8, 1 / 2, 2.0, 8.0])
#: Games with a log-likelihood ratio at or above this are held for review.
THRESHOLD = 12.0
#: The positional test's line without the day's parameters (one game in 100,000).
POSITIONAL_THRESHOLD = 11.5
#: A tell loses at least this much in expectation.
TELL_LOSS = 0.5
#: At most this many tells are kept as evidence.
MAX_TELLS = 8


@dataclass(frozen=True)
class Tell:
    """A decision that lost in expectation and was exactly right in hindsight."""

    turn: int  # 1-based
    roll: int  # 1-based
    chosen: str
    expected_best: str
    expected_loss: float
    hindsight_gain: float

    def describe(self) -> str:
        """The tell in words.

        >>> Tell(3, 2, "keeping 5-5", "keeping 5-5-6", 4.21, 31).describe()[:60]
        'turn 3, roll 2: keeping 5-5 was 4.2 points worse on average '
        """
        return (
            f"turn {self.turn}, roll {self.roll}: {self.chosen} was {self.expected_loss:.1f}"
            f" points worse on average than {self.expected_best}, and gained"
            f" {self.hindsight_gain:.0f} with the dice that came"
        )

    def to_json(self) -> dict[str, Any]:
        """The tell as JSON, with its sentence."""
        return {
            "turn": self.turn,
            "roll": self.roll,
            "chosen": self.chosen,
            "expected_best": self.expected_best,
            "expected_loss": round(self.expected_loss, 2),
            "hindsight_gain": round(self.hindsight_gain, 2),
            "text": self.describe(),
        }


@dataclass(frozen=True)
class Verdict:
    """The outcome of the check of one game."""

    flagged: bool
    statistic: float
    total: int
    ceiling: int
    decisions: int
    optimal_in_hindsight: int
    tells: tuple[Tell, ...]
    scouting: float  # share of rerolls that rerolled every die
    method: str = METHOD
    #: The line the statistic was held against: the day's (secret until the reveal).
    threshold: float = THRESHOLD
    #: The stricter test's weighted statistic and its line (None: not run).
    strict: float | None = None
    strict_threshold: float | None = None
    #: The positional test (:func:`positional_statistic`) and its line; then the same on
    #: the scrutiny subset, for the stricter test.
    positional: float | None = None
    positional_threshold: float | None = None
    strict_positional: float | None = None
    strict_positional_threshold: float | None = None
    #: The audit's lines when the game was audited (None: it was not).
    audit_threshold: float | None = None
    audit_positional_threshold: float | None = None
    #: The sum over the decisions of what each lost in expectation against the best one
    #: (points of final score, optimal play after it); None without a strategy table.
    expected_loss: float | None = None

    @property
    def reason(self) -> str | None:
        """Why the game is held, in plain words (None when it is not)."""
        if not self.flagged:
            return None
        if self.method == CEILING_ONLY:
            return (
                f"the game scored {self.total}, the best score possible with these dice"
                " (the day's perfect-information ceiling), which takes knowing dice that"
                " had not been shown yet"
            )
        # No figure that depends on the day's secret parameters: the line and the
        # weighted statistic are published with the day's key after the reveal.
        return (
            f"{self.optimal_in_hindsight} of {self.decisions} decisions were exactly the"
            f" best ones for dice that had not been shown yet, more than fair play explains"
        )

    def to_json(self) -> dict[str, Any]:
        """The verdict as JSON (``method`` names the version of the check)."""
        return {
            "method": self.method,
            "flagged": self.flagged,
            "statistic": round(self.statistic, 3),
            "threshold": round(self.threshold, 6),
            "strict": _rounded(self.strict, 3),
            "strict_threshold": _rounded(self.strict_threshold, 6),
            "positional": _rounded(self.positional, 3),
            "positional_threshold": _rounded(self.positional_threshold, 6),
            "strict_positional": _rounded(self.strict_positional, 3),
            "strict_positional_threshold": _rounded(self.strict_positional_threshold, 6),
            "audit_threshold": _rounded(self.audit_threshold, 6),
            "audit_positional_threshold": _rounded(self.audit_positional_threshold, 6),
            "total": self.total,
            "ceiling": self.ceiling,
            "decisions": self.decisions,
            "optimal_in_hindsight": self.optimal_in_hindsight,
            "scouting": round(self.scouting, 3),
            "expected_loss": _rounded(self.expected_loss, 3),
            "reason": self.reason,
            "tells": [t.to_json() for t in self.tells],
        }


def _rounded(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits)


def positional_statistic(evidence: np.ndarray, weights: np.ndarray | None = None) -> float:
    """``-ln P(S >= s)``: how unlikely the game's positional luck is for a player who
    does not know the dice to come, whatever their habits (an exact tail).

    At each hold, the masks that keep the same dice at other positions are equally
    likely to be the best in hindsight for such a player (the kernel's evidence columns
    7 to 9: masks, best ones, chosen one best). ``S`` counts the holds whose mask was a
    best one, over the holds where not every mask is (``weights``: only those of weight
    > 0, the scrutiny subset); ``s`` is its value in the game. Its law is a sum of
    independent Bernoulli draws, computed exactly.

    >>> ev = np.zeros((3, 10))
    >>> ev[:, 7:10] = [[2, 1, 1], [2, 1, 1], [4, 4, 1]]  # two lucky halves, one certainty
    >>> round(positional_statistic(ev), 3)  # P = 1/4
    1.386
    >>> positional_statistic(ev, np.array([0.0, 0.0, 1.0]))
    0.0
    """
    rows = evidence[(evidence[:, 7] > evidence[:, 8]) & (evidence[:, 8] > 0)]
    if weights is not None:
        keep = (evidence[:, 7] > evidence[:, 8]) & (evidence[:, 8] > 0)
        rows = evidence[keep & (weights > 0)]
    if not len(rows):
        return 0.0
    p = rows[:, 8] / rows[:, 7]
    hits = int(rows[:, 9].sum())
    law = np.zeros(len(p) + 1)
    law[0] = 1.0
    for q in p:
        law[1:] = law[1:] * (1 - q) + law[:-1] * q
        law[0] *= 1 - q
    return float(-np.log(max(law[hits:].sum(), 1e-300)))


def statistic(loglik: np.ndarray) -> float:
    """``max log L(beta_E, beta_V) - max log L(beta_E, 0)`` from the kernel's grid.

    >>> statistic(np.array([[-10.0, -4.0], [-7.0, -3.0]]))
    4.0
    """
    return float(loglik.max() - loglik[:, 0].max())


def _action_text(rules: Any, dice: tuple[int, ...], code: int) -> str:
    if code < 0:
        return "scoring in " + rules.box_ids[-code - 1].replace("_", " ")
    kept = sorted(d for i, d in enumerate(dice) if code >> i & 1)
    return "keeping " + "-".join(map(str, kept)) if kept else "rerolling everything"


@dataclass(frozen=True, eq=False)
class Walked:
    """One game walked decision by decision (:func:`walk_log`): what every test reads."""

    loglik: np.ndarray  # (len(BETAS_E), len(BETAS_V)): the sum of ``per``
    per: np.ndarray  # (decisions, len(BETAS_E), len(BETAS_V)): each decision's own
    decided: np.ndarray  # the actions, coded as the kernel's
    evidence: np.ndarray  # (decisions, 7): see :func:`daily.fairplay.kernel.walk`
    total: int


def walk_log(log: MoveLog, ceiling: Ceiling, table: StrategyTable) -> Walked:
    """Walk a finished game on the day's ceiling and the strategy table.

    ``ceiling`` must be of the log's dice (the day's) and ``table`` of its ruleset.
    """
    rules = ceiling.rules
    if log.rules != rules or table.rules != rules:
        raise LogFormatError(
            f"the log is for {log.ruleset}, the ceiling for {rules.name} and the table for"
            f" {table.rules.name}",
            field="ruleset",
        )
    actions = turns_to_actions(rules, log)
    spec = ceiling.spec
    py_order, code_index = ceiling.orders
    loglik, decided, evidence, total, per = kernel.walk(
        ceiling.slots, kernel.REPLAY, 0.0, 0.0, 0, 0, actions, BETAS_E, BETAS_V, table.values,
        ceiling.values, spec.params, spec.raw,
            spec.raw_served, spec.alike, spec.upper_face,
        spec.joker_points, spec.child, spec.parent, spec.keeps, py_order, code_index,
    )
    if total < 0 or len(decided) != len(actions):
        raise LogFormatError("the log does not replay on the day's dice", field="log")
    return Walked(loglik, per, decided, evidence, int(total))


def assess(
    log: MoveLog, ceiling: Ceiling, table: StrategyTable, params: DayParams | None = None
) -> Verdict:
    """Check one finished game against the day's ceiling and the strategy table.

    ``params``: the day's secret parameters (its line, :attr:`DayParams.threshold`);
    without them the fixed :data:`THRESHOLD` (the offline checks).
    """
    walked = walk_log(log, ceiling, table)
    if params is None:
        return verdict_of(ceiling.rules, ceiling.slots, ceiling.value, walked)
    return verdict_of(ceiling.rules, ceiling.slots, ceiling.value, walked, params.threshold,
                      positional_threshold=params.positional_threshold)


def verdict_of(
    rules: Any,
    slots: np.ndarray,
    ceiling: int,
    walked: Walked,
    threshold: float = THRESHOLD,
    method: str = METHOD,
    positional_threshold: float | None = POSITIONAL_THRESHOLD,
) -> Verdict:
    """Build the verdict from a walked game (shared with the simulations and the
    multi-column test, whose ``ceiling`` is 0: none is computed)."""
    decided, evidence = walked.decided, walked.evidence
    stat = statistic(walked.loglik)
    tells = []
    turns = actions_to_turns(rules, decided)
    dice_at = _dice_at(slots, turns)
    for d, row in enumerate(evidence):
        t, roll, loss, v_chosen, v_ebest, v_top, ebest = row[:7]
        if loss > TELL_LOSS and v_chosen >= v_top - 1e-9 and v_chosen > v_ebest + 1e-9:
            dice = dice_at[d]
            tells.append(Tell(
                int(t) + 1, int(roll) + 1, _action_text(rules, dice, int(decided[d])),
                _action_text(rules, dice, int(ebest)), float(loss), float(v_chosen - v_ebest),
            ))
    tells.sort(key=lambda tell: -tell.hindsight_gain)
    scouting = scouting_share(decided)
    optimal = int(np.sum(evidence[:, 3] >= evidence[:, 5] - 1e-9)) if len(evidence) else 0
    pos = positional_statistic(evidence)
    flagged = stat >= threshold or (positional_threshold is not None
                                    and pos >= positional_threshold)
    return Verdict(
        flagged, stat, walked.total, ceiling, len(decided), optimal,
        tuple(tells[:MAX_TELLS]), scouting, method, threshold,
        positional=pos, positional_threshold=positional_threshold,
        expected_loss=float(np.sum(evidence[:, 2])) if len(evidence) else 0.0,
    )


def scouting_share(decided: np.ndarray) -> float:
    """Share of a game's rerolls that rerolled every die (what a scout does).

    >>> scouting_share(np.array([0, 0, -3, 5, -1]))
    0.6666666666666666
    """
    rerolls = [int(a) for a in decided if a >= 0]
    return sum(1 for a in rerolls if a == 0) / len(rerolls) if rerolls else 0.0


def _dice_at(slots: np.ndarray, turns: Any) -> list[tuple[int, ...]]:
    """The dice showing at each decision of the turns, in decision order."""
    out = []
    for t, turn in enumerate(turns):
        dice = [int(x) for x in slots[t, 0]]
        for r, mask in enumerate(turn.holds, start=1):
            out.append(tuple(dice))
            dice = [d if m == "1" else int(x) for d, m, x in zip(dice, mask, slots[t, r],
                                                                   strict=True)]
        if turn.box is not None:
            out.append(tuple(dice))
    return out


def assess_ceiling_only(log: MoveLog, ceiling: Ceiling) -> Verdict:
    """The check without a strategy table: hold a game that scores the ceiling.

    >>> from daily.rules import get_ruleset
    >>> from daily.fairplay.ceiling import ceiling_of_seed
    >>> ceiling = ceiling_of_seed(get_ruleset("yacht", {"forced_order": True}), bytes(32))
    >>> assess_ceiling_only(ceiling.perfect_log(seed=bytes(32)), ceiling).flagged
    True
    """
    if log.rules != ceiling.rules:
        raise LogFormatError(
            f"the log is for {log.ruleset}, the ceiling for {ceiling.rules.name}",
            field="ruleset",
        )
    return assess_ceiling_value(log, ceiling.value, ceiling.slots)


def assess_ceiling_value(
    log: MoveLog, value: int, slots: np.ndarray, total: int | None = None
) -> Verdict:
    """:func:`assess_ceiling_only` from the ceiling's value and the day's slot matrix
    alone (what the results path keeps: no table of the programme).

    ``total``: the game's total as the server computed it when the game finished (the
    results path has it); the log is then not replayed, which is most of the cost.

    >>> from daily.rules import get_ruleset
    >>> from daily.fairplay.ceiling import ceiling_of_seed
    >>> ceiling = ceiling_of_seed(get_ruleset("yacht", {"forced_order": True}), bytes(32))
    >>> perfect = ceiling.perfect_log(seed=bytes(32))
    >>> assess_ceiling_value(perfect, ceiling.value, ceiling.slots).flagged
    True
    >>> assess_ceiling_value(perfect, ceiling.value + 1, ceiling.slots).flagged
    False
    >>> assess_ceiling_value(perfect, ceiling.value, ceiling.slots, total=ceiling.value).flagged
    True
    """
    if total is None:
        try:
            result = replay(log, slots=_SlotView(slots))
        except DailyError as exc:
            raise LogFormatError(f"the log does not replay on the day's dice: {exc}",
                                 field="log") from None
        total = result.total if result.complete else None
    decided = turns_to_actions(log.rules, log)
    scouting = scouting_share(decided)
    flagged = log.complete and total is not None and total >= value
    return Verdict(flagged, 0.0, total or 0, value, len(decided), 0, (), scouting,
                   CEILING_ONLY)


class _SlotView:
    """A slot source over a slot matrix."""

    def __init__(self, slots: np.ndarray) -> None:
        self.slots = slots

    def __call__(self, turn: int, roll: int) -> tuple[int, ...]:
        return tuple(int(x) for x in self.slots[turn, roll])
