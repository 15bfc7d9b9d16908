"""Daily Dice: the same dice for everyone, every day, in the Yahtzee family of games.

The game core (rules, dice, logs, replay, strategy) is pure Python and imports neither
Flask nor Redis; the service lives in ``daily.service`` and the RQ jobs in ``workers``.
"""

__version__ = "0.1.0"
