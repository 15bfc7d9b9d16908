"""A verified ranked result, as the API enqueues it for the workers: the record on its
way to a board, checked field by field (:class:`Result`).
"""

from __future__ import annotations

import datetime as dt
import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from daily.dice import parse_date
from daily.errors import DailyError
from daily.movelog import MoveLog, parse_log
from daily.rules import canonical_name

#: Totals must be below this (far above any ruleset's maximum).
TOTAL_LIMIT = 1 << 16
MAX_ID_LENGTH = 64
MAX_NAME_LENGTH = 24
MAX_CODE_LENGTH = 32
MAX_LOG_BYTES = 64 * 1024
_CONTROL = re.compile("[\x00-\x1f\x7f]")
_SPACE_OR_BRACE = re.compile(r"[\s{}]")  # \s: what str.isspace() calls a space


class ResultError(DailyError):
    """A result record that cannot be put on a board (missing or bad field)."""


def _text(obj: Mapping[str, Any], name: str, limit: int, *, empty_ok: bool = False) -> str:
    value = obj.get(name)
    if not isinstance(value, str):
        raise ResultError(f"must be a string, not {type(value).__name__}", field=name)
    if (not value and not empty_ok) or len(value) > limit:
        raise ResultError(f"must be 1..{limit} characters long", field=name)
    if _CONTROL.search(value):
        raise ResultError("must not contain control characters", field=name)
    return value


def _ident(obj: Mapping[str, Any], name: str) -> str:
    value = _text(obj, name, MAX_ID_LENGTH)
    if _SPACE_OR_BRACE.search(value):
        raise ResultError("must not contain spaces or braces", field=name)
    return value


def _compact_log(log: object) -> str:
    """The move log (daily-log/1 JSON object, JSON text or compact text, or a parsed
    :class:`daily.movelog.MoveLog`, as the finishing move has it) as compact text.

    Boards keep logs in the compact form (about 60 bytes instead of about 900 of JSON).
    """
    if log is None:
        return ""
    if isinstance(log, MoveLog):
        return log.to_text()
    if isinstance(log, str) and len(log.encode()) > MAX_LOG_BYTES:
        raise ResultError(f"is larger than {MAX_LOG_BYTES} bytes", field="log")
    try:
        if isinstance(log, Mapping):
            return MoveLog.from_json(log).to_text()
        if isinstance(log, str):
            return parse_log(log).to_text()
    except DailyError as exc:
        raise ResultError(f"not a daily-log/1 move log: {exc}", field="log") from None
    raise ResultError("must be a daily-log/1 JSON object", field="log")


@dataclass(frozen=True)
class Result:
    """A verified ranked result, as the API enqueues it for the workers.

    >>> r = Result.from_json({"game_id": "g_1", "player_id": "p_1", "player_name": "Ada",
    ...     "date": "2026-11-29", "ruleset": "kniffel", "total": 251,
    ...     "finished_at": 1764400000.5, "code": "DD-7K3M9Q",
    ... "log": {"format": "daily-log/1", "ruleset": "yahtzee", "day": "2026-11-29",
    ...         "turns": [{"holds": ["11000"], "category": "chance"}]}})
    >>> r.ruleset, r.total, r.log
    ('yahtzee', 251, 'dl1~yahtzee~-~d2026-11-29~YM')
    >>> Result.from_json({"game_id": "g_1"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    daily.service.results.result.ResultError: player_id: must be a string, not NoneType
    """

    game_id: str
    player_id: str
    player_name: str
    date: dt.date
    ruleset: str
    total: int
    finished_at: float
    code: str
    log: str  # the move log in its compact text form ("" if none was sent)

    @classmethod
    def from_json(cls, obj: object) -> Result:
        """Parse and check the JSON object the API enqueues (a dict or its text)."""
        if isinstance(obj, str | bytes):
            try:
                obj = json.loads(obj)
            except ValueError:
                raise ResultError("is not valid JSON", field="result") from None
        if not isinstance(obj, Mapping):
            raise ResultError("must be a JSON object", field="result")
        game_id = _ident(obj, "game_id")
        player_id = _ident(obj, "player_id")
        name = _text(obj, "player_name", MAX_NAME_LENGTH, empty_ok=True)
        try:
            date = parse_date(obj.get("date"))
            ruleset = canonical_name(obj.get("ruleset"))
        except DailyError as exc:
            raise ResultError(exc.message, field=exc.field) from None
        total = obj.get("total")
        if isinstance(total, bool) or not isinstance(total, int) or not 0 <= total < TOTAL_LIMIT:
            raise ResultError(f"must be a whole number 0..{TOTAL_LIMIT - 1}", field="total")
        finished = obj.get("finished_at")
        if isinstance(finished, bool) or not isinstance(finished, int | float):
            raise ResultError("must be epoch seconds (a number)", field="finished_at")
        if not math.isfinite(finished) or finished <= 0:
            raise ResultError("must be a positive finite number", field="finished_at")
        code = _text(obj, "code", MAX_CODE_LENGTH, empty_ok=True)
        log_text = _compact_log(obj.get("log"))
        return cls(game_id, player_id, name, date, ruleset, total, float(finished), code, log_text)

    def dumps(self) -> str:
        """Compact JSON text with the move log in its compact text form (about 250 bytes).

        :meth:`from_json` reads it back; the results stream carries this form.

        >>> r = Result.from_json({"game_id": "g_1", "player_id": "p_1", "player_name": "",
        ...     "date": "2026-11-29", "ruleset": "yahtzee", "total": 0,
        ...     "finished_at": 1764400000.5, "code": "", "log": None})
        >>> Result.from_json(r.dumps()) == r
        True
        """
        return json.dumps({**self._fields(), "log": self.log or None}, separators=(",", ":"))

    def to_json(self) -> dict[str, Any]:
        """The JSON object form (the inverse of :meth:`from_json`)."""
        return {**self._fields(),
                "log": MoveLog.from_text(self.log).to_json() if self.log else None}

    def _fields(self) -> dict[str, Any]:
        """Every field but the log, in the order of both forms."""
        return {
            "game_id": self.game_id,
            "player_id": self.player_id,
            "player_name": self.player_name,
            "date": self.date.isoformat(),
            "ruleset": self.ruleset,
            "total": self.total,
            "finished_at": self.finished_at,
            "code": self.code,
        }
