"""What Redis holds about one game, and the position a move is bound to.

A game's **position** is the number of decisions applied so far (every reroll and
every filled box counts one). It is stored in the record as ``v``, first in its JSON
text, so that a compare-and-set can check it without parsing the record; every state
document shows it, and every move names it (``docs/protocol.md``, ``daily-move/1``).

>>> from daily.movelog import MoveLog, Turn
>>> log = MoveLog("yacht", (Turn(("01110",), "twos"), Turn(("00011",), None)), seed=bytes(32))
>>> position_of(log), last_decision(log)
(3, ('roll', '00011'))
>>> new_game_id().startswith("g_")
True
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

import orjson

from daily.movelog import MoveLog
from daily.service.shards import new_game_id as new_game_id  # the ids' home

#: A decision as the API names it: ``("roll", hold mask)`` or ``("score", box)``.
Decision = tuple[str, str]


def plausible_id(game_id: object) -> bool:
    """Whether ``game_id`` could be a game id (anything else is not looked up).

    >>> plausible_id("g_abc"), plausible_id("g_a:b"), plausible_id(7)
    (True, False, False)
    """
    return (
        isinstance(game_id, str) and game_id.startswith("g_") and 3 <= len(game_id) <= 40
        and game_id[2:].isalnum()
    )


def position_of(log: MoveLog) -> int:
    """The number of decisions in ``log`` (rerolls and filled boxes)."""
    return sum(len(turn.holds) + (turn.box is not None) for turn in log.turns)


def last_decision(log: MoveLog) -> Decision | None:
    """The decision that led to the position of ``log`` (``None`` at the start)."""
    for turn in reversed(log.turns):
        if turn.box is not None:
            return ("score", turn.box)
        if turn.holds:
            return ("roll", turn.holds[-1])
    return None


@dataclass
class GameRecord:
    """What Redis holds about one game (JSON; ``v``, the position, comes first)."""

    v: int
    id: str
    player: str
    mode: str
    ruleset: str
    options: dict[str, Any]
    date: str | None
    log: str
    created: str
    finished_at: float | None = None
    code: str | None = None
    total: int | None = None
    opponents: list[str] = field(default_factory=list)  # computer opponents' levels
    challenge: str | None = None  # the friend challenge this game is an entry of
    rival: str | None = None  # the game whose card is shown turn by turn (score to beat)
    # the opponents' levels the heuristic player plays (no table when the game started)
    stand_ins: list[str] = field(default_factory=list)
    receipt: str | None = None  # a ranked game's receipt (daily.service.audit.receipts)
    # a ranked game's start network, "<day> <salted hash>" (daily.service.players.creation:
    # never the address), for the fair-play links (daily.fairplay.links)
    net: str | None = None

    def dumps(self) -> str:
        """The stored JSON text (``{"v":N,`` first; the fields in their order, as
        ``dataclasses.asdict`` gives them), compact, by orjson (which writes a
        dataclass's fields itself, in their order).

        The text only has to be deterministic and to parse back to the same record:
        the move script compares the SHA-1 of the exact text this process wrote (text
        written by the standard library's ``json`` before parses the same).

        >>> record = GameRecord(v=2, id="g_1", player="p_1", mode="practice",
        ...     ruleset="yacht", options={}, date=None, log="dl1~yacht~-~d2026-11-29~",
        ...     created="2026-11-29T10:00:00Z", finished_at=1764410400.25)
        >>> record.dumps()[:26]
        '{"v":2,"id":"g_1","player"'
        >>> GameRecord.loads(record.dumps()) == record
        True
        """
        return orjson.dumps(self).decode()

    def advanced(self, log: str) -> GameRecord:
        """This record one decision later, with ``log``: ``dataclasses.replace(self,
        v=self.v + 1, log=log)`` without its checks (the other fields shared, as there).

        >>> record = GameRecord(v=2, id="g_1", player="p_1", mode="practice",
        ...     ruleset="yacht", options={}, date=None, log="", created="")
        >>> after = record.advanced("dl1")
        >>> (after.v, after.log, record.v, after.player)
        (3, 'dl1', 2, 'p_1')
        """
        after = object.__new__(GameRecord)
        after.__dict__.update(self.__dict__)
        after.v = self.v + 1
        after.log = log
        return after

    @classmethod
    def loads(cls, raw: bytes | str) -> GameRecord:
        """The record from its stored JSON text."""
        data = orjson.loads(raw)
        if "v" not in data:  # written before positions existed
            data["v"] = position_of(MoveLog.from_text(data["log"]))
        return cls(**data)

    @property
    def day(self) -> dt.date | None:
        """The date of a day game (ranked, or practice on a revealed day)."""
        return dt.date.fromisoformat(self.date) if self.date else None

    @property
    def move_log(self) -> MoveLog:
        """The stored move log."""
        return MoveLog.from_text(self.log)

    @property
    def finished(self) -> bool:
        """Whether the game is over and its result stored."""
        return self.finished_at is not None
