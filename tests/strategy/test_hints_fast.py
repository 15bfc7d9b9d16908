"""The fast hint path (daily.strategy.hints) answers exactly as the reference path.

The reference is :meth:`Advisor.reference_hint`: placements in Python and the turn
kernel of the solver. The positions are random cards (any boxes filled with points the
box can take), random dice and rolls left, and random extra bonuses, on every exact
family: forced joker and extra bonus (Yahtzee), none (plain Yahtzee), Yatzy's 50-point
bonus, Generala's served combinations and doble generala, forced order, six dice.
"""

from __future__ import annotations

import random

import pytest

from daily.rules import Ruleset, get_ruleset
from daily.strategy import hints
from daily.strategy.advisor import Advisor
from daily.strategy.solver import StrategyTable, solve
from daily.strategy.spec import Position
from tests.strategy.conftest import reduced


def random_position(rules: Ruleset, rng: random.Random) -> Position:
    """A card with a random set of boxes filled (never all), each with points its box
    can score, random dice, rolls left and extra bonus."""
    nb = len(rules.boxes)
    rolls = list(rules.table)
    scores: list[int | None] = [None] * nb
    filled = rng.sample(range(nb), rng.randrange(nb))
    for b in filled:
        scores[b] = rules.table[rng.choice(rolls)][b] if rng.random() < 0.8 else 0
    if rules.yahtzee_index is not None and scores[rules.yahtzee_index] is not None:
        scores[rules.yahtzee_index] = rng.choice((0, 50, 50))
    extra = 0
    if rules.extra_yahtzee_bonus and scores[rules.yahtzee_index or 0] == 50:
        extra = rules.extra_yahtzee_bonus * rng.randrange(3)
    if rng.random() < 0.15:  # all alike: the joker rule and the extra bonus
        dice = (rng.randrange(1, 7),) * rules.dice
    else:
        dice = tuple(rng.randrange(1, 7) for _ in range(rules.dice))
    left = rng.randrange(rules.rolls_per_turn)
    return Position(rules, tuple(scores), dice, left, extra)


def check(table: StrategyTable, count: int, seed: int) -> None:
    rng = random.Random(seed)
    warm = Advisor(table)
    small = Advisor(table)
    small._engine = type(small.engine)(table, turns=4)  # its LRU turns over all the time
    greedy = Advisor(table, greedy=True)
    for n in range(count):
        pos = random_position(table.rules, rng)
        for top in (0, 3, 20):
            expected = warm.reference_hint(pos, top)
            assert warm.hint(pos, top) == expected, (pos, top)
            assert small.hint(pos, top) == expected, (pos, top)
        if n % 100 == 0:  # a new engine, cold
            assert Advisor(table).hint(pos, 20) == warm.reference_hint(pos, 20), pos
        assert greedy.hint(pos, 5) == greedy.reference_hint(pos, 5), pos
        assert warm.hint(pos)["total"] == pos.card.total


@pytest.mark.parametrize(
    "table_name", ["yahtzee_table", "plain_yahtzee_table", "yatzy_table", "generala_table"]
)
def test_fast_hints_equal_the_reference(table_name: str, request) -> None:
    check(request.getfixturevalue(table_name), 250, seed=len(table_name))


@pytest.mark.parametrize(
    "rules",
    [
        get_ruleset("yacht", {"forced_order": True}),
        reduced("maxi-yatzy", ("ones", "twos", "sixes", "one_pair", "maxi_yatzy", "chance"),
                threshold=12),
        reduced("yatzy", ("ones", "twos", "threes", "fours", "fives", "sixes", "chance"),
                rolls=4, threshold=20),
    ],
    ids=["yacht-forced", "six-dice", "four-rolls"],
)
def test_fast_hints_equal_the_reference_on_other_shapes(rules: Ruleset) -> None:
    check(solve(rules), 300, seed=7)


def test_the_turn_cache_is_bounded(yahtzee_table: StrategyTable) -> None:
    advisor = Advisor(yahtzee_table)
    advisor._engine = type(advisor.engine)(yahtzee_table, turns=16)
    rng = random.Random(3)
    for _ in range(200):
        advisor.hint(random_position(yahtzee_table.rules, rng))
    info = advisor.engine.turn_keeps.cache_info()
    assert info.currsize <= 16 and info.misses > 16
    assert advisor.engine.cache_bytes() == info.currsize * 2 * 210 * 8  # two levels of keeps


def test_a_call_that_fails_leaves_no_half_filled_turn(
    yahtzee_table: StrategyTable, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first query of a turn gets a new slot and fills it in its compiled call: a
    call that never ran (a signal as it starts) must not leave that slot as the turn's."""
    advisor = Advisor(yahtzee_table)
    pos = Position(yahtzee_table.rules, (None,) * 13, (1, 2, 3, 3, 5), 2)

    def interrupted(*args: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(hints, "packed_hint_rows", interrupted)
    with pytest.raises(KeyboardInterrupt):
        advisor.hint(pos)
    monkeypatch.undo()
    assert advisor.hint(pos) == advisor.reference_hint(pos)
    info = advisor.engine.turn_keeps.cache_info()
    assert (info.misses, info.currsize) == (2, 1)


def test_a_huge_top_lists_every_action_and_keeps_no_huge_buffer(
    yahtzee_table: StrategyTable,
) -> None:
    """``top`` beyond the actions a position can have (every box, every keep of the
    roll) answers them all, as the reference does, instead of allocating rows for it."""
    advisor = Advisor(yahtzee_table)
    rng = random.Random(5)
    for _ in range(20):
        pos = random_position(yahtzee_table.rules, rng)
        answer = advisor.hint(pos, 10**10)
        assert answer == advisor.reference_hint(pos, 10**10), pos
        assert len(answer["alternatives"]) < 13 + 32
    assert max(advisor.engine._rows) <= 13 + 32  # the buffers, by their number of rows


def test_compiled_rounding_is_pythons_round_or_declines() -> None:
    """round4 gives exactly round(x, 4) (the same double) or NaN, which sends the caller
    to Python's round: near ties, negative and huge values."""
    from daily.strategy.hints import round4

    rng = random.Random(5)
    values = [rng.uniform(0, 2000) for _ in range(20000)]
    values += [rng.randrange(40_000_000) / 20000 for _ in range(20000)]  # exact ties
    values += [v + d for v in values[-2000:] for d in (1e-9, -1e-9, 6e-5, -6e-5)]
    values += [0.0, 0.03125, 0.00005, 1e5 - 1e-9, 2.5e5]
    declined = 0
    for x in values:
        shown = round4(x)
        if shown != shown:
            declined += 1
            continue
        assert shown == round(x, 4), x
    assert declined < len(values) // 2
    for x in (0.03125, -1.0, 1e6, 253.00005):  # a tie, negative, huge, near a tie
        assert round4(x) != round4(x), x
