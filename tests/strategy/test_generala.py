"""Generala solved exactly: the table, the advisor, the bots and simulation agree."""

from __future__ import annotations

import math
import random

import pytest

from daily.game import Game
from daily.movelog import MoveLog
from daily.replay import replay
from daily.rules import get_ruleset
from daily.strategy.advisor import Advisor
from daily.strategy.bots import Bot
from daily.strategy.simulate import play_slots, random_slots, slot_array
from daily.strategy.solver import StrategyTable, solve
from daily.strategy.spec import GameSpec, Position, StrategyError

SEEDS = [bytes([i]) * 32 for i in range(25)]


def test_optimal_expected_score(generala_table: StrategyTable) -> None:
    # the figure quoted in docs/strategy.md
    assert round(generala_table.expected, 4) == 162.5344
    assert generala_table.spec.n_states == 2048 * 2


@pytest.mark.slow
def test_twenty_thousand_simulated_games_average_the_table(generala_table) -> None:
    totals = play_slots(generala_table, random_slots(generala_table.rules, 20_000, 1), "hard")
    mean = float(totals.mean())
    se = float(totals.std(ddof=1)) / math.sqrt(len(totals))
    assert abs(mean - generala_table.expected) < 3 * se, (mean, se)
    easy = play_slots(generala_table, random_slots(generala_table.rules, 2000, 5), "easy")
    assert generala_table.expected - float(easy.mean()) > 5


def test_compiled_player_and_the_game_bot_agree(generala_table: StrategyTable) -> None:
    fast = play_slots(generala_table, slot_array(generala_table.rules, SEEDS), "hard")
    bot = Bot(generala_table, "hard")
    slow = [bot.play(Game.from_seed(generala_table.rules, s)).card.total for s in SEEDS]
    assert list(fast) == slow


def test_a_bot_game_replays_to_its_total(generala_table: StrategyTable) -> None:
    game = Bot(generala_table, "hard").play(Game.from_seed(generala_table.rules, SEEDS[3]))
    assert replay(MoveLog.of_game(game, seed=SEEDS[3])).total == game.card.total


def test_the_advisor_takes_a_served_full_on_the_first_roll(generala_table) -> None:
    rules = generala_table.rules
    advisor = Advisor(generala_table)
    first = Position(rules, (None,) * 11, (3, 3, 3, 5, 5), rolls_left=2)
    best = advisor.box_actions(first)
    assert {a.box: a.points for a in best}["full"] == 35
    later = Position(rules, (None,) * 11, (3, 3, 3, 5, 5), rolls_left=1)
    assert {a.box: a.points for a in advisor.box_actions(later)}["full"] == 30
    # the position's value from the advisor equals the table's value of the turn
    rng = random.Random(1)
    total = 0.0
    for _ in range(200):
        dice = tuple(rng.randint(1, 6) for _ in range(5))
        total += advisor.position_value(Position(rules, (None,) * 11, dice, 2))
    assert total / 200 == pytest.approx(generala_table.expected, abs=3.0)


def test_options_change_the_value() -> None:
    plain = solve(get_ruleset("generala")).expected
    assert solve(get_ruleset("generala", {"double_generala": False})).expected < plain - 5
    assert solve(get_ruleset("generala", {"ace_high": False})).expected < plain
    assert solve(get_ruleset("generala", {"generala_points": "40-50"})).expected < plain


def test_no_table_for_triple_yahtzee_or_outright_wins() -> None:
    with pytest.raises(StrategyError, match="39 boxes, too many for an exact table"):
        GameSpec.from_rules(get_ruleset("triple-yahtzee"))
    with pytest.raises(StrategyError) as err:
        GameSpec.from_rules(get_ruleset("generala", {"served_generala_wins": True}))
    assert err.value.field == "options.served_generala_wins"
