"""Checking a submitted move log against the game the server recorded.

The order of the checks is the contract of ``POST /games/{id}/log`` (``docs/api.md``):
parse, same game, **revealed**, consistent, then the rules (a replay that may only
reach the slots already shown) and finished. Every check before the replay looks only
at the submitted log and at what the server has already shown the player, and the
replay stops (as "not finished") before it would deal a hidden slot, so no answer, and
no amount of work, depends on dice the player has not seen.
A log that goes past what was revealed is refused with ``not_revealed`` (naming the
first turn and roll past it) before any rule is evaluated or any hidden slot is
computed.

>>> from daily.movelog import MoveLog, Turn
>>> stored = MoveLog("yacht", (Turn(("01110",), "twos"), Turn((), None)), seed=bytes(32))
>>> revealed_rolls(stored, over=False)
[2, 1]
>>> sent = MoveLog("yacht", (Turn(("01110",), "twos"), Turn(("00001",), None)), seed=bytes(32))
>>> check_revealed(sent, stored, over=False)
Traceback (most recent call last):
...
daily.service.refusals.Conflict: turn 2, roll 2: the log goes past what this game has revealed
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping
from typing import Any

from daily.errors import DailyError
from daily.movelog import MoveLog, parse_log
from daily.service.refusals import Conflict


def parse_submitted(raw: Any) -> MoveLog:
    """A submitted log (JSON object or text), with errors naming ``log.<field>``."""
    try:
        if isinstance(raw, str):
            return parse_log(raw)
        if isinstance(raw, Mapping):
            return MoveLog.from_json(raw)
    except DailyError as exc:
        field = f"log.{exc.field}" if exc.field and exc.field != "log" else "log"
        if exc.turn is not None:
            inner = {"hold": "holds"}.get(exc.field or "", exc.field)
            field = f"log.turns.{inner}" if inner else "log.turns"
        raise Conflict(
            exc.message, code="invalid_log", field=field, turn=exc.turn, roll=exc.roll
        ) from None
    raise Conflict("log is a daily-log/1 object or text", code="invalid_log", field="log")


def check_same_game(submitted: MoveLog, stored: MoveLog) -> None:
    """Same ruleset, options and dice source (a practice seed compared in constant time)."""
    if submitted.ruleset != stored.ruleset:
        raise Conflict(
            f"the log is for {submitted.ruleset}, this game is {stored.ruleset}",
            code="log_mismatch", field="log.ruleset",
        )
    if submitted.options != stored.options:
        raise Conflict(
            "the log's options differ from this game's", code="log_mismatch",
            field="log.options",
        )
    if stored.day is not None:
        if submitted.day != stored.day:
            raise Conflict(
                f"the log is not for the day {stored.day}", code="log_mismatch",
                field="log.day",
            )
    elif submitted.seed is None or not hmac.compare_digest(submitted.seed, stored.seed or b""):
        raise Conflict(
            "the log does not name this game's seed", code="log_mismatch", field="log.seed"
        )


def revealed_rolls(stored: MoveLog, *, over: bool) -> list[int]:
    """How many rolls of each turn the game has shown (the rolls of a turn not listed
    are hidden): every recorded turn up to its last roll, and the first roll of the
    next turn while the game goes on."""
    shown = [len(turn.holds) + 1 for turn in stored.turns]
    if not over and (not stored.turns or stored.turns[-1].box is not None):
        shown.append(1)
    return shown


def revealed_slots(stored: MoveLog, *, over: bool) -> set[tuple[int, int]]:
    """The slots ``(turn, roll)``, 0-based, whose dice the game has shown.

    >>> from daily.movelog import MoveLog, Turn
    >>> sorted(revealed_slots(MoveLog("yacht", (Turn(("01110",), None),), seed=bytes(32)),
    ...                       over=False))
    [(0, 0), (0, 1)]
    """
    return {
        (turn, roll)
        for turn, rolls in enumerate(revealed_rolls(stored, over=over))
        for roll in range(rolls)
    }


def check_revealed(submitted: MoveLog, stored: MoveLog, *, over: bool) -> None:
    """Refuse a log that needs dice the game has not shown (``not_revealed``).

    The ``k``-th reroll of a turn shows its roll ``k + 1``. In a turn that has shown
    ``s`` rolls the log may therefore hold at most ``s - 1`` rerolls (then a box, or
    nothing), and no turn the game has not reached. The error names the first hidden
    roll (turn and roll, 1-based). The work is bounded by the two logs' lengths.
    """
    shown = revealed_rolls(stored, over=over)
    for index, turn in enumerate(submitted.turns):
        if index >= len(shown):
            _past(index, 0)
        if len(turn.holds) >= shown[index]:
            _past(index, shown[index])


def _past(turn: int, roll: int) -> None:
    raise Conflict(
        "the log goes past what this game has revealed", code="not_revealed",
        field="log.turns", turn=turn, roll=roll,
    )


def check_consistent(submitted: MoveLog, stored: MoveLog) -> None:
    """Every decision the server recorded must be in the submitted log, unchanged."""
    for index, done in enumerate(stored.turns):
        if index >= len(submitted.turns):
            raise Conflict(
                f"the log stops before turn {index + 1}, which this game has played",
                code="log_mismatch", field="log.turns", turn=index,
            )
        sent = submitted.turns[index]
        for roll, mask in enumerate(done.holds):
            if roll >= len(sent.holds) or sent.holds[roll] != mask:
                shown = sent.holds[roll] if roll < len(sent.holds) else "no reroll"
                raise Conflict(
                    f"the log has {shown!r} where the game rerolled with hold {mask!r}",
                    code="log_mismatch", field="log.turns.holds", turn=index, roll=roll + 1,
                )
        if done.box is not None:
            if len(sent.holds) != len(done.holds):
                raise Conflict(
                    f"the log rerolls {len(sent.holds)} times where the game rerolled "
                    f"{len(done.holds)} times", code="log_mismatch",
                    field="log.turns.holds", turn=index,
                )
            if sent.box != done.box:
                raise Conflict(
                    f"the log fills {sent.box!r} where the game filled {done.box!r}",
                    code="log_mismatch", field="log.turns.category", turn=index,
                )
