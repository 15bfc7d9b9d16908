"""The rulesets of the Yahtzee family, looked up by name or alias.

>>> rules = get_ruleset("maxi-yatzy", {"upper_bonus": "50-at-75"})
>>> rules.dice, rules.upper_bonus_threshold, rules.upper_bonus
(6, 75, 50)
>>> sorted(RULESET_NAMES)
['generala', 'maxi-yatzy', 'triple-yahtzee', 'yacht', 'yahtzee', 'yatzy']
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from daily.errors import RulesetError
from daily.rules.ruleset import Box, OptionSpec, OptionValue, Ruleset
from daily.rules.variants import VARIANTS, Variant

__all__ = [
    "RULESET_NAMES",
    "Box",
    "OptionSpec",
    "OptionValue",
    "Ruleset",
    "Variant",
    "canonical_name",
    "get_ruleset",
    "get_variant",
]

_BY_NAME: dict[str, Variant] = {}
for _v in VARIANTS:
    for _n in (_v.name, *_v.aliases):
        _BY_NAME[_n] = _v

#: Canonical ruleset names.
RULESET_NAMES: tuple[str, ...] = tuple(v.name for v in VARIANTS)


def get_variant(name: Any) -> Variant:
    """The variant called ``name`` (case-insensitive; aliases allowed).

    >>> get_variant("Kniffel").name
    'yahtzee'
    """
    if not isinstance(name, str) or name.lower() not in _BY_NAME:
        known = ", ".join(sorted(_BY_NAME))
        raise RulesetError(f"unknown ruleset {name!r}; known: {known}", field="ruleset")
    return _BY_NAME[name.lower()]


def canonical_name(name: Any) -> str:
    """The canonical name of a ruleset or alias.

    >>> canonical_name("maxi")
    'maxi-yatzy'
    """
    return get_variant(name).name


def get_ruleset(name: Any, options: Mapping[str, Any] | None = None) -> Ruleset:
    """Build (or fetch from cache) the ruleset ``name`` with ``options`` applied.

    Unknown options and disallowed values raise :class:`RulesetError`.

    >>> get_ruleset("yahtzee", {"joker": False}).joker
    False
    """
    variant = get_variant(name)
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        raise RulesetError("options must be an object", field="options")
    specs = {s.name: s for s in variant.options}
    resolved: dict[str, OptionValue] = {s.name: s.default for s in variant.options}
    for key, value in options.items():
        if key not in specs:
            allowed = ", ".join(specs)
            raise RulesetError(
                f"{variant.name} has no option {key!r}; options: {allowed}",
                field=f"options.{key}" if isinstance(key, str) else "options",
            )
        resolved[key] = specs[key].check(value, variant.name)
    return _build(variant.name, tuple(sorted(resolved.items())))


@lru_cache(maxsize=64)
def _build(name: str, options: tuple[tuple[str, OptionValue], ...]) -> Ruleset:
    variant = _BY_NAME[name]
    return variant.build(dict(options), variant.options)
