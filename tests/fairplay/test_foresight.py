"""Foresight detection on real games: honest bots pass, perfect-information play is held."""

from __future__ import annotations

import pytest

from daily.errors import LogFormatError
from daily.fairplay.ceiling import ceiling_of_seed
from daily.fairplay.foresight import THRESHOLD, assess
from daily.game import Game
from daily.movelog import MoveLog, Turn
from daily.strategy.bots import Bot
from daily.strategy.solver import StrategyTable

SEEDS = [bytes([k + 7]) * 32 for k in range(3)]


@pytest.mark.parametrize("seed", SEEDS, ids=["a", "b", "c"])
def test_bots_pass_and_the_ceiling_player_is_held(
    yahtzee_table: StrategyTable, seed: bytes
) -> None:
    rules = yahtzee_table.rules
    ceiling = ceiling_of_seed(rules, seed)
    for level in ("easy", "medium", "hard"):
        game = Bot(yahtzee_table, level, seed=seed).play(Game.from_seed(rules, seed))
        verdict = assess(MoveLog.of_game(game, seed=seed), ceiling, yahtzee_table)
        assert not verdict.flagged, (level, verdict.statistic)
        assert verdict.total == game.card.total and verdict.reason is None
    verdict = assess(ceiling.perfect_log(seed=seed), ceiling, yahtzee_table)
    assert verdict.flagged and verdict.statistic >= THRESHOLD
    assert verdict.total == verdict.ceiling == ceiling.value
    assert verdict.tells and "dice that came" in verdict.tells[0].describe()
    assert "decisions were exactly the best" in (verdict.reason or "")
    body = verdict.to_json()
    assert body["flagged"] and body["tells"][0]["text"]


def test_a_log_of_other_dice_is_refused(yahtzee_table: StrategyTable) -> None:
    rules = yahtzee_table.rules
    ceiling = ceiling_of_seed(rules, SEEDS[0])
    game = Bot(yahtzee_table, "hard").play(Game.from_seed(rules, SEEDS[1]))
    log = MoveLog.of_game(game, seed=SEEDS[1])
    try:
        verdict = assess(log, ceiling, yahtzee_table)
    except LogFormatError:
        return
    # the same moves can happen to be legal on other dice; the total then differs
    assert verdict.total != game.card.total or verdict.ceiling == ceiling.value


def test_an_illegal_log_is_refused(yahtzee_table: StrategyTable) -> None:
    ceiling = ceiling_of_seed(yahtzee_table.rules, SEEDS[0])
    log = MoveLog("yahtzee", (Turn((), "ones"), Turn((), "ones")), seed=SEEDS[0])
    with pytest.raises(LogFormatError, match="does not replay"):
        assess(log, ceiling, yahtzee_table)
