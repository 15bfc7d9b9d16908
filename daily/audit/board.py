"""The canonical order of a day's leaves, and the board they make.

**Order.** The result leaves come first, by acceptance: ``accepted.accepted_at``, then
``accepted.code`` for equal instants (both compared as strings: the instant has one
fixed form), one leaf per code. The decision leaves follow in the order they were
appended, their ``decided_at`` never decreasing, each about a code of a result leaf.
A re-review only appends, so a later head's log starts with the earlier head's leaves.

**Board.** A game's decision is the last one about it: its result leaf's, replaced by
each decision leaf about it in log order. The public board holds the *cleared* results,
in the order and with the ranks of :mod:`daily.standings` (competition ranking 1, 1, 3;
equal totals by earlier acceptance, then code), each with its percentile; the histogram
and the summary figures are those of the same module.

>>> from daily.audit.leaf import Accepted, Decision, Leaf
>>> def result(code, score, at, status="cleared"):
...     acc = Accepted(code, "p", "yacht", "2026-11-29", "dl1~", score, at)
...     return Leaf.result(acc, "r", code.lower(), Decision(status))
>>> leaves = canonical_order([result("DD-2", 90, "2026-11-29T10:00:01.000Z"),
...                          result("DD-1", 137, "2026-11-29T10:00:00.000Z", "held")],
...                          [Leaf.decision_leaf("DD-1", Decision("cleared"),
...                                              "2026-11-30T13:00:00.000Z")])
>>> [leaf.code for leaf in leaves]
['DD-1', 'DD-2', 'DD-1']
>>> [(row.rank, row.code, row.score) for row in board_of(leaves).rows]
[(1, 'DD-1', 137), (2, 'DD-2', 90)]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from daily.audit.leaf import CLEARED, RESULT, STATUSES, Accepted, Decision, Leaf, parse_instant
from daily.errors import DailyError
from daily.standings import histogram, percentile, standings, summary


class OrderError(DailyError):
    """Leaves out of the canonical order (``field`` says which leaf)."""


def order_key(leaf: Leaf) -> tuple[str, str]:
    """The sort key of a result leaf: ``(accepted_at, code)``."""
    assert leaf.accepted is not None
    return leaf.accepted.accepted_at, leaf.code


def order_bytes(accepted: Accepted) -> bytes:
    """:func:`order_key` of the result leaf of ``accepted`` as one byte string: bytes
    sort as the key does (the instant has one width, and UTF-8 keeps the order of code
    points), in a fraction of a tuple's memory (the close sorts a million of them).

    >>> a = Accepted("DD-2", "p", "yacht", "2026-11-29", "dl1~", 1, "2026-11-29T10:00:00.000Z")
    >>> order_bytes(a)
    b'2026-11-29T10:00:00.000ZDD-2'
    """
    return (accepted.accepted_at + accepted.code).encode()


def canonical_order(results: Iterable[Leaf], decisions: Sequence[Leaf] = ()) -> list[Leaf]:
    """The leaves of a log in canonical order: ``results`` sorted by :func:`order_key`,
    then ``decisions`` as given (append order). Checked with :class:`OrderChecker`."""
    leaves = sorted(results, key=order_key)
    leaves.extend(decisions)
    checker = OrderChecker()
    for index, leaf in enumerate(leaves):
        checker.check(index, leaf)
    return leaves


class OrderChecker:
    """Checks leaves one at a time against the canonical order (for a streamed log).

    >>> from daily.audit.leaf import Decision, Leaf
    >>> OrderChecker().check(0, Leaf.decision_leaf("DD-9", Decision("held"),
    ...                                            "2026-11-30T13:00:00.000Z"))
    Traceback (most recent call last):
    ...
    daily.audit.board.OrderError: leaf 0 (DD-9): decision about a code with no result leaf \
before it
    """

    def __init__(self) -> None:
        self.codes: set[str] = set()
        self.last_result: tuple[str, str] | None = None
        self.last_decided: str | None = None

    def check(self, index: int, leaf: Leaf) -> None:
        """Raise :class:`OrderError` if ``leaf`` cannot come at ``index`` after those seen."""
        where = f"leaf {index} ({leaf.code})"
        if leaf.kind == RESULT:
            if self.last_decided is not None:
                raise OrderError(f"{where}: result leaf after a decision leaf")
            key = order_key(leaf)
            if leaf.code in self.codes:
                raise OrderError(f"{where}: a second result leaf for this code")
            if self.last_result is not None and key < self.last_result:
                raise OrderError(
                    f"{where}: out of canonical order: accepted_at {key[0]} code {key[1]} "
                    f"comes before the previous leaf's accepted_at {self.last_result[0]} "
                    f"code {self.last_result[1]}"
                )
            self.codes.add(leaf.code)
            self.last_result = key
            return
        if leaf.code not in self.codes:
            raise OrderError(f"{where}: decision about a code with no result leaf before it")
        assert leaf.decided_at is not None
        if self.last_decided is not None and leaf.decided_at < self.last_decided:
            raise OrderError(
                f"{where}: out of canonical order: decided_at {leaf.decided_at} comes before "
                f"the previous decision's {self.last_decided}"
            )
        self.last_decided = leaf.decided_at


@dataclass(frozen=True)
class BoardRow:
    """One game on the public board."""

    rank: int
    code: str
    score: int
    name: str | None
    percentile: float
    accepted_at: str

    def to_json(self) -> dict[str, Any]:
        """The row as JSON."""
        return {"rank": self.rank, "code": self.code, "score": self.score, "name": self.name,
                "percentile": self.percentile, "accepted_at": self.accepted_at}


@dataclass(frozen=True)
class Board:
    """The public board of a log, with how many games ended in each decision."""

    rows: list[BoardRow]
    histogram: dict[str, Any]
    summary: dict[str, Any]
    decisions: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The board as JSON."""
        return {"rows": [row.to_json() for row in self.rows], "histogram": self.histogram,
                "summary": self.summary, "decisions": self.decisions}


class BoardBuilder:
    """Collects the leaves of a log (in order) and makes its :class:`Board`.

    It keeps what the board needs of each game, not the leaves, so a day of a million
    games can be streamed through it.
    """

    def __init__(self) -> None:
        self._games: dict[str, tuple[int, str, str | None]] = {}
        self._status: dict[str, Decision] = {}

    def add(self, leaf: Leaf) -> None:
        """Take the next leaf of the log."""
        if leaf.kind == RESULT:
            assert leaf.accepted is not None
            self._games[leaf.code] = (leaf.accepted.score, leaf.accepted.accepted_at, leaf.name)
        self._status[leaf.code] = leaf.decision

    def decision(self, code: str) -> Decision | None:
        """The decision in force for ``code`` so far."""
        return self._status.get(code)

    def board(self) -> Board:
        """The public board of every leaf added."""
        counts = dict.fromkeys(STATUSES, 0)
        cleared = []
        for code, decision in self._status.items():
            counts[decision.status] += 1
            if decision.status == CLEARED:
                score, at, _ = self._games[code]
                cleared.append((code, score, parse_instant(at, "accepted_at")))
        ordered = standings(cleared)
        players = len(ordered)
        rows = [
            BoardRow(row.rank, row.game_id, row.total, self._games[row.game_id][2],
                     percentile(row.rank, players), self._games[row.game_id][1])
            for row in ordered
        ]
        totals = [row.score for row in rows]
        return Board(rows, histogram(totals), summary(totals), counts)


def board_of(leaves: Iterable[Leaf]) -> Board:
    """The public board of a log's leaves (in canonical order)."""
    builder = BoardBuilder()
    for leaf in leaves:
        builder.add(leaf)
    return builder.board()
