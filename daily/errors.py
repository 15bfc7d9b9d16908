"""The project's error types.

Every error a caller can provoke with bad input is a :class:`DailyError`, a
``ValueError`` whose message says what is wrong and where, so that the CLI can print
it as one line and the API can turn it into a JSON 4xx.

>>> err = IllegalMoveError("hold mask '0110' has 4 positions, the game has 5 dice",
...                        turn=6, roll=1)
>>> str(err)
"turn 7, roll 2: hold mask '0110' has 4 positions, the game has 5 dice"
>>> err.where()
{'turn': 7, 'roll': 2}
"""

from __future__ import annotations

from collections.abc import Mapping


class DailyError(ValueError):
    """Base class of every error that bad input can provoke.

    ``turn`` and ``roll`` are 0-based internally and shown 1-based to people.
    ``field`` names the input field at fault, when there is one.
    """

    def __init__(
        self,
        message: str,
        *,
        field: str | None = None,
        turn: int | None = None,
        roll: int | None = None,
    ) -> None:
        self.message = message
        self.field = field
        self.turn = turn
        self.roll = roll
        super().__init__(self._render())

    def _render(self) -> str:
        parts = []
        if self.turn is not None:
            parts.append(f"turn {self.turn + 1}")
        if self.roll is not None:
            parts.append(f"roll {self.roll + 1}")
        prefix = ", ".join(parts)
        if self.field is not None and not parts:
            prefix = self.field
        return f"{prefix}: {self.message}" if prefix else self.message

    def where(self) -> dict[str, str | int]:
        """The location of the fault as a dict (1-based turn and roll), for API errors."""
        out: dict[str, str | int] = {}
        if self.field is not None:
            out["field"] = self.field
        if self.turn is not None:
            out["turn"] = self.turn + 1
        if self.roll is not None:
            out["roll"] = self.roll + 1
        return out


class RulesetError(DailyError):
    """An unknown ruleset, box or rule option."""


class DiceError(DailyError):
    """A bad seed, slot or dice value."""


class LogFormatError(DailyError):
    """A move log that cannot be parsed: not JSON, missing fields, bad masks, too large."""


class IllegalMoveError(DailyError):
    """A well-formed move that the rules forbid at that point of the game.

    ``reason`` is the machine form a client translates instead of reading the message:
    ``{"code": ...}`` plus what the code is about (e.g. ``"box"``). Codes:
    ``game_over``, ``box_filled``, ``keeps_every_die``, ``no_rolls_left`` (with
    ``max_rolls``) and the placement codes of :mod:`daily.rules.placement`
    (``forced_order``, ``joker_upper_open``, ``joker_lower_first``).

    >>> IllegalMoveError("box 'ones' is already filled", turn=2, field="box",
    ...                  reason={"code": "box_filled", "box": "ones"}).reason
    {'code': 'box_filled', 'box': 'ones'}
    """

    def __init__(
        self,
        message: str,
        *,
        field: str | None = None,
        turn: int | None = None,
        roll: int | None = None,
        reason: Mapping[str, str | int] | None = None,
    ) -> None:
        self.reason = dict(reason) if reason is not None else None
        super().__init__(message, field=field, turn=turn, roll=roll)


class StateError(DailyError):
    """A request that does not fit the state of a game or a day."""


class DateRangeError(DailyError):
    """A calendar date outside the range the calendar supports."""
