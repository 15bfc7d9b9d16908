"""Standings of a day's board, computed from its results alone: order, ranks,
percentiles, histogram and summary figures (a public definition: the service's boards
and the offline audit of a day both follow it).

Order of the rows: the higher total first, then the earlier finish, then the smaller
game id. Ranks are **standard competition ranks**: a row's rank is one more than the
number of rows with a strictly higher total, so equal totals share a rank and the next
rank skips (1, 1, 3). The *percentile* of a rank is the share of the board at or below
it, rounded down to 0.1 (the leaders show 100.0); *better than* is the share of the
board with a strictly lower total, rounded down to 0.1 (it reads "better than 97% of
today's players"); *top* is the share of the board at or above the rank, rounded up
to 0.1 ("top 3%").

>>> [row.rank for row in standings([("g1", 137, 5.0), ("g2", 137, 2.0), ("g3", 90, 1.0)])]
[1, 1, 3]
>>> percentile(1, 4), better_than(2, 4), top_share(1, 1000)
(100.0, 50.0, 0.1)
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

#: Width in points of a histogram bin.
BIN_WIDTH = 10


@dataclass(frozen=True)
class Row:
    """One result in a board's order, with its rank."""

    game_id: str
    total: int
    finished_at: float
    rank: int


def _check(rank: int, players: int) -> None:
    if players <= 0 or not 1 <= rank <= players:
        raise ValueError(f"rank {rank} is not on a board of {players} players")


def percentile(rank: int, players: int) -> float:
    """The share of the board ranked at or below ``rank``, in percent, rounded down to 0.1.

    >>> percentile(1, 3), percentile(3, 3), percentile(2, 1_000_000)
    (100.0, 33.3, 99.9)
    """
    _check(rank, players)
    return math.floor(1000 * (players - rank + 1) / players) / 10


def better_than(lower: int, players: int) -> float:
    """The share of the board (``players``) that ``lower`` results below yours make, in
    percent, rounded down to 0.1.

    >>> better_than(97, 100), better_than(0, 5), better_than(999_999, 1_000_000)
    (97.0, 0.0, 99.9)
    """
    if players <= 0 or not 0 <= lower < players:
        raise ValueError(f"{lower} results below yours is not on a board of {players} players")
    return math.floor(1000 * lower / players) / 10


def top_share(rank: int, players: int) -> float:
    """The share of the board ranked at or above ``rank``, in percent, rounded up to 0.1.

    >>> top_share(3, 100), top_share(1, 1_000_000), top_share(4, 4)
    (3.0, 0.1, 100.0)
    """
    _check(rank, players)
    return math.ceil(1000 * rank / players) / 10


def standings(results: Iterable[tuple[str, int, float]]) -> list[Row]:
    """``(game id, total, finished_at)`` results in board order, each with its rank.

    >>> [(r.game_id, r.rank) for r in standings([("b", 5, 1.0), ("a", 5, 1.0), ("c", 9, 3.0)])]
    [('c', 1), ('a', 2), ('b', 2)]
    """
    ordered = sorted(results, key=lambda r: (-r[1], round(r[2] * 1000), r[0]))
    rows: list[Row] = []
    for index, (game_id, total, finished_at) in enumerate(ordered):
        rank = rows[-1].rank if rows and rows[-1].total == total else index + 1
        rows.append(Row(game_id, total, finished_at, rank))
    return rows


def histogram(totals: Iterable[int]) -> dict[str, Any]:
    """``{"bin_width", "bins": [{"from", "to", "count"}, ...]}``, low bins first; a bin
    starts at a multiple of :data:`BIN_WIDTH`.

    >>> histogram([137, 131, 90])["bins"]
    [{'from': 90, 'to': 99, 'count': 1}, {'from': 130, 'to': 139, 'count': 2}]
    """
    bins = Counter(total // BIN_WIDTH * BIN_WIDTH for total in totals)
    return {
        "bin_width": BIN_WIDTH,
        "bins": [{"from": b, "to": b + BIN_WIDTH - 1, "count": c} for b, c in sorted(bins.items())],
    }


def summary(totals: Iterable[int]) -> dict[str, Any]:
    """Players, mean (to 0.01), median, best and worst of a board's totals.

    >>> summary([10, 30, 20, 40])
    {'players': 4, 'mean': 25.0, 'median': 25.0, 'best': 40, 'worst': 10}
    >>> summary([])["mean"] is None
    True
    """
    ordered = sorted(totals)
    n = len(ordered)
    median: float | None = None
    if n:
        mid = n // 2
        median = float(ordered[mid]) if n % 2 else (ordered[mid - 1] + ordered[mid]) / 2
    return {
        "players": n,
        "mean": round(sum(ordered) / n, 2) if n else None,
        "median": median,
        "best": ordered[-1] if n else None,
        "worst": ordered[0] if n else None,
    }
