"""Pure helpers for core tests: a slot source that deals chosen dice."""

from __future__ import annotations

from collections.abc import Sequence

from daily.game import Game
from daily.rules import Ruleset


def scripted(first_rolls: Sequence[Sequence[int]]):
    """A slot source whose roll 0 of turn t is ``first_rolls[t]`` (rerolls give 1s).

    Turns past the script roll 1-2-3-4-6 (or 1-2-3-4-6-6 with six dice).
    """
    count = len(first_rolls[0])

    def slots(turn: int, roll: int) -> tuple[int, ...]:
        if roll == 0 and turn < len(first_rolls):
            return tuple(first_rolls[turn])
        if roll == 0:
            return (1, 2, 3, 4, 6, 6)[:count]
        return (1,) * count

    return slots


def play_script(rules: Ruleset, plan: Sequence[tuple[Sequence[int], str]]) -> Game:
    """Play a whole game where turn t rolls ``plan[t][0]`` and scores ``plan[t][1]``."""
    game = Game(rules, scripted([dice for dice, _ in plan]))
    for _, box in plan:
        game.score(box)
    return game
