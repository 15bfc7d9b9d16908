"""The strategy engine: exact optimal play, bots, hints and post-game analysis.

Pure computation (numpy and numba); no Flask, no Redis. See ``docs/strategy.md``.
"""
