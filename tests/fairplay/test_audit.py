"""The audit: the stricter test's rare, far lower lines, drawn per game from the day's
key. The informed cheater stays under them; the gambling cheater does not, and is held
on the games that are audited."""

from __future__ import annotations

import numpy as np
import pytest

from daily.fairplay import kernel
from daily.fairplay.daykey import (
    AUDIT_POSITIONAL_RANGE,
    AUDIT_RANGE,
    AUDIT_SHARE,
    STRICT_POSITIONAL_RANGE,
    STRICT_RANGE,
    DayParams,
    audit_range,
    fairplay_key,
)
from daily.fairplay.informed import SimDay, informed_game, safe_lines
from daily.fairplay.strict import strict_of
from daily.strategy.simulate import random_slots
from daily.strategy.solver import StrategyTable

MASTER = b"daily-dice-example-master-secret"


def test_the_audit_is_drawn_per_game_from_the_days_key() -> None:
    params = DayParams.from_key(fairplay_key(MASTER, "yahtzee", "2026-11-29"), "yahtzee")
    other = DayParams.from_key(fairplay_key(MASTER, "yahtzee", "2026-11-30"), "yahtzee")
    assert AUDIT_RANGE[0] <= params.audit_threshold < AUDIT_RANGE[1] <= STRICT_RANGE[0]
    assert (AUDIT_POSITIONAL_RANGE[0] <= params.audit_positional_threshold
            < AUDIT_POSITIONAL_RANGE[1] <= STRICT_POSITIONAL_RANGE[0])
    ids = [f"g_{k}" for k in range(20_000)]
    audited = {i for i in ids if params.audited(i)}
    assert abs(len(audited) / len(ids) - AUDIT_SHARE) < 0.3 * AUDIT_SHARE
    assert audited != {i for i in ids if other.audited(i)}  # per day set, and per game
    assert not params.audited(None)  # no id, no audit
    # Published after the reveal: anyone re-derives the lines and which games were audited.
    published = params.to_json()
    again = DayParams.from_hex(published["key"], "yahtzee")
    assert published["audit_threshold"] == round(params.audit_threshold, 6)
    assert {i for i in ids if again.audited(i)} == audited
    assert params.key.hex() not in repr(params)


def test_maxi_yatzys_audit_line_is_drawn_from_its_own_lower_range() -> None:
    """Maxi Yatzy's audit line is drawn in 1 to 2 (its games hide more gain under the
    same line); the ruleset named with the key chooses the range, nothing else moves."""
    assert audit_range("maxi-yatzy") == (1.0, 2.0) and audit_range("yacht") == AUDIT_RANGE
    lines = []
    for d in range(1, 29):
        key = fairplay_key(MASTER, "maxi-yatzy", f"2026-02-{d:02d}")
        maxi, other = DayParams.from_key(key, "maxi-yatzy"), DayParams.from_key(key, "yatzy")
        assert 1.0 <= maxi.audit_threshold < 2.0
        assert maxi.audit_threshold == pytest.approx(other.audit_threshold - 0.5)
        assert (maxi.threshold, maxi.strict_threshold) == (other.threshold,
                                                           other.strict_threshold)
        assert DayParams.from_hex(maxi.to_json()["key"], "maxi-yatzy").audit_threshold == (
            maxi.audit_threshold)
        lines.append(maxi.audit_threshold)
    assert max(lines) - min(lines) > 0.5


def test_the_informed_cheater_stays_under_the_audit_and_the_gambler_is_held_by_it(
    yahtzee_table: StrategyTable,
) -> None:
    """On five seeded days: the informed cheater (safe against the audit's lowest lines on
    its own subsets) is never held, audited or not; the gambling cheater (safe against
    the strict lines only) gains more, and is held on the days its game is audited and
    its scrutiny statistic reaches the audit's line, never when it is not audited."""
    rules = yahtzee_table.rules
    informed_gains, gambling_gains, held_when_audited = [], [], 0
    for k, slots in enumerate(random_slots(rules, 5, seed=26)):
        params = DayParams.from_key(fairplay_key(MASTER, "yahtzee", f"sim-{k}"), "yahtzee")
        day = SimDay(rules, yahtzee_table, slots, params)
        optimal = day.walk(kernel.SOFTMAX, 0.0).total
        audited_id = next(f"g_{i}" for i in range(10_000) if params.audited(f"g_{i}"))
        plain_id = next(f"g_{i}" for i in range(10_000) if not params.audited(f"g_{i}"))
        rng = np.random.default_rng(26)
        informed = informed_game(day, rng, subsets=16)
        gambling = informed_game(day, rng, subsets=16, gamble=True)
        assert optimal <= informed.total <= gambling.total
        for game_id in (audited_id, plain_id):
            assert not strict_of(informed, day.ceiling, params, game_id).flagged
        assert not strict_of(gambling, day.ceiling, params, plain_id).flagged
        verdict = strict_of(gambling, day.ceiling, params, audited_id)
        assert verdict.audit_threshold == params.audit_threshold
        reaches = (verdict.strict is not None and verdict.strict_positional is not None
                   and (verdict.strict >= params.audit_threshold
                        or verdict.strict_positional >= params.audit_positional_threshold))
        assert verdict.flagged == reaches
        held_when_audited += verdict.flagged
        informed_gains.append(informed.total - optimal)
        gambling_gains.append(gambling.total - optimal)
    assert held_when_audited >= 1  # the audit holds the gambler's game on some days
    assert sum(informed_gains) < sum(gambling_gains)  # and costs the informed cheater
    assert safe_lines("yahtzee") < safe_lines("yahtzee", gamble=True)
