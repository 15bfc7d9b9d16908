"""The compiled box values agree with ``placements()``, the one rules implementation.

Random values stand in for the future (so a wrong successor state shows up), and for
each sampled card state and roll the best box is recomputed from ``placements()``
and the card's own totals.
"""

from __future__ import annotations

import numpy as np
import pytest

from daily.card import Card
from daily.rules import Ruleset, get_ruleset
from daily.rules.placement import placements
from daily.strategy import kernel
from daily.strategy.spec import CardState, GameSpec, counts_to_dice

RULESETS = {
    "yahtzee": {},
    "yahtzee-no-joker": {"joker": False},
    "yahtzee-no-bonus": {"upper_bonus": False, "extra_yahtzee_bonus": False},
    "yahtzee-forced": {"forced_order": True},
    "yatzy": {},
    "yacht": {},
}


def _rules(key: str) -> Ruleset:
    return get_ruleset(key.split("-")[0], RULESETS[key])


def representative(spec: GameSpec, state: CardState) -> tuple[int | None, ...]:
    """A card in ``state``: filled boxes hold 0, the upper total sits in one upper box."""
    rules = spec.rules
    scores: list[int | None] = [None] * len(rules.boxes)
    placed = False
    for i in range(len(rules.boxes)):
        if state.mask >> i & 1:
            scores[i] = 0
            if spec.upper_face[i] and not placed:
                scores[i] = state.upper
                placed = True
    yi = rules.yahtzee_index
    if yi is not None and state.mask >> yi & 1:
        scores[yi] = 50 if state.flag else 0
    return tuple(scores)


def python_value(spec: GameSpec, W: np.ndarray, state: CardState, dice: tuple[int, ...]) -> float:
    rules = spec.rules
    scores = representative(spec, state)
    card = Card(rules, scores)
    turn = placements(rules, scores, dice)
    best = -np.inf
    for p in turn.legal():
        after = card.fill(p.index, p.points, turn.bonus)
        gain = after.total - card.total
        nxt = spec.card_state(after.scores)
        if not after.complete:
            gain += W[spec.state_index(nxt)]
        best = max(best, gain)
    return best


def sample_states(spec: GameSpec, rng: np.random.Generator, count: int) -> list[CardState]:
    nb = len(spec.rules.boxes)
    ny = int(spec.params[4])
    forced = spec.rules.forced_order
    out = []
    while len(out) < count:
        mask = int(rng.integers(0, (1 << nb) - 1))
        if forced:
            mask = (1 << int(rng.integers(0, nb))) - 1
        ups = np.flatnonzero(spec.reach[spec.upper_mask(mask)])
        upper = int(rng.choice(ups))
        yi = spec.rules.yahtzee_index
        flag = int(rng.integers(0, 2)) if ny == 2 and yi is not None and mask >> yi & 1 else 0
        out.append(CardState(mask, upper, flag))
    return out


def random_future(spec: GameSpec, seed: int) -> np.ndarray:
    """Random state values, 0 for the full card (the game is over there)."""
    W = np.random.default_rng(seed).random(spec.n_states) * 100
    full = (1 << len(spec.rules.boxes)) - 1
    W[spec.state_index(CardState(full, 0, 0)) :] = 0.0
    return W


def kernel_values(spec: GameSpec, W: np.ndarray, state: CardState) -> np.ndarray:
    nb, n = len(spec.rules.boxes), spec.rules.dice
    succ = np.empty((nb, n + 1))
    v0 = np.empty(spec.n_rolls)
    kernel.box_values(state.mask, state.upper, state.flag, W, True, spec.params, spec.raw,
                      spec.alike, spec.upper_face, spec.joker_points, succ, v0)
    return v0


@pytest.mark.slow
@pytest.mark.parametrize("key", sorted(RULESETS))
def test_every_roll_of_sampled_states(key: str) -> None:
    spec = GameSpec.from_rules(_rules(key))
    rng = np.random.default_rng(5)
    W = random_future(spec, 6)
    for state in sample_states(spec, rng, 40):
        v0 = kernel_values(spec, W, state)
        for r in range(spec.n_rolls):
            dice = counts_to_dice(spec.keeps[spec.roll0 + r])
            assert v0[r] == pytest.approx(python_value(spec, W, state, dice), abs=1e-9), (
                state, dice)


@pytest.mark.parametrize("key", ["yahtzee", "yahtzee-no-joker", "yahtzee-forced"])
def test_five_alike_on_many_cards(key: str) -> None:
    # the joker rule and the extra bonus only touch five-alike rolls: test them on many cards
    spec = GameSpec.from_rules(_rules(key))
    rng = np.random.default_rng(11)
    W = random_future(spec, 12)
    yi = spec.rules.yahtzee_index
    alike = [r for r in range(spec.n_rolls) if spec.alike[r] >= 0]
    for state in sample_states(spec, rng, 1500):
        if not spec.rules.forced_order:
            state = CardState(state.mask | 1 << yi, state.upper, int(rng.integers(0, 2)))
        v0 = kernel_values(spec, W, state)
        for r in alike:
            dice = counts_to_dice(spec.keeps[spec.roll0 + r])
            assert v0[r] == pytest.approx(python_value(spec, W, state, dice), abs=1e-9)


def test_tables_are_built_from_the_ruleset_table() -> None:
    rules = get_ruleset("maxi-yatzy")
    spec = GameSpec.from_rules(rules)
    for r in range(spec.n_rolls):
        dice = counts_to_dice(spec.keeps[spec.roll0 + r])
        assert tuple(spec.raw[r]) == rules.table[dice]
    assert spec.n_rolls == len(rules.table) == 462
