"""The compiled placement rule (:mod:`daily.strategy.placing`) against the reference,
:func:`daily.rules.placement.placements`, for every ruleset the kernels play.

For each card state, roll and open box: whether the box is legal, its points and the
roll's extra bonus. A five-alike roll (where the joker rule and the extra bonus apply) is
compared on every box mask (a sample of 4,096 for Maxi Yatzy's million) and both flags; any
other roll depends on the card only through which boxes are open, which is first (forced
order) and the flag (doble_generala), so it is compared on every mask with one box filled,
every mask with one box open, every forced-order prefix and the empty card.
"""

from __future__ import annotations

import numpy as np
import pytest

from daily.rules import Ruleset, get_ruleset
from daily.rules.placement import placements
from daily.strategy.placing import placement_grid
from daily.strategy.spec import P_NY, GameSpec, counts_to_dice

#: Rulesets and options whose placement differs (joker, bonus, order, served points).
CASES = {
    "yahtzee": {},
    "yahtzee-no-joker": {"joker": False, "extra_yahtzee_bonus": False},
    "yahtzee-joker-no-bonus": {"extra_yahtzee_bonus": False},
    "yahtzee-forced": {"forced_order": True},
    "yatzy": {},
    "yatzy-forced": {"forced_order": True},
    "yacht": {},
    "generala": {},
    "maxi-yatzy": {},
}
SAMPLED = 4096


def _rules(key: str) -> Ruleset:
    name = "maxi-yatzy" if key == "maxi-yatzy" else key.split("-")[0]
    return get_ruleset(name, CASES[key])


def _card(rules: Ruleset, mask: int, flag: int) -> list[int | None]:
    """A card with the boxes of ``mask`` filled (0), the yahtzee box holding points when
    ``flag`` is set."""
    scores: list[int | None] = [0 if mask >> i & 1 else None for i in range(len(rules.boxes))]
    yi = rules.yahtzee_index
    if yi is not None and scores[yi] is not None and flag:
        scores[yi] = 50
    return scores


def _other_masks(nb: int) -> set[int]:
    full = (1 << nb) - 1
    masks = {0} | {(1 << k) - 1 for k in range(nb)}
    masks |= {1 << b for b in range(nb)} | {full ^ (1 << b) for b in range(nb)}
    return masks


def _alike_masks(nb: int) -> list[int]:
    full = (1 << nb) - 1
    if nb <= 15:
        return list(range(full))
    rng = np.random.default_rng(36)
    return sorted({int(m) for m in rng.integers(0, full, SAMPLED)} | _other_masks(nb) - {full})


def _compare(rules: Ruleset, spec: GameSpec, mask: int, flag: int, rolls: list[int],
             served: bool) -> None:
    raw = spec.raw_served if served else spec.raw
    ok, pts, bonus = placement_grid(mask, flag, spec.params, raw, spec.alike, spec.upper_face,
                                    spec.joker_points)
    scores = _card(rules, mask, flag)
    for r in rolls:
        dice = counts_to_dice(spec.keeps[spec.roll0 + r])
        turn = placements(rules, scores, dice, first_roll=served)
        where = (mask, flag, dice, served)
        assert bonus[r] == turn.bonus, where
        assert not ok[r][[s is not None for s in scores]].any(), where
        for p in turn.options:
            assert (bool(ok[r, p.index]), int(pts[r, p.index])) == (p.legal, p.points), (
                where, p.box)


#: The cases with 2^15 masks or more, many seconds each.
LARGE = {"yatzy", "yatzy-forced", "maxi-yatzy"}


@pytest.mark.parametrize(
    "key", [pytest.param(k, marks=pytest.mark.slow) if k in LARGE else k for k in sorted(CASES)])
def test_the_compiled_rule_is_the_reference_rule(key: str) -> None:
    rules = _rules(key)
    spec = GameSpec.from_rules(rules)
    nb = len(rules.boxes)
    alike = [r for r in range(spec.n_rolls) if spec.alike[r] >= 0]
    others = [r for r in range(spec.n_rolls) if spec.alike[r] < 0]
    flags = range(int(spec.params[P_NY]))
    yi = rules.yahtzee_index
    servings = (False, True) if rules.served else (False,)
    for served in servings:
        for mask in _alike_masks(nb):
            for flag in flags:
                if flag and (yi is None or not mask >> yi & 1):
                    continue  # the flag is set only once the yahtzee box is filled
                _compare(rules, spec, mask, flag, alike, served)
        for mask in _other_masks(nb):
            for flag in flags:
                if not flag or (yi is not None and mask >> yi & 1):
                    _compare(rules, spec, mask, flag, others, served)


def test_a_wrong_rule_would_show() -> None:
    # the comparison can fail: a five-alike roll under the joker rule with the matching
    # upper box open is refused everywhere else (the grid says so, the reference too)
    rules = get_ruleset("yahtzee")
    spec = GameSpec.from_rules(rules)
    r = int(np.flatnonzero(spec.alike == 5)[0])  # five 6s
    mask = 1 << rules.box_index("yahtzee")
    ok, pts, bonus = placement_grid(mask, 1, spec.params, spec.raw, spec.alike,
                                    spec.upper_face, spec.joker_points)
    assert [rules.boxes[b].id for b in np.flatnonzero(ok[r])] == ["sixes"]
    assert int(pts[r, rules.box_index("sixes")]) == 30 and int(bonus[r]) == 100
