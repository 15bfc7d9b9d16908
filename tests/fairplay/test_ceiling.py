"""The day's ceiling: checked against an independent brute force on small games, and
against real play on full ones."""

from __future__ import annotations

import itertools
from functools import cache

import numpy as np
import pytest

from daily.card import Card
from daily.dice import SlotCache
from daily.errors import LogFormatError
from daily.fairplay.ceiling import ceiling_of_seed, solve_ceiling
from daily.game import Game
from daily.replay import replay
from daily.rules import Ruleset, get_ruleset
from daily.rules.placement import placements
from daily.rules.variants import UPPER_IDS
from daily.strategy.bots import Bot
from daily.strategy.simulate import random_slots, slot_matrix
from daily.strategy.solver import StrategyTable
from tests.strategy.conftest import reduced

SMALL = {
    "yahtzee-joker": reduced(
        "yahtzee", (*UPPER_IDS, "full_house", "yahtzee"), dice=1, rolls=2, threshold=8
    ),
    "yahtzee-extra-bonus-no-joker": reduced(
        "yahtzee", ("twos", "threes", "full_house", "yahtzee", "chance"), dice=2, threshold=8,
        options={"joker": False},
    ),
    "yahtzee-forced": reduced(
        "yahtzee", ("ones", "threes", "yahtzee", "chance"), dice=2, threshold=4,
        options={"forced_order": True},
    ),
    "yatzy": reduced("yatzy", ("ones", "sixes", "one_pair", "yatzy"), dice=3, threshold=9),
    # Generala: served points on the first roll, doble_generala after a scored generala
    "generala": reduced(
        "generala", ("ones", "sixes", "full", "poker", "generala", "doble_generala"), dice=3,
    ),
    "generala-40-50": reduced(
        "generala", ("twos", "escalera", "generala", "doble_generala"), dice=2,
        options={"generala_points": "40-50"},
    ),
}


def brute_force(rules: Ruleset, slots: np.ndarray) -> int:
    """Best final score over every reachable end of every turn, with the Python rules
    (the first roll kept whole scores as served, where the rules have served points)."""
    n, rolls = rules.dice, rules.rolls_per_turn

    def ends(t: int) -> set[tuple[int, ...]]:
        out = set()
        for choice in itertools.product(range(rolls), repeat=n):
            out.add(tuple(int(slots[t, c, i]) for i, c in enumerate(choice)))
        return out

    @cache
    def best(turn: int, scores: tuple[int | None, ...], extra: int) -> int:
        if turn == rules.turns:
            return Card(rules, scores, extra).total
        top = -1
        first = tuple(int(x) for x in slots[turn, 0])
        candidates = [(dice, False) for dice in ends(turn)]
        if rules.served:
            candidates.append((first, True))
        for dice, served in candidates:
            options = placements(rules, scores, dice, first_roll=served)
            for p in options.legal():
                nxt = list(scores)
                nxt[p.index] = p.points
                top = max(top, best(turn + 1, tuple(nxt), extra + options.bonus))
        return top

    return best(0, (None,) * len(rules.boxes), 0)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SMALL))
def test_ceiling_matches_brute_force_on_small_games(name: str) -> None:
    rules = SMALL[name]
    all_slots = random_slots(rules, 12, seed=len(name))
    # make all-alike rolls common so the joker and the extra bonus are exercised
    all_slots[::2, :, 0, :] = all_slots[::2, :, 0, :1]
    for slots in all_slots:
        assert solve_ceiling(rules, slots).value == brute_force(rules, slots)


def test_perfect_log_replays_to_the_ceiling_and_beats_every_bot(
    yahtzee_table: StrategyTable,
) -> None:
    rules = yahtzee_table.rules
    for k in range(4):
        seed = bytes([k + 1]) * 32
        ceiling = ceiling_of_seed(rules, seed)
        assert replay(ceiling.perfect_log(seed=seed)).total == ceiling.value
        for level in ("easy", "medium", "hard"):
            game = Bot(yahtzee_table, level, seed=k).play(Game.from_seed(rules, seed))
            assert game.card.total <= ceiling.value


def test_ceiling_of_other_rulesets_replays() -> None:
    for rules in (get_ruleset("yatzy"), get_ruleset("yacht", {"forced_order": True}),
                  get_ruleset("generala"), get_ruleset("generala", {"double_generala": False})):
        ceiling = ceiling_of_seed(rules, bytes(32))
        assert replay(ceiling.perfect_log(seed=bytes(32))).total == ceiling.value


def test_wrong_slot_shape_is_refused() -> None:
    rules = get_ruleset("yacht")
    slots = slot_matrix(rules, SlotCache(bytes(32), 5))
    with pytest.raises(LogFormatError, match="shape"):
        solve_ceiling(rules, slots[:3])


def test_saved_rolls_are_refused() -> None:
    from daily.strategy.spec import StrategyError

    with pytest.raises(StrategyError, match="saved rolls"):
        ceiling_of_seed(get_ruleset("maxi-yatzy", {"saved_rolls": True}), bytes(32))
