"""Post-game analysis: what each decision of a game cost against optimal play.

For every decision of the log (each reroll and each box) the analysis compares the
expected final score of the player's action with the best action's, both assuming
optimal play afterwards. The sum of these losses is the *expected loss*; the optimal
expected score minus it is the *rating*, the luck-adjusted value of the player's
decisions (what they would average on the same dice over and over). *Luck* is the
actual total minus the rating.

>>> from daily.movelog import MoveLog, Turn
>>> from daily.rules import get_ruleset
>>> from daily.strategy.solver import solve
>>> rules = get_ruleset("yacht", {"forced_order": True})
>>> log = MoveLog("yacht", tuple(Turn((), b) for b in rules.box_ids),
...               (("forced_order", True),), seed=bytes(32))
>>> report = analyse(solve(rules), log)
>>> len(report.decisions), report.expected_loss > 0
(12, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from daily.dice import SlotCache, SlotSource
from daily.errors import LogFormatError
from daily.game import Game
from daily.movelog import MoveLog
from daily.replay import replay
from daily.strategy.advisor import Action, Advisor
from daily.strategy.bots import Bot
from daily.strategy.solver import StrategyTable
from daily.strategy.spec import Position
from daily.strategy.triple import TripleAdvisor

#: Losses below this are rounding, not mistakes.
EPSILON = 1e-9


@dataclass(frozen=True)
class Decision:
    """One decision: where it was, what was chosen, what was best, what it cost."""

    turn: int  # 0-based
    roll: int  # 0-based roll showing when deciding
    dice: tuple[int, ...]
    rolls_left: int
    chosen: Action
    best: Action

    @property
    def loss(self) -> float:
        """Expected final score lost by the choice (0 for an optimal one)."""
        return max(0.0, self.best.value - self.chosen.value)

    def describe(self) -> str:
        """The decision in words.

        >>> d = Decision(4, 1, (6, 6, 6, 2, 2), 1,
        ...              Action("box", 253.93, box="full_house", points=25),
        ...              Action("keep", 265.08, "11100", (6, 6, 6)))
        >>> d.describe()
        'turn 5, roll 2 (6-6-6-2-2): keeping 6-6-6 was worth 265.1, scoring 25 in full house 253.9'
        """
        dice = "-".join(str(d) for d in self.dice)
        return (
            f"turn {self.turn + 1}, roll {self.roll + 1} ({dice}): "
            f"{self.best.describe()} was worth {self.best.value:.1f}, "
            f"{self.chosen.describe()} {self.chosen.value:.1f}"
        )

    def to_json(self) -> dict[str, Any]:
        """The decision as JSON (1-based turn and roll)."""
        return {
            "turn": self.turn + 1,
            "roll": self.roll + 1,
            "dice": list(self.dice),
            "rolls_left": self.rolls_left,
            "chosen": self.chosen.to_json(),
            "best": self.best.to_json(),
            "loss": round(self.loss, 4),
        }


@dataclass(frozen=True)
class Analysis:
    """The analysis of a game."""

    ruleset: str
    decisions: tuple[Decision, ...]
    optimal_expected: float
    total: int
    complete: bool
    optimal_total: int | None
    #: The values come from a heuristic player (Triple Yahtzee), not an exact table.
    heuristic: bool = False

    @property
    def expected_loss(self) -> float:
        """Sum of the decisions' losses."""
        return sum(d.loss for d in self.decisions)

    @property
    def rating(self) -> float:
        """Luck-adjusted score: optimal expectation minus the expected loss."""
        return self.optimal_expected - self.expected_loss

    @property
    def luck(self) -> float:
        """Actual total minus the rating (complete games only)."""
        return self.total - self.rating

    def mistakes(self, count: int | None = None) -> list[Decision]:
        """Every decision with a real loss (or the ``count`` costliest), costliest first."""
        bad = [d for d in self.decisions if d.loss > EPSILON]
        bad.sort(key=lambda d: -d.loss)
        return bad if count is None else bad[:count]

    def to_json(self) -> dict[str, Any]:
        """The analysis as JSON (``daily-analysis/1``)."""
        return {
            "format": "daily-analysis/1",
            "ruleset": self.ruleset,
            "heuristic": self.heuristic,
            "complete": self.complete,
            "total": self.total,
            "optimal_expected": round(self.optimal_expected, 4),
            "expected_loss": round(self.expected_loss, 4),
            "rating": round(self.rating, 4),
            "luck": round(self.luck, 4) if self.complete else None,
            "optimal_total": self.optimal_total,
            "optimal_decisions": sum(1 for d in self.decisions if d.loss <= EPSILON),
            "decisions": [d.to_json() for d in self.decisions],
            "mistakes": [dict(d.to_json(), text=d.describe()) for d in self.mistakes()],
        }

    def summary(self) -> str:
        """A few lines for people."""
        lines = [
            f"{self.ruleset}: scored {self.total}"
            + ("" if self.complete else " so far (game not finished)"),
            f"decisions: {len(self.decisions)}, optimal: "
            f"{sum(1 for d in self.decisions if d.loss <= EPSILON)}, "
            f"expected loss {self.expected_loss:.2f}",
            f"rating {self.rating:.1f} (optimal play averages {self.optimal_expected:.1f})",
        ]
        if self.heuristic:
            lines.insert(1, "heuristic: values from the lookahead player, not an exact table")
        if self.complete:
            lines.append(f"luck {self.luck:+.1f}")
        if self.optimal_total is not None:
            lines.append(f"the optimal player scored {self.optimal_total} on these dice")
        for i, d in enumerate(self.mistakes(), start=1):
            lines.append(f"mistake {i} (-{d.loss:.1f}): {d.describe()}")
        return "\n".join(lines)


def _kept(dice: tuple[int, ...], mask: str) -> tuple[int, ...]:
    return tuple(sorted(d for d, m in zip(dice, mask, strict=True) if m == "1"))


def analyse(
    table: StrategyTable | TripleAdvisor,
    log: MoveLog,
    *,
    seed: bytes | None = None,
    slots: SlotSource | None = None,
    with_optimal_total: bool = True,
) -> Analysis:
    """Analyse every decision of ``log`` (verified by replaying it first).

    The dice come from ``slots``, else ``seed``, else the log's own seed. ``table`` may
    also be a :class:`TripleAdvisor` (heuristic values, labelled so in the report).
    """
    advisor: Advisor | TripleAdvisor
    player: Bot | TripleAdvisor
    if isinstance(table, StrategyTable):
        advisor, player = Advisor(table), Bot(table, "hard")
    else:
        advisor = player = table
    rules = advisor.rules
    if log.rules != rules:
        raise LogFormatError(
            f"the log is for {log.ruleset} {dict(log.options)}, the table for "
            f"{rules.name} {rules.non_default_options()}",
            field="ruleset",
        )
    if slots is None:
        source = seed if seed is not None else log.seed
        if source is None:
            raise LogFormatError(
                f"the log refers to the day {log.day}; its seed is needed", field="day"
            )
        slots = SlotCache(source, rules.dice)
    result = replay(log, slots=slots)  # raises a precise error for an illegal log
    game = Game(rules, slots)
    decisions = []
    for turn in log.turns:
        for mask in turn.holds:
            pos = Position.from_game(game)
            acts = advisor.actions(pos)
            kept = _kept(game.dice, mask)
            chosen = next(a for a in acts if a.kind == "keep" and a.kept == kept)
            chosen = Action("keep", chosen.value, mask, kept)
            decisions.append(Decision(game.turn, game.roll, game.dice, pos.rolls_left,
                                      chosen, acts[0]))
            game.reroll(mask)
        if turn.box is not None:
            pos = Position.from_game(game)
            acts = advisor.actions(pos)
            chosen = next(a for a in acts if a.kind == "box" and a.box == turn.box)
            decisions.append(Decision(game.turn, game.roll, game.dice, pos.rolls_left,
                                      chosen, acts[0]))
            game.score(turn.box)
    optimal_total = None
    if with_optimal_total:
        optimal_total = player.play(Game(rules, slots)).card.total
    return Analysis(
        rules.name,
        tuple(decisions),
        advisor.expected,
        result.total,
        result.complete,
        optimal_total,
        advisor.heuristic,
    )
