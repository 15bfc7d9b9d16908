"""The Triple Yahtzee heuristic player: consistent, legal, and better than greedy."""

from __future__ import annotations

import pytest

from daily.game import Game
from daily.movelog import MoveLog
from daily.replay import replay
from daily.rules import get_ruleset
from daily.strategy.simulate import random_slots, slot_array
from daily.strategy.solver import StrategyTable
from daily.strategy.spec import Position, StrategyError
from daily.strategy.triple import TripleAdvisor, column_rules

RULES = get_ruleset("triple-yahtzee")
SEEDS = [bytes([i, 7]) * 16 for i in range(6)]


@pytest.fixture(scope="module")
def advisor(plain_yahtzee_table: StrategyTable) -> TripleAdvisor:
    return TripleAdvisor(plain_yahtzee_table, RULES)


def test_the_column_game_matches_the_edition(yahtzee_table, plain_yahtzee_table) -> None:
    assert column_rules(RULES) == plain_yahtzee_table.rules
    joker = get_ruleset("triple-yahtzee", {"joker": True})
    assert column_rules(joker) == yahtzee_table.rules
    with pytest.raises(StrategyError, match="needs the table of yahtzee"):
        TripleAdvisor(yahtzee_table, RULES)
    with pytest.raises(StrategyError, match="not a multi-column game"):
        column_rules(get_ruleset("yahtzee"))


def test_compiled_and_python_players_agree(advisor, plain_yahtzee_table) -> None:
    greedy = TripleAdvisor(plain_yahtzee_table, RULES, greedy=True)
    for player in (advisor, greedy):
        slow = [player.play(Game.from_seed(RULES, s)).card.total for s in SEEDS[:3]]
        assert list(player.play_slots(slot_array(RULES, SEEDS[:3]))) == slow


def test_joker_edition_players_agree(yahtzee_table) -> None:
    rules = get_ruleset("triple-yahtzee", {"joker": True})
    player = TripleAdvisor(yahtzee_table, rules)
    slow = [player.play(Game.from_seed(rules, s)).card.total for s in SEEDS[3:5]]
    assert list(player.play_slots(slot_array(rules, SEEDS[3:5]))) == slow


def test_a_bot_game_is_legal_and_replays(advisor) -> None:
    game = advisor.play(Game.from_seed(RULES, SEEDS[5]))
    assert game.over and len(game.history) == 39
    assert replay(MoveLog.of_game(game, seed=SEEDS[5])).total == game.card.total


def test_lookahead_beats_greedy(advisor, plain_yahtzee_table) -> None:
    slots = random_slots(RULES, 300, 13)
    look = advisor.play_slots(slots)
    greedy = TripleAdvisor(plain_yahtzee_table, RULES, greedy=True).play_slots(slots)
    assert look.mean() - greedy.mean() > 100  # measured: about 250 (docs/strategy.md)


def test_hint_is_labelled_heuristic(advisor) -> None:
    pos = Position(RULES, (None,) * 39, (6, 6, 6, 6, 2), rolls_left=2)
    hint = advisor.hint(pos, 2)
    assert hint["heuristic"] is True
    assert hint["best"]["kind"] == "keep" and hint["best"]["kept"] == [6, 6, 6, 6]
    assert len(hint["alternatives"]) == 2
    last = Position(RULES, (None,) * 39, (6, 6, 6, 6, 6), rolls_left=0)
    assert advisor.best(last).box.endswith("yahtzee")
