"""Foresight that accumulates: a sequential test over a player's ranked games.

Every ranked game checked by the foresight test (:mod:`daily.fairplay.foresight`) has
its log-likelihood ratio ``Λ`` (clairvoyant against honest play, each fitted to the
game). One game is held at ``Λ`` of about 10 (the day's secret line), so a cheater can
take a little every day and stay under every one-game line. The player's record keeps
each game's ``Λ`` and runs a one-sided cumulative sum (Page's CUSUM) over them in the
order they were played::

    S_0 = 0,   S_n = max(0, S_(n-1) + Λ_n - DRIFT)

An honest player's ``Λ`` is 0 in most games (the honest model explains them) and
rarely above 2.5 (its 99th centile), so ``S`` keeps falling back to 0; a player who
uses dice to come scores ``Λ`` above :data:`DRIFT` day after day, and ``S`` climbs. At
:data:`LINE` or more the record is evidence and the player's game waits for an
operator. One game alone crosses the line only at ``Λ >= LINE + DRIFT``, above the
one-game lines, so the record never holds a game the one-game test would not hold for a
reason of its own.

Calibrated by ``bench/foresight_record.py`` on honest noisy-optimal players (the
compiled players of :mod:`daily.strategy.simulate`, temperatures 0.1 to 4 points: the
strongest are the ones the honest model fits best, the weakest the ones whose mistakes
look most like foresight): :data:`LINE` holds at most 1 honest player-season of 200
ranked games in 10,000 at every temperature; ``docs/fairplay.md`` gives the figures.

>>> cusum([0.0, 0.3, 0.0, 2.1])
1.1
>>> persistent([3.0] * 10), persistent([0.0, 0.2, 1.5, 0.0] * 50)
(True, False)
"""

from __future__ import annotations

from collections.abc import Sequence

#: Version of the test; stored with the evidence.
METHOD = "foresight-cusum/1"
#: What each game's ``Λ`` must exceed to add to the sum (honest play: 0 in most games,
#: 0.3 at its 90th centile).
DRIFT = 1.0
#: The line of the cumulative sum (see the module text for its calibration).
LINE = 16.0
#: Games of a record kept (the latest); the sum runs over these.
KEPT = 400


def cusum_path(values: Sequence[float], drift: float = DRIFT) -> list[float]:
    """The cumulative sum after each game (``values``: each game's ``Λ``, in the order
    played).

    >>> cusum_path([2.0, 0.0, 3.5], drift=1.0)
    [1.0, 0.0, 2.5]
    """
    out, s = [], 0.0
    for value in values:
        s = max(0.0, s + float(value) - drift)
        out.append(s)
    return out


def cusum(values: Sequence[float], drift: float = DRIFT) -> float:
    """The cumulative sum after the last game (0 for an empty record).

    >>> cusum([]), cusum([5.0, 5.0])
    (0.0, 8.0)
    """
    path = cusum_path(values, drift)
    return round(path[-1], 6) if path else 0.0


def persistent(values: Sequence[float], line: float = LINE, drift: float = DRIFT) -> bool:
    """Whether a record of ``Λ`` (the latest :data:`KEPT`) is evidence: its cumulative
    sum after the last game is at ``line`` or more.

    >>> persistent([14.0, 4.0]), persistent([14.0, 4.0, 0.0, 0.0])
    (True, False)
    """
    return cusum(values[-KEPT:], drift) >= line
