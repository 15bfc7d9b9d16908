"""A player that picks uniformly among legal moves: for tests, benchmarks and vectors.

>>> import random
>>> from daily.rules import get_ruleset
>>> game = random_game(get_ruleset("yacht"), bytes(32), random.Random(1))
>>> game.over, len(game.history)
(True, 12)
"""

from __future__ import annotations

import random

from daily.game import Game
from daily.rules import Ruleset


def random_game(
    rules: Ruleset, seed: bytes, rng: random.Random, reroll_chance: float = 0.7
) -> Game:
    """Play a whole game on ``seed``: reroll with probability ``reroll_chance`` while
    rolls are left (a random mask that rerolls at least one die), then fill a random
    legal box."""
    game = Game.from_seed(rules, seed)
    while not game.over:
        while game.rolls_left and rng.random() < reroll_chance:
            mask = "".join(rng.choice("01") for _ in game.dice)
            if "0" in mask:
                game.reroll(mask)
        game.score(rng.choice(game.choices().legal()).box)
    return game
