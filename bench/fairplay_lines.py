"""The board's lines and the detector's chances, shared by the fair-play benches
(``bench/fairplay.py`` and ``bench/fairplay_attacks.py``): the top of a board, the
games tested on their way into it, and the chance that a game is held over the draw of
the day's lines.
"""

from __future__ import annotations

import numpy as np

from daily.fairplay.daykey import AUDIT_SHARE
from daily.fairplay.foresight import Walked
from daily.fairplay.informed import SimDay

#: The temperatures of the noisy-optimal honest players, in equal numbers.
TEMPERATURES = (0.25, 0.5, 1.0, 2.0, 4.0)


def top_line(n: int) -> int:
    """How many games the top of a board of ``n`` holds: 100, or 1% where that is fewer
    (at least 1).

    >>> top_line(10_000), top_line(2_000), top_line(50)
    (100, 20, 1)
    """
    return max(1, min(100, n // 100))


def top_tests(players: int) -> float:
    """Expected number of games that enter the top of a board of ``players`` as they
    arrive in random order (each is tested strictly): sum over n of top_line(n) / n.

    >>> round(top_tests(10_000)), round(top_tests(100_000))
    (102, 332)
    """
    n = np.arange(1, players + 1)
    tops = np.maximum(1, np.minimum(100, n // 100))
    return float(np.sum(np.minimum(tops, n) / n))


def exceeds(value: float, span: tuple[float, float]) -> float:
    """The probability that ``value`` reaches a line drawn uniformly in ``span``.

    >>> exceeds(2.5, (2.0, 3.0)), exceeds(1.0, (2.0, 3.0)), exceeds(9.0, (2.0, 3.0))
    (0.5, 0.0, 1.0)
    """
    return float(min(1.0, max(0.0, (value - span[0]) / (span[1] - span[0]))))


def held_share(sim: SimDay, walked: Walked, at_top: bool) -> tuple[float, bool, bool]:
    """The probability that the game is held over the audit's draw (one top game in
    1 / AUDIT_SHARE), with the day's lines; then held when not audited, and when audited.
    """
    normal = sim.held(walked, at_top, audited=False)
    audited = sim.held(walked, at_top, audited=True)
    if not at_top:
        return float(normal), normal, normal
    return (1 - AUDIT_SHARE) * normal + AUDIT_SHARE * audited, normal, audited
