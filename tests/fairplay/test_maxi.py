"""Maxi Yatzy's full test on its strategy table (840 MB while it builds: not built in CI).

Set ``DAILY_TEST_MAXI_TABLES`` to a folder holding ``maxi-yatzy.ddt`` (``daily strategy
build maxi-yatzy --data-dir ...`` puts it in ``<data-dir>/tables``); without it these
tests are skipped. The calibration over many days is ``bench/fairplay.py --ruleset
maxi-yatzy`` (docs/fairplay.md, *Maxi Yatzy*); here, one seeded day: the strategy bots'
games pass the ordinary and the stricter test, and the perfect game does not.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from daily.fairplay.ceiling import ceiling_of_seed
from daily.fairplay.daykey import THRESHOLD_RANGE, DayParams, fairplay_key
from daily.fairplay.foresight import METHOD, assess
from daily.fairplay.strict import strict_assess
from daily.game import Game
from daily.movelog import MoveLog
from daily.rules import get_ruleset
from daily.strategy.bots import Bot
from daily.strategy.tables.lookup import get_table

MAXI_TABLES = os.environ.get("DAILY_TEST_MAXI_TABLES")

pytestmark = [
    pytest.mark.slow,  # the day's ceiling: 10 to 90 s
    pytest.mark.skipif(not MAXI_TABLES, reason="needs the Maxi Yatzy table (840 MB): set"
                       " DAILY_TEST_MAXI_TABLES to a folder holding it"),
]


def test_maxi_yatzy_bots_pass_the_full_test_and_the_perfect_game_does_not() -> None:
    assert MAXI_TABLES is not None
    rules = get_ruleset("maxi-yatzy")
    table = get_table(rules, Path(MAXI_TABLES))
    seed = bytes([61]) * 32
    ceiling = ceiling_of_seed(rules, seed)
    params = DayParams.from_key(fairplay_key(b"daily-dice-maxi-test-master-key", rules.name,
                                             "2026-11-29"), rules.name)
    for level in ("easy", "medium", "hard"):
        game = Bot(table, level, seed=seed).play(Game.from_seed(rules, seed))
        log = MoveLog.of_game(game, seed=seed)
        ordinary = assess(log, ceiling, table, params)
        strict = strict_assess(log, ceiling, table, params)
        assert not ordinary.flagged and not strict.flagged, (level, strict.statistic,
                                                             strict.strict)
        # Honest play stays far under the lowest line a day can draw.
        assert ordinary.statistic is not None and ordinary.statistic < THRESHOLD_RANGE[0] / 2
        assert game.card.total < ceiling.value
    perfect = ceiling.perfect_log(seed=seed)
    held = assess(perfect, ceiling, table, params)
    # Held by the test itself (not for scoring the ceiling, which the full test ignores).
    assert held.flagged and held.method == METHOD and held.statistic >= params.threshold
    assert strict_assess(perfect, ceiling, table, params).flagged
