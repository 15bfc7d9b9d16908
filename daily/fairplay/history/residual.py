"""A player's record across days: the residual of each ranked game against optimal play
on the same dice, and when it is evidence.

The residual of a game is its score minus the score of optimal play (the hard bot,
the day's par) on the same day's dice. Without knowing dice to come no way of playing
beats optimal play on average, so an honest player's residuals have a mean at or below
zero, whatever their luck: both play the same dice. A player who keeps beating it is
using what honest play cannot know. The record is tested one-sided: the sum of the
residuals over the spread of honest residuals (:data:`SPREAD`) times the square root
of their number; at :data:`Z_LINE` or more (over at least :data:`MIN_GAMES` days) the
record is evidence, and the player's next game at the top of a board waits for an
operator.

The spread is measured (``bench/evidence.py``): the standard deviation of (medium bot,
temperature 1) minus (hard bot) over 300 seeded days per ruleset. A ruleset without a
measured spread (Triple Yahtzee, which has no hard bot) has no residual test.

>>> persistent([90.0, 110.0, 95.0, 100.0], "yahtzee"), persistent([150.0, 150.0], "yahtzee")
(True, False)
>>> persistent([-20.0, 35.0, 10.0, -5.0], "yahtzee"), persistent([90.0] * 5, "triple-yahtzee")
(False, False)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

#: Standard deviation of an honest game's residual, per ruleset (see the module text).
SPREAD: dict[str, float] = {"yahtzee": 50.4, "yatzy": 38.2, "yacht": 40.9, "generala": 34.9,
                             "maxi-yatzy": 70.2}
#: The one-sided line of the record's statistic (about 1 honest record in 10,000).
Z_LINE = 3.7
#: Days a record needs before it can be evidence.
MIN_GAMES = 3
#: Days of residuals kept per player (the latest).
KEPT = 60


def record_z(residuals: Sequence[float], spread: float) -> float:
    """The statistic of a record: sum / (spread * sqrt(n)); 0 for an empty record.

    >>> record_z([49.0, 49.0, 49.0, 49.0], 49.0)
    2.0
    """
    if not residuals:
        return 0.0
    return sum(residuals) / (spread * math.sqrt(len(residuals)))


def persistent(residuals: Sequence[float], ruleset: str) -> bool:
    """Whether a record of residuals in ``ruleset`` persistently beats optimal play.

    >>> persistent([120.0, 95.0, 110.0], "yacht"), persistent([120.0, 95.0, 110.0], "maxi-yatzy")
    (True, False)
    >>> persistent([160.0, 170.0, 150.0], "maxi-yatzy")
    True
    """
    spread = SPREAD.get(ruleset)
    if spread is None or len(residuals) < MIN_GAMES:
        return False
    return record_z(residuals, spread) >= Z_LINE
