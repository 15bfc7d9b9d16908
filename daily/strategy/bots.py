"""Bots that play a whole game on slot-addressed dice, through :class:`daily.game.Game`.

Levels:

* ``easy``: greedy. Every keep and box maximises the expected points of *this turn*
  (bonuses earned this turn included), ignoring later turns. Ties go to the first box
  in printed order.
* ``medium``: at each decision picks an action at random with probability proportional
  to ``exp(-(best - value) / temperature)``, where values are the optimal expected
  final scores. ``temperature`` (points, default :data:`MEDIUM_TEMPERATURE`) tunes the
  suboptimality: 0 plays optimally, larger values blunder more. The random stream is
  seeded, so a medium game is reproducible.
* ``hard``: optimal (maximises the expected final score).

Ties between keeps go to the larger keep, and a box beats a keep of equal value, so
the bots are deterministic. Given an ``advisor`` (such as the heuristic player of
:mod:`daily.strategy.heuristic`, which needs no table) a bot chooses from its values.

>>> from daily.rules import get_ruleset
>>> from daily.strategy.solver import solve
>>> rules = get_ruleset("yacht", {"forced_order": True})
>>> game = Game.from_seed(rules, bytes(32))
>>> Bot(solve(rules), "hard").play(game).over
True
"""

from __future__ import annotations

import hashlib
import math
import random
from dataclasses import dataclass

from daily.game import Game
from daily.strategy.advisor import Action, Advisor, play_out, take_action
from daily.strategy.solver import StrategyTable
from daily.strategy.spec import Position, StrategyError

LEVELS = ("easy", "medium", "hard")
#: The medium bot's default temperature, in points of expected final score.
MEDIUM_TEMPERATURE = 1.0


@dataclass(frozen=True)
class BotResult:
    """The outcome of one bot game."""

    level: str
    total: int
    game: Game


class Bot:
    """A player of one level; reusable across games (it caches turn values)."""

    def __init__(
        self,
        table: StrategyTable | None,
        level: str = "hard",
        *,
        temperature: float = MEDIUM_TEMPERATURE,
        seed: int | bytes | str = 0,
        advisor: Advisor | None = None,
    ) -> None:
        if level not in LEVELS:
            raise StrategyError(
                f"bot level {level!r} is not one of {', '.join(LEVELS)}", field="level"
            )
        if temperature < 0 or not math.isfinite(temperature):
            raise StrategyError("temperature is a finite number >= 0", field="temperature")
        self.level = level
        self.temperature = temperature
        if advisor is None:
            if table is None:
                raise StrategyError("a bot needs a table or an advisor", field="table")
            advisor = Advisor(table, greedy=level == "easy")
        self.advisor = advisor
        self._rng = random.Random(_seed_int(seed))

    def reseed(self, seed: int | bytes | str) -> None:
        """Restart the medium bot's random stream (one game = one seed)."""
        self._rng = random.Random(_seed_int(seed))

    def choose(self, pos: Position) -> Action:
        """The action this bot takes in ``pos``."""
        if self.level != "medium" or self.temperature == 0:
            return self.advisor.best(pos)
        acts = self.advisor.actions(pos)
        best = acts[0].value
        weights = [math.exp((a.value - best) / self.temperature) for a in acts]
        return self._rng.choices(acts, weights)[0]

    def step(self, game: Game) -> Action:
        """Take this bot's next decision in ``game`` (a reroll or a box); returns it."""
        return take_action(game, self.choose(Position.from_game(game)))

    def play(self, game: Game) -> Game:
        """Play ``game`` to the end and return it."""
        return play_out(game, self.choose)


def _seed_int(seed: int | bytes | str) -> int:
    if isinstance(seed, int):
        return seed
    raw = seed.encode("utf-8") if isinstance(seed, str) else seed
    return int.from_bytes(hashlib.sha256(b"daily-bot:" + raw).digest()[:8], "big")


def play_bots(
    table: StrategyTable, seed: bytes, levels: tuple[str, ...] = LEVELS
) -> dict[str, int]:
    """Each level's total on the dice of ``seed`` (the day's par when it is a day seed).

    >>> from daily.rules import get_ruleset
    >>> from daily.strategy.solver import solve
    >>> scores = play_bots(solve(get_ruleset("yacht", {"forced_order": True})), bytes(32))
    >>> sorted(scores)
    ['easy', 'hard', 'medium']
    """
    out = {}
    for level in levels:
        bot = Bot(table, level, seed=seed)
        out[level] = bot.play(Game.from_seed(table.rules, seed)).card.total
    return out
