"""Verified replay: a move log played against its dice, with the full result.

``replay`` drives the core :class:`daily.game.Game` with every move of the log, so the
rules are checked exactly as in live play; an illegal move raises an error that says
which turn and roll. A partial log replays too and reports the next decision.

>>> from daily.movelog import MoveLog, Turn
>>> log = MoveLog("yacht", (Turn(("01110",), "twos"), Turn((), None)), seed=bytes(32))
>>> result = replay(log)
>>> result.total, result.complete, result.next_decision()["turn"]
(8, False, 2)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from daily.card import Card
from daily.dice import SlotCache, SlotSource
from daily.errors import DailyError, IllegalMoveError, LogFormatError
from daily.game import Game, TurnRecord
from daily.movelog import MoveLog
from daily.rules import Ruleset

RESULT_FORMAT = "daily-result/1"


def turns_json(history: Sequence[TurnRecord], first: int = 0) -> list[dict[str, Any]]:
    """Scored turns as JSON: 1-based turn, the dice of every roll, holds, box, points
    (``first``: the 0-based turn of ``history[0]``, for a part of a history).

    >>> from daily.game import TurnRecord
    >>> turns_json([TurnRecord(((1, 2, 3, 4, 5),), (), "chance", 15, 0)])[0]["dice"]
    [1, 2, 3, 4, 5]
    >>> turns_json([TurnRecord(((1, 2, 3, 4, 5),), (), "chance", 15, 0)], first=6)[0]["turn"]
    7
    """
    return [
        {
            "turn": first + i + 1,
            "rolls": [list(r) for r in rec.rolls],
            "holds": list(rec.holds),
            "dice": list(rec.final_dice),
            "box": rec.box,
            "points": rec.points,
            "bonus": rec.bonus,
        }
        for i, rec in enumerate(history)
    ]


@dataclass(frozen=True)
class ReplayResult:
    """What a log scores, turn by turn, and where a partial game stands."""

    log: MoveLog
    rules: Ruleset
    card: Card
    history: tuple[TurnRecord, ...]
    game: Game

    @property
    def total(self) -> int:
        """The verified total, bonuses included."""
        return self.card.total

    @property
    def complete(self) -> bool:
        """Every box is filled."""
        return self.game.over

    def next_decision(self) -> dict[str, Any] | None:
        """For a partial game: the turn, roll, dice, rolls left and open boxes."""
        game = self.game
        if game.over:
            return None
        return {
            "turn": game.turn + 1,
            "roll": game.roll + 1,
            "dice": list(game.dice),
            "rolls_left": game.rolls_left,
            "choices": [
                {"box": p.box, "points": p.points, "legal": p.legal, "reason": p.reason}
                for p in game.choices().options
            ],
        }

    def to_json(self) -> dict[str, Any]:
        """The result as JSON (format ``daily-result/1``).

        A multi-column card (Triple Yahtzee) adds ``columns``: each column's weight and
        unweighted totals; Generala with ``served_generala_wins`` adds ``won_outright``.
        """
        card = self.card
        out = {
            "format": RESULT_FORMAT,
            "ruleset": self.rules.name,
            "options": dict(self.log.options),
            "complete": self.complete,
            "boxes": card.as_dict(),
            "upper_total": card.upper_total,
            "upper_bonus": card.upper_bonus,
            "extra_bonus": card.extra_bonus,
            "extra_count": card.extra_count,
            "total": card.total,
            "turns": turns_json(self.history),
            "next": self.next_decision(),
        }
        if len(self.rules.weights) > 1:
            out["columns"] = columns_json(card)
        if self.rules.served_wins:
            out["won_outright"] = self.game.won_outright
        return out


def columns_json(card: Card) -> list[dict[str, int]]:
    """The columns of a card as JSON: weight, upper total, bonus, lower total, total.

    >>> from daily.rules import get_ruleset
    >>> columns_json(Card.empty(get_ruleset("triple-yahtzee")))[2]["weight"]
    3
    """
    return [
        {"weight": c.weight, "upper": c.upper, "bonus": c.bonus, "lower": c.lower,
         "total": c.total}
        for c in card.columns
    ]


def replay(
    log: MoveLog, seed: bytes | None = None, *, slots: SlotSource | None = None
) -> ReplayResult:
    """Verify ``log`` against its dice and return the result.

    The dice come from ``slots`` (a cached day, fastest), else ``seed``, else the seed in
    the log. A log that names a day needs one of the first two.

    >>> from daily.movelog import MoveLog, Turn
    >>> replay(MoveLog("yacht", (Turn((), "ones"), Turn((), "ones")), seed=bytes(32)))
    Traceback (most recent call last):
    ...
    daily.errors.IllegalMoveError: turn 2: box 'ones' is already filled
    """
    rules = log.rules
    if slots is None:
        source = seed if seed is not None else log.seed
        if source is None:
            raise LogFormatError(
                f"the log refers to the day {log.day}; its seed is needed to replay it",
                field="day",
            )
        slots = SlotCache(source, rules.dice)
    game = Game(rules, slots)
    for index, turn in enumerate(log.turns):
        try:
            for mask in turn.holds:
                game.reroll(mask)
            if turn.box is not None:
                game.score(turn.box)
        except IllegalMoveError:
            raise
        except DailyError as exc:
            raise IllegalMoveError(exc.message, turn=index, field=exc.field) from None
    return ReplayResult(log, rules, game.card, tuple(game.history), game)
