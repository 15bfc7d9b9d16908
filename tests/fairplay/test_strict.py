"""The day's secret parameters, the stricter test of top games, the informed cheater."""

from __future__ import annotations

import numpy as np
import pytest

from daily.dice import day_seed
from daily.fairplay.ceiling import ceiling_of_seed
from daily.fairplay.daykey import (
    STRICT_RANGE,
    THRESHOLD_RANGE,
    DayKeyError,
    DayParams,
    fairplay_key,
)
from daily.fairplay.foresight import THRESHOLD, assess, statistic
from daily.fairplay.informed import SimDay, informed_game, looks_safe
from daily.fairplay.strict import strict_assess
from daily.game import Game
from daily.movelog import MoveLog
from daily.rules import get_ruleset
from daily.strategy.bots import Bot
from daily.strategy.simulate import random_slots
from daily.strategy.solver import StrategyTable

MASTER = b"daily-dice-example-master-secret"


def test_the_key_has_its_own_domain_and_derives_every_parameter() -> None:
    key = fairplay_key(MASTER, "yahtzee", "2026-11-29")
    assert len(key) == 32 and key != day_seed(MASTER, "yahtzee", "2026-11-29")
    assert key != fairplay_key(MASTER, "yatzy", "2026-11-29")
    assert key != fairplay_key(MASTER, "yahtzee", "2026-11-30")
    params = DayParams.from_key(key, "yahtzee")
    assert THRESHOLD_RANGE[0] <= params.threshold < THRESHOLD_RANGE[1]
    assert STRICT_RANGE[0] <= params.strict_threshold < STRICT_RANGE[1]
    published = params.to_json()
    # Re-checkable after the reveal.
    assert DayParams.from_hex(published["key"], "yahtzee") == params
    assert key.hex() not in repr(params) and "key" not in repr(params)
    # Over many days the lines cover their ranges and the subset is about half.
    many = [DayParams.from_key(fairplay_key(MASTER, "yahtzee", f"2026-01-{d:02d}"), "yahtzee")
            for d in range(1, 29)]
    lines = [p.threshold for p in many]
    assert max(lines) - min(lines) > 0.5 * (THRESHOLD_RANGE[1] - THRESHOLD_RANGE[0])
    pairs = np.array([(t, r) for t in range(13) for r in range(3)])
    share = np.mean([p.weights(pairs).mean() for p in many])
    assert 0.4 < share < 0.6
    with pytest.raises(DayKeyError, match="fairplay_key"):
        DayParams.from_key(b"short", "yahtzee")


@pytest.mark.parametrize("seed", [bytes([k + 40]) * 32 for k in range(2)], ids=["a", "b"])
def test_bots_pass_the_stricter_test_and_the_perfect_game_does_not(
    yahtzee_table: StrategyTable, seed: bytes
) -> None:
    rules = yahtzee_table.rules
    ceiling = ceiling_of_seed(rules, seed)
    params = DayParams.from_key(fairplay_key(MASTER, "yahtzee", seed.hex()[:8]), "yahtzee")
    for level in ("easy", "medium", "hard"):
        game = Bot(yahtzee_table, level, seed=seed).play(Game.from_seed(rules, seed))
        verdict = strict_assess(MoveLog.of_game(game, seed=seed), ceiling, yahtzee_table,
                                params)
        assert not verdict.flagged, (level, verdict.statistic, verdict.strict)
        assert verdict.method == "foresight-strict/3" and verdict.strict is not None
    held = strict_assess(ceiling.perfect_log(seed=seed), ceiling, yahtzee_table, params)
    assert held.flagged and held.strict is not None and held.strict >= params.strict_threshold
    body = held.to_json()
    assert body["strict_threshold"] == round(params.strict_threshold, 6)
    # What a player reads names no line: the day's lines are secret until the reveal.
    assert f"{params.threshold:.1f}" not in (held.reason or "")
    assert "limit" not in (held.reason or "")


def test_generala_gets_the_full_test(generala_table: StrategyTable) -> None:
    rules = generala_table.rules
    seed = bytes([9]) * 32
    ceiling = ceiling_of_seed(rules, seed)
    params = DayParams.from_key(fairplay_key(MASTER, "generala", "2026-11-29"), "generala")
    game = Bot(generala_table, "hard").play(Game.from_seed(rules, seed))
    assert not assess(MoveLog.of_game(game, seed=seed), ceiling, generala_table,
                      params).flagged
    perfect = ceiling.perfect_log(seed=seed)
    assert strict_assess(perfect, ceiling, generala_table, params).flagged


def test_the_informed_cheater_on_seeded_days(yahtzee_table: StrategyTable) -> None:
    """On a few seeded days: the cheater's game is one the public parts let through and
    it beats optimal play; it takes less than the best game under the old published
    line (12) did."""
    rules = yahtzee_table.rules
    slots = random_slots(rules, 3, seed=26)
    rng = np.random.default_rng(26)
    gains, old_gains = [], []
    for k, day_slots in enumerate(slots):
        params = DayParams.from_key(fairplay_key(MASTER, "yahtzee", f"sim-{k}"), "yahtzee")
        day = SimDay(rules, yahtzee_table, day_slots, params)
        optimal = day.walk(0 + 1, 0.0).total  # SOFTMAX at 0: optimal play
        game = informed_game(day, rng, subsets=16)
        assert statistic(game.loglik) < THRESHOLD_RANGE[0]
        assert looks_safe(game, "yahtzee", np.random.default_rng(k), 16)
        gains.append(game.total - optimal)
        # The cheater of the old check: the best game under the published line 12.
        from daily.fairplay.informed import candidates

        old = max((w for w in candidates(day) if statistic(w.loglik) < THRESHOLD),
                  key=lambda w: w.total)
        old_gains.append(old.total - optimal)
    assert min(gains) >= 0 and sum(gains) > 0  # the attack is real
    assert sum(gains) < sum(old_gains)  # and the secret lines cut it down


@pytest.mark.slow
def test_triple_yahtzee_turn_foresight(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Triple Yahtzee: the lookahead player's own games pass (greedy and noisy ones
    too), a player who knows each turn's dice is held, by the stricter test as well."""
    from daily.fairplay.ceiling import slots_of_seed
    from daily.fairplay.columns import assess_columns, play_columns
    from daily.strategy.triple import column_rules
    from tests.strategy.conftest import shared_table

    rules = get_ruleset("triple-yahtzee")
    table = shared_table(tmp_path_factory, column_rules(rules))
    seed = bytes([5]) * 32
    slots = slots_of_seed(rules, seed)
    params = DayParams.from_key(fairplay_key(MASTER, "triple-yahtzee", "2026-11-29"),
                               "triple-yahtzee")
    for tau in (0.0, 1.0, 4.0):
        honest = play_columns(table, rules, slots, "softmax", tau=tau, seed=7)
        verdict = assess_columns(honest, slots, table, params, strict=True)
        assert not verdict.flagged, (tau, verdict.statistic, verdict.strict)
        assert verdict.method == "turn-foresight-strict/3" and verdict.ceiling == 0
    cheat = play_columns(table, rules, slots, "foresight")
    assert assess_columns(cheat, slots, table, params).flagged
    assert assess_columns(cheat, slots, table, params, strict=True).flagged
