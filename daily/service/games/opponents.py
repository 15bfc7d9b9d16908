"""Computer opponents: the bots of :mod:`daily.strategy.bots` on the dice of your game.

Each opponent plays the same roll slots as the player (every roll of turn ``t`` uses
slot ``t``'s dice), turn by turn, after the player. The whole bot game is computed on
the server, from the game's dice source, but the state shows an opponent's turn ``t``
only once the player's own turn ``t`` is scored: a bot's turn uses only the slots of
its own turn, so nothing about a later slot reaches the player early. On the dice of a
day that is still open, even that turn shows its box and points only: the bot rerolls
dice the player may keep, so its rolls would show the player slots they never rolled
(:func:`hide_dice`); its whole turns are shown once the day is revealed. The bots are
deterministic (the medium one draws from a stream seeded by the game's seed, the same
stream as the day's par job), so a bot game is recomputed identically by any process.

Until a ruleset's strategy table exists (Maxi Yatzy's takes minutes to build), the
heuristic player of :mod:`daily.strategy.heuristic` stands in for the medium and hard
bots; the easy bot (greedy: this turn's points only) needs no table. Which levels are
stand-ins is decided when the game starts and kept in its record (``stand_ins``), so an
opponent never changes during a game; the state marks them ``"heuristic": true``.

Triple Yahtzee has no exact table: its bots are the engine's lookahead player
(:class:`daily.strategy.triple.TripleAdvisor`, on the one-column table that ``daily
strategy build triple-yahtzee`` builds): easy is its greedy form (this turn's weighted
points only), medium samples its actions as the medium bot does, hard plays its best.
They are marked ``"heuristic": true`` (the strength is measured, not exact). Without
the column table the answer is 409 ``opponents_unavailable`` naming the build.

Par, explained: :func:`expected_score` is what a level averages (the hard bot's is the
table's exact optimal expectation, 254.6 at Yahtzee; easy and medium are measured
means; a stand-in hard bot's is the heuristic player's measured mean,
:data:`STAND_IN_MEANS`), and the state's ``total`` is what it got on these dice.

>>> parse_opponents(["hard", "easy"])
('hard', 'easy')
>>> parse_opponents(["hard", "hard"])
Traceback (most recent call last):
...
daily.service.refusals.Invalid: opponents: each level at most once; 'hard' is twice
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from daily.dice import SlotSource
from daily.game import Game
from daily.replay import turns_json
from daily.rules import Ruleset
from daily.service.refusals import Conflict, Invalid, Unavailable
from daily.strategy.bots import LEVELS, Bot
from daily.strategy.heuristic import HeuristicAdvisor
from daily.strategy.solver import StrategyTable
from daily.strategy.spec import GameSpec, StrategyError
from daily.strategy.tables.lookup import get_table
from daily.strategy.triple import TripleAdvisor, column_rules

#: Mean totals of the easy and medium bots, measured over 10,000 games each on the
#: daily generator's dice (``bench/strategy_bots.py --games 10000``, docs/strategy.md).
#: The hard bot's expectation is exact: the strategy table's optimal expected score.
MEASURED_MEANS: dict[str, dict[str, float]] = {
    "yahtzee": {"easy": 217.41, "medium": 234.91},
    "yatzy": {"easy": 201.21, "medium": 222.85},
    "maxi-yatzy": {"easy": 323.00, "medium": 358.97},
}
#: Mean totals of the heuristic player standing in for the hard bot while a table is
#: missing, measured over 2,000 games each (``bench/heuristic_bots.py``,
#: bench/results/heuristic_bots-*.json); the medium stand-in's is not measured.
STAND_IN_MEANS: dict[str, float] = {"yahtzee": 246.9, "yatzy": 240.36, "maxi-yatzy": 379.72}
#: Bot games one process keeps (a game's opponents are recomputed after eviction).
CACHED_GAMES = 2_000


def parse_opponents(raw: Any) -> tuple[str, ...]:
    """The levels of a request's ``"opponents"`` (a list of distinct levels)."""
    if raw is None:
        return ()
    if not isinstance(raw, list) or len(raw) > len(LEVELS):
        raise Invalid(f"opponents is a list of up to {len(LEVELS)} levels: {', '.join(LEVELS)}",
            field="opponents",
        )
    seen: list[str] = []
    for level in raw:
        if level not in LEVELS:
            raise Invalid(f"{level!r} is not a level; the levels are {', '.join(LEVELS)}",
                field="opponents",
            )
        if level in seen:
            raise Invalid(f"each level at most once; {level!r} is twice",
                field="opponents",
            )
        seen.append(level)
    return tuple(seen)


def strategy_table(rules: Ruleset, folder: Path) -> StrategyTable:
    """The table the bots of ``rules`` need; 503 naming the build command when missing."""
    try:
        return get_table(rules, folder)
    except StrategyError as exc:
        raise Unavailable(f"computer opponents need the strategy table: {exc.message}",
            field="opponents",
        ) from None


def expected_score(table: StrategyTable, level: str) -> float | None:
    """What ``level`` averages at the table's game (None when not measured).

    >>> from daily.rules import get_ruleset
    >>> from daily.strategy.solver import solve
    >>> table = solve(get_ruleset("yacht", {"forced_order": True}))
    >>> expected_score(table, "hard") == round(table.expected, 1)
    True
    >>> expected_score(table, "easy") is None
    True
    """
    if level == "hard":
        return round(table.expected, 1)
    if table.rules.non_default_options():
        return None
    return MEASURED_MEANS.get(table.rules.name, {}).get(level)


@dataclass(frozen=True)
class BotGame:
    """A whole bot game: each scored turn (JSON) and the running total after it."""

    level: str
    turns: list[dict[str, Any]]
    totals: list[int]

    def shown(self, done: int, expected: float | None, *, dice: bool = True) -> dict[str, Any]:
        """The opponent as the player may see it after ``done`` scored turns (``dice``
        false: each turn's box and points only, :func:`hide_dice`)."""
        done = max(0, min(done, len(self.turns)))
        over = done == len(self.turns)
        turns = self.turns[:done]
        return {
            "level": self.level,
            "total": self.totals[done - 1] if done else 0,
            "turns": turns if dice else hide_dice(turns),
            "over": over,
            "expected": expected,
            "dice_hidden": not dice,
        }


#: The fields of a scored turn (:func:`daily.replay.turns_json`) that show dice.
DICE_FIELDS = ("rolls", "holds", "dice")


def hide_dice(turns: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Scored turns with their box and points but null dice, rolls and holds: another
    game's turns on the dice of a day still open (an opponent's, a rival's).

    >>> hide_dice([{"turn": 1, "rolls": [[6, 6, 6, 6, 6]], "holds": [],
    ...             "dice": [6, 6, 6, 6, 6], "box": "yahtzee", "points": 50, "bonus": 0}])
    ... # doctest: +NORMALIZE_WHITESPACE
    [{'turn': 1, 'rolls': None, 'holds': None, 'dice': None, 'box': 'yahtzee',
      'points': 50, 'bonus': 0}]
    """
    return [{**turn, **dict.fromkeys(DICE_FIELDS)} for turn in turns]


def multi_column(rules: Ruleset) -> bool:
    """True for a game of several columns (Triple Yahtzee), whose bots are the lookahead
    player's.

    >>> from daily.rules import get_ruleset
    >>> multi_column(get_ruleset("triple-yahtzee")), multi_column(get_ruleset("yahtzee"))
    (True, False)
    """
    return len(rules.weights) > 1


def bot_table(rules: Ruleset, folder: Path) -> StrategyTable:
    """The table the bots of ``rules`` play from: its own, or for Triple Yahtzee the
    one-column table of its lookahead player (503 ``Unavailable`` when missing)."""
    if multi_column(rules):
        return strategy_table(column_rules(rules), folder)
    return strategy_table(rules, folder)


def make_bot(
    rules: Ruleset, table: StrategyTable | None, level: str, seed: bytes, *, stand_in: bool
) -> Bot:
    """The bot of ``level``: the table's, or the heuristic player standing in for it (the
    easy one is the greedy player, table or not: the same decisions); for Triple Yahtzee
    the lookahead player on its column ``table``."""
    if multi_column(rules):
        if table is None:
            raise StrategyError(f"{rules.name} bots need the one-column table", field="table")
        advisor = TripleAdvisor(table, rules, greedy=level == "easy")
        return Bot(None, level, seed=seed, advisor=advisor)  # type: ignore[arg-type]
    if level == "easy":
        return Bot(None, level, seed=seed, advisor=HeuristicAdvisor(rules, greedy=True))
    if stand_in or table is None:
        return Bot(None, level, seed=seed, advisor=HeuristicAdvisor(rules))
    return Bot(table, level, seed=seed)


def play_bot(
    table: StrategyTable, level: str, slots: SlotSource, seed: bytes, *,
    stand_in: bool = False,
) -> BotGame:
    """One bot's whole game on ``slots`` (its medium stream seeded by ``seed``).

    >>> from daily.dice import SlotCache
    >>> from daily.rules import get_ruleset
    >>> from daily.strategy.solver import solve
    >>> table = solve(get_ruleset("yacht", {"forced_order": True}))
    >>> game = play_bot(table, "hard", SlotCache(bytes(32), 5), bytes(32))
    >>> len(game.turns), game.totals[-1] == sum(t["points"] + t["bonus"] for t in game.turns) \\
    ...     or game.totals[-1] > 0
    (12, True)
    """
    return play_bot_of(make_bot(table.rules, table, level, seed, stand_in=stand_in), slots)


def play_bot_of(bot: Bot, slots: SlotSource) -> BotGame:
    """A bot's whole game on ``slots``."""
    game = Game(bot.advisor.rules, slots)
    totals: list[int] = []
    while not game.over:
        if bot.step(game).kind == "box":
            totals.append(game.card.total)
    return BotGame(bot.level, turns_json(game.history), totals)


class Opponents:
    """Bot games of the service's games, computed on demand and kept per process."""

    def __init__(self, tables_dir: Path) -> None:
        self.tables_dir = tables_dir
        self._games: OrderedDict[tuple[str, str], BotGame] = OrderedDict()
        self._lock = threading.Lock()

    def stand_ins(self, rules: Ruleset, levels: Sequence[str]) -> list[str]:
        """The levels the heuristic player plays in a game starting now: medium and hard
        while the ruleset's table is missing (none once it is there). A ruleset not even
        the heuristic player can play is a 409 ``opponents_unavailable``."""
        if not levels:
            return []
        if multi_column(rules):  # the lookahead player, or none without its table
            try:
                bot_table(rules, self.tables_dir)
            except Unavailable as missing:
                raise Conflict(
                    f"{rules.name} computer opponents need the one-column table of its"
                    f" lookahead player ({missing.message})", code="opponents_unavailable",
                    field="opponents") from None
            return []
        try:
            strategy_table(rules, self.tables_dir)
            return []
        except Unavailable as missing:
            try:
                GameSpec.from_rules(rules)
            except StrategyError:
                raise Conflict(missing.message, code="opponents_unavailable",
                               field="opponents") from None
        return [level for level in levels if level != "easy"]

    def state(
        self, game_id: str, rules: Ruleset, levels: Sequence[str], slots: SlotSource,
        seed: bytes, done: int, stand_ins: Sequence[str] = (), *, dice: bool = True,
    ) -> list[dict[str, Any]]:
        """Each opponent up to the player's ``done`` scored turns (``stand_ins``: the
        levels the heuristic player plays, as recorded when the game started; ``dice``
        false while the game's day is open: boxes and points only)."""
        if not levels:
            return []
        table: StrategyTable | None = None
        if multi_column(rules) or any(level not in stand_ins and level != "easy"
                                      for level in levels):
            table = bot_table(rules, self.tables_dir)
        out = []
        for level in levels:
            key = (game_id, level)
            with self._lock:
                bot_game = self._games.get(key)
            stand_in = level in stand_ins
            if bot_game is None:
                bot = make_bot(rules, table, level, seed, stand_in=stand_in)
                bot_game = play_bot_of(bot, slots)
                with self._lock:
                    self._games[key] = bot_game
                    while len(self._games) > CACHED_GAMES:
                        self._games.popitem(last=False)
            expected = expected_of(rules, table, level, stand_in=stand_in)
            out.append(dict(bot_game.shown(done, expected, dice=dice),
                            heuristic=stand_in or multi_column(rules)))
        return out


def expected_of(rules: Ruleset, table: StrategyTable | None, level: str, *,
                stand_in: bool = False) -> float | None:
    """:func:`expected_score` of a level, also without the table (easy: measured; a
    stand-in hard bot: the heuristic player's measured mean); None where nothing is
    measured (the medium stand-in, Triple Yahtzee's bots: ``bench/triple_bots.py``).

    >>> from daily.rules import get_ruleset
    >>> expected_of(get_ruleset("maxi-yatzy"), None, "hard", stand_in=True)
    379.72
    >>> expected_of(get_ruleset("maxi-yatzy"), None, "medium", stand_in=True) is None
    True
    """
    if rules.non_default_options() or multi_column(rules):
        return None
    if stand_in or table is None:
        if level == "easy":
            return MEASURED_MEANS.get(rules.name, {}).get(level)
        return STAND_IN_MEANS.get(rules.name) if level == "hard" else None
    return expected_score(table, level)
