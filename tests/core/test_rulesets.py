"""Looking up rulesets, aliases and rule options."""

from __future__ import annotations

import pytest

from daily.errors import RulesetError
from daily.rules import get_ruleset


def test_aliases_resolve_to_the_same_ruleset():
    assert get_ruleset("kniffel") is get_ruleset("yahtzee")
    assert get_ruleset("MAXI") is get_ruleset("maxi-yatzy")


@pytest.mark.parametrize(
    ("name", "options", "needle"),
    [
        ("poker", {}, "unknown ruleset 'poker'"),
        (None, {}, "unknown ruleset None"),
        ("yahtzee", {"saved_rolls": True}, "yahtzee has no option 'saved_rolls'"),
        ("maxi-yatzy", {"full_straight": 22}, "option 'full_straight' of maxi-yatzy is 22"),
        ("maxi-yatzy", {"saved_rolls": 1}, "option 'saved_rolls' of maxi-yatzy is 1"),
        ("yatzy", {"forced_order": "yes"}, "option 'forced_order' of yatzy is 'yes'"),
        ("yatzy", ["forced_order"], "options must be an object"),
    ],
)
def test_bad_names_and_options_say_what(name, options, needle):
    with pytest.raises(RulesetError) as err:
        get_ruleset(name, options)
    assert needle in str(err.value)


def test_maxi_editions():
    rules = get_ruleset("maxi-yatzy")
    assert (rules.upper_bonus_threshold, rules.upper_bonus) == (84, 100)
    other = get_ruleset("maxi-yatzy", {"upper_bonus": "50-at-75"})
    assert (other.upper_bonus_threshold, other.upper_bonus) == (75, 50)
    assert other.non_default_options() == {"upper_bonus": "50-at-75"}


def test_yahtzee_bonus_options():
    plain = get_ruleset("yahtzee", {"upper_bonus": False, "extra_yahtzee_bonus": False})
    assert plain.upper_bonus == 0 and plain.extra_yahtzee_bonus == 0 and plain.joker


def test_unknown_box_lists_the_boxes():
    with pytest.raises(RulesetError, match="yacht has no box 'yahtzee'; boxes: ones"):
        get_ruleset("yacht").box_index("yahtzee")
