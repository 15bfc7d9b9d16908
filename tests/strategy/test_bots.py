"""Bots play whole games through ``Game`` on slot dice; the compiled player agrees."""

from __future__ import annotations

import hashlib

import pytest

from daily.game import Game
from daily.movelog import MoveLog
from daily.replay import replay
from daily.strategy.bots import Bot, play_bots
from daily.strategy.simulate import play_slots, random_slots, slot_array
from daily.strategy.solver import StrategyTable
from daily.strategy.spec import StrategyError

SEEDS = [hashlib.sha256(b"bots-%d" % i).digest() for i in range(60)]


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_compiled_player_makes_the_same_decisions(
    yahtzee_table: StrategyTable, level: str
) -> None:
    bot = Bot(yahtzee_table, level)
    slow = [bot.play(Game.from_seed(yahtzee_table.rules, s)).card.total for s in SEEDS]
    fast = play_slots(yahtzee_table, slot_array(yahtzee_table.rules, SEEDS), level)
    assert [int(t) for t in fast] == slow


def test_compiled_player_agrees_on_yatzy(yatzy_table: StrategyTable) -> None:
    bot = Bot(yatzy_table, "hard")
    slow = [bot.play(Game.from_seed(yatzy_table.rules, s)).card.total for s in SEEDS[:30]]
    fast = play_slots(yatzy_table, slot_array(yatzy_table.rules, SEEDS[:30]), "hard")
    assert [int(t) for t in fast] == slow


def test_a_bot_game_replays_to_the_same_total(yahtzee_table: StrategyTable) -> None:
    seed = SEEDS[0]
    game = Bot(yahtzee_table, "medium", seed=seed).play(Game.from_seed(yahtzee_table.rules, seed))
    log = MoveLog.of_game(game, seed=seed)
    assert replay(log).total == game.card.total


def test_medium_is_reproducible_and_tunable(yahtzee_table: StrategyTable) -> None:
    rules = yahtzee_table.rules
    a = Bot(yahtzee_table, "medium", seed=1).play(Game.from_seed(rules, SEEDS[1])).card.total
    b = Bot(yahtzee_table, "medium", seed=1).play(Game.from_seed(rules, SEEDS[1])).card.total
    assert a == b
    slots = random_slots(rules, 1500, 9)
    means = [
        play_slots(yahtzee_table, slots, "medium", temperature=t, seed=4).mean()
        for t in (0.0, 0.5, 4.0)
    ]
    assert means[0] == play_slots(yahtzee_table, slots, "hard").mean()
    assert means[0] > means[1] > means[2]


def test_levels_are_ordered(yahtzee_table: StrategyTable) -> None:
    slots = random_slots(yahtzee_table.rules, 3000, 21)
    easy, medium, hard = (play_slots(yahtzee_table, slots, lv, seed=2).mean()
                          for lv in ("easy", "medium", "hard"))
    assert easy < medium < hard


def test_play_bots_on_a_seed(yahtzee_table: StrategyTable) -> None:
    par = play_bots(yahtzee_table, SEEDS[2])
    hard = Bot(yahtzee_table, "hard").play(Game.from_seed(yahtzee_table.rules, SEEDS[2]))
    assert par["hard"] == hard.card.total
    assert set(par) == {"easy", "medium", "hard"}


def test_bad_level_and_temperature(yahtzee_table: StrategyTable) -> None:
    with pytest.raises(StrategyError, match="level"):
        Bot(yahtzee_table, "expert")
    with pytest.raises(StrategyError, match="temperature"):
        Bot(yahtzee_table, "medium", temperature=-1)
    with pytest.raises(StrategyError, match="level"):
        play_slots(yahtzee_table, random_slots(yahtzee_table.rules, 1, 1), "expert")
