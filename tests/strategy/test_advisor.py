"""Hints: every action valued, consistent with the solver, fast enough to ask anytime."""

from __future__ import annotations

import hashlib

import pytest

from daily.game import Game
from daily.rules import get_ruleset
from daily.strategy.advisor import Advisor
from daily.strategy.solver import StrategyTable
from daily.strategy.spec import Position, StrategyError


def positions(table: StrategyTable, count: int) -> list[tuple[Position, Game]]:
    """Positions met by the hard bot on seeded dice (all turns, all rolls)."""
    advisor = Advisor(table)
    out = []
    i = 0
    while len(out) < count:
        seed = hashlib.sha256(b"advisor-%d" % i).digest()
        i += 1
        game = Game.from_seed(table.rules, seed)
        while not game.over:
            pos = Position.from_game(game)
            out.append((pos, game))
            act = advisor.best(pos)
            if act.kind == "keep":
                game.reroll(act.hold)
            else:
                game.score(act.box)
    return out[:count]


def test_values_agree_with_the_table(yahtzee_table: StrategyTable) -> None:
    advisor = Advisor(yahtzee_table)
    start = Game.from_seed(yahtzee_table.rules, bytes(32))
    pos = Position.from_game(start)
    # before the first roll the game is worth the table's expectation; after it, the best
    # action's value is one of the outcomes averaged into it
    spec = yahtzee_table.spec
    state = spec.card_state(pos.scores)
    _, E, M = yahtzee_table.turn(state)
    assert E[3, 0] == pytest.approx(yahtzee_table.expected, abs=1e-9)
    r = spec.keep_of(pos.dice)
    assert advisor.best(pos).value == pytest.approx(M[2, r], abs=1e-9)


def test_every_position_best_matches_kernel(yahtzee_table: StrategyTable) -> None:
    advisor = Advisor(yahtzee_table)
    spec = yahtzee_table.spec
    for pos, _ in positions(yahtzee_table, 150):
        acts = advisor.actions(pos)
        values = [a.value for a in acts]
        assert values == sorted(values, reverse=True)
        state = spec.card_state(pos.scores)
        v0, _, M = yahtzee_table.turn(state)
        r = spec.keep_of(pos.dice)
        top = M[pos.rolls_left, r] if pos.rolls_left else v0[r - spec.roll0]
        assert acts[0].value == pytest.approx(pos.card.total + top, abs=1e-9)
        boxes = [a for a in acts if a.kind == "box"]
        assert boxes, "a legal box always exists"
        keeps = [a for a in acts if a.kind == "keep"]
        assert (len(keeps) > 0) == (pos.rolls_left > 0)


def test_hint_shape(yahtzee_table: StrategyTable) -> None:
    rules = yahtzee_table.rules
    pos = Position(rules, (None,) * 13, (6, 6, 6, 2, 3), 1)
    hint = Advisor(yahtzee_table).hint(pos, top=4)
    assert hint["best"]["kind"] == "keep" and hint["best"]["kept"] == [6, 6, 6]
    assert hint["best"]["hold"] == "11100"
    assert len(hint["alternatives"]) == 4
    assert all(a["loss"] >= 0 for a in hint["alternatives"])


def test_a_turn_runs_the_kernel_once(yahtzee_table: StrategyTable) -> None:
    """What keeps hints fast, checked without a clock (bench/strategy_hints.py times
    them): the turn kernel runs once per turn state, a later roll of the same turn and
    a last roll are lookups, and a new advisor on the same table shares its arrays."""
    advisor = Advisor(yahtzee_table)
    cache = advisor.engine.turn_keeps
    for pos, _game in positions(yahtzee_table, 200):
        before = cache.cache_info()
        advisor.hint(pos)
        after = cache.cache_info()
        if pos.rolls_left == 0:
            assert after == before  # a last roll needs no turn values at all
        else:
            assert after.hits + after.misses == before.hits + before.misses + 1
        if pos.rolls_left == 1:  # the same turn's first roll was asked just before
            assert after.misses == before.misses
    turns = {(pos.scores, pos.extra_bonus) for pos, _ in positions(yahtzee_table, 200)}
    assert cache.cache_info().misses <= len(turns)
    assert Advisor(yahtzee_table).engine._pack is advisor.engine._pack


@pytest.mark.parametrize(
    ("dice", "left", "field"),
    [((1, 2, 3), 0, "dice"), ((1, 2, 3, 4, 7), 0, "dice"), ((1, 2, 3, 4, 5), 3, "rolls_left")],
)
def test_bad_positions(dice: tuple[int, ...], left: int, field: str) -> None:
    rules = get_ruleset("yahtzee")
    with pytest.raises(StrategyError) as err:
        Position(rules, (None,) * 13, dice, left)
    assert err.value.field == field


def test_full_card_is_not_a_position() -> None:
    rules = get_ruleset("yacht")
    with pytest.raises(StrategyError, match="game is over"):
        Position(rules, (0,) * 12, (1, 2, 3, 4, 5), 0)


@pytest.mark.parametrize("table_name", ["yahtzee_table", "yatzy_table", "plain_yahtzee_table"])
def test_a_warm_advisor_answers_as_a_fresh_one(table_name: str, request) -> None:
    """The shared advisor's caches (turns, box gains by state and dice) change nothing."""
    table = request.getfixturevalue(table_name)
    warm = Advisor(table, cache=8)  # small: its caches fill and empty during the run
    sample = positions(table, 600)
    for _ in range(2):  # cold, then from the caches
        for pos, _game in sample:
            assert warm.hint(pos, top=20) == Advisor(table).hint(pos, top=20)
