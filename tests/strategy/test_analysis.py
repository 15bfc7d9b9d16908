"""Post-game analysis of logs: zero loss for optimal play, named mistakes otherwise."""

from __future__ import annotations

import datetime as dt
import hashlib

import pytest

from daily.errors import IllegalMoveError, LogFormatError
from daily.game import Game
from daily.movelog import MoveLog, Turn
from daily.strategy.analysis import analyse
from daily.strategy.bots import Bot
from daily.strategy.solver import StrategyTable

SEED = hashlib.sha256(b"analysis").digest()


def test_optimal_game_loses_nothing(yahtzee_table: StrategyTable) -> None:
    game = Bot(yahtzee_table, "hard").play(Game.from_seed(yahtzee_table.rules, SEED))
    report = analyse(yahtzee_table, MoveLog.of_game(game, seed=SEED))
    assert report.complete and report.total == game.card.total
    assert report.expected_loss == pytest.approx(0, abs=1e-9)
    assert report.rating == pytest.approx(yahtzee_table.expected)
    assert report.optimal_total == game.card.total
    assert report.mistakes() == []
    assert report.to_json()["optimal_decisions"] == len(report.decisions)


def test_greedy_game_has_named_mistakes(yahtzee_table: StrategyTable) -> None:
    game = Bot(yahtzee_table, "easy").play(Game.from_seed(yahtzee_table.rules, SEED))
    report = analyse(yahtzee_table, MoveLog.of_game(game, seed=SEED))
    assert report.expected_loss > 5
    worst = report.mistakes()
    # every decision that cost points, costliest first (not only the top three)
    assert worst == sorted((d for d in report.decisions if d.loss > 1e-9), key=lambda d: -d.loss)
    assert len(report.to_json()["mistakes"]) == len(worst) == (
        len(report.decisions) - report.to_json()["optimal_decisions"])
    assert report.mistakes(2) == worst[:2]
    assert worst[0].loss >= worst[-1].loss > 0
    text = worst[0].describe()
    assert text.startswith(f"turn {worst[0].turn + 1}, roll {worst[0].roll + 1}")
    assert "was worth" in text
    assert report.luck == pytest.approx(report.total - report.rating)
    assert "mistake 1" in report.summary()


def test_decisions_cover_every_move(yahtzee_table: StrategyTable) -> None:
    game = Bot(yahtzee_table, "medium", seed=3).play(Game.from_seed(yahtzee_table.rules, SEED))
    report = analyse(yahtzee_table, MoveLog.of_game(game, seed=SEED), with_optimal_total=False)
    moves = sum(len(rec.holds) + 1 for rec in game.history)
    assert len(report.decisions) == moves
    assert sum(d.loss for d in report.decisions) == pytest.approx(report.expected_loss)


def test_illegal_and_mismatched_logs(yahtzee_table: StrategyTable, yatzy_table) -> None:
    bad = MoveLog("yahtzee", (Turn((), "ones"), Turn((), "ones")), seed=SEED)
    with pytest.raises(IllegalMoveError, match="turn 2"):
        analyse(yahtzee_table, bad)
    other = MoveLog("yatzy", (Turn((), "ones"),), seed=SEED)
    with pytest.raises(LogFormatError, match="table"):
        analyse(yahtzee_table, other)
    day = MoveLog("yahtzee", (Turn((), "ones"),), day=dt.date(2026, 1, 1))
    with pytest.raises(LogFormatError, match="seed is needed"):
        analyse(yahtzee_table, day)
