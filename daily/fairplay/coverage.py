"""Which fair-play check covers each ruleset.

Every ranked ruleset must be checked: the service refuses at start a configuration that
ranks a ruleset no check covers (:func:`daily.service.config.load_config`), naming it.

* ``foresight``: the likelihood test with the ruleset's exact strategy table and the
  day's ceiling (:mod:`daily.fairplay.foresight`, :mod:`daily.fairplay.strict`):
  Yahtzee, Yatzy, Yacht, Generala and Maxi Yatzy;
* ``turn-foresight``: Triple Yahtzee, whose 39 boxes have no exact table: the same test
  with the values of its lookahead player and hindsight within the turn
  (:mod:`daily.fairplay.columns`).

>>> check_of("generala"), check_of("triple-yahtzee"), check_of("poker")
('foresight', 'turn-foresight', None)
>>> has_ceiling("generala"), has_ceiling("triple-yahtzee")
(True, False)
>>> uncovered(("yahtzee", "generala"), ("yahtzee",))
('generala',)
"""

from __future__ import annotations

from collections.abc import Iterable

FORESIGHT = "foresight"
TURN_FORESIGHT = "turn-foresight"

#: The check of each ruleset (canonical names).
CHECKS = {
    "yahtzee": FORESIGHT,
    "yatzy": FORESIGHT,
    "yacht": FORESIGHT,
    "generala": FORESIGHT,
    "maxi-yatzy": FORESIGHT,
    "triple-yahtzee": TURN_FORESIGHT,
}


def check_of(ruleset: str) -> str | None:
    """The check that covers ``ruleset`` (a canonical name), or None."""
    return CHECKS.get(ruleset)


def has_ceiling(ruleset: str) -> bool:
    """Whether the check of ``ruleset`` uses the day's ceiling (every ruleset of at most
    24 boxes: not Triple Yahtzee, which has none)."""
    return check_of(ruleset) == FORESIGHT


def uncovered(ranked: Iterable[str], checked: Iterable[str]) -> tuple[str, ...]:
    """The ranked rulesets that no check covers: not in ``checked`` (the configured
    ones), or with no check at all."""
    wanted = set(checked)
    return tuple(r for r in ranked if r not in wanted or check_of(r) is None)
