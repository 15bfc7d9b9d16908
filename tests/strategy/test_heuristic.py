"""The heuristic player (no table): legal games in every family, far better than chance,
its compiled twin plays the same moves, and its greedy form is the easy bot."""

from __future__ import annotations

import random
import statistics
from pathlib import Path

import pytest

from daily.game import Game
from daily.randomplay import random_game
from daily.replay import turns_json
from daily.rules import get_ruleset
from daily.strategy.advisor import play_out
from daily.strategy.bots import Bot
from daily.strategy.heuristic import _PARS, HeuristicAdvisor, calibrated
from daily.strategy.simulate import slot_array
from daily.strategy.solver import StrategyTable
from daily.strategy.spec import Position
from daily.strategy.tables.fileformat import save_table
from daily.strategy.tables.lookup import get_advisor, warm

SEEDS = [bytes([i, 41]) * 16 for i in range(8)]


@pytest.mark.parametrize(("name", "options"), [
    ("yatzy", {}), ("generala", {}), ("yahtzee", {"forced_order": True}),
])
def test_it_plays_legal_games_and_beats_chance_by_far(
    name: str, options: dict[str, object]
) -> None:
    rules = get_ruleset(name, options)
    player = HeuristicAdvisor(rules)
    totals, chance = [], []
    for i, seed in enumerate(SEEDS):
        game = player.play(Game.from_seed(rules, seed))  # Game refuses an illegal move
        assert game.over and len(game.history) == rules.turns
        totals.append(game.card.total)
        chance.append(random_game(rules, seed, random.Random(i)).card.total)
    assert statistics.mean(totals) > 1.5 * statistics.mean(chance)


def test_compiled_and_python_players_agree_and_values_are_points() -> None:
    rules = get_ruleset("yatzy")
    player = HeuristicAdvisor(rules)
    slow = [player.play(Game.from_seed(rules, s)).card.total for s in SEEDS[:3]]
    assert list(player.play_slots(slot_array(rules, SEEDS[:3]))) == slow
    pos = Position(rules, (None,) * 15, (6, 6, 6, 2, 3), 2)
    hint = player.hint(pos)
    assert hint["heuristic"] is True and hint["best"]["kept"] == [6, 6, 6]
    assert 150 < player.expected < 260  # an estimate in points (the exact one is 248.6)
    assert calibrated(rules)[0] is player.par  # calibrated once per process


def test_the_greedy_player_is_the_easy_bot(yahtzee_table: StrategyTable) -> None:
    rules = yahtzee_table.rules
    greedy = HeuristicAdvisor(rules, greedy=True)
    easy = Bot(yahtzee_table, "easy")
    for seed in SEEDS[:4]:
        exact = easy.play(Game.from_seed(rules, seed))
        stand_in = play_out(Game.from_seed(rules, seed), greedy.best)
        assert turns_json(stand_in.history) == turns_json(exact.history)


def test_warm_opens_the_tables_and_calibrates_the_stand_ins(
    yahtzee_table: StrategyTable, tmp_path: Path
) -> None:
    save_table(yahtzee_table, tmp_path)
    rulesets = [get_ruleset("yahtzee"), get_ruleset("yatzy"),
                get_ruleset("triple-yahtzee", {"joker": True})]
    assert warm(rulesets, tmp_path) == {
        "yahtzee": "exact", "yatzy": "stand-in", "triple-yahtzee": "heuristic"}
    advisor = get_advisor(get_ruleset("yahtzee"), tmp_path)  # the warm one, kept
    assert advisor is get_advisor(get_ruleset("yahtzee"), tmp_path)
    assert advisor.engine is advisor.engine
    assert get_ruleset("yatzy").name in {name for name, _ in _PARS}
