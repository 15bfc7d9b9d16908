"""The value types of the API contract agree with the rules they state."""

from __future__ import annotations

import re
import unicodedata
from typing import get_args

from daily.rules import get_ruleset
from daily.rules.variants import VARIANTS
from daily.service.http.contract import bodies
from daily.service.http.contract.fields import (
    FORBIDDEN_IN_NAMES,
    NAME_PATTERN,
    RESULT_CODE_PATTERN,
    RULESET_SPELLINGS,
    BotLevel,
    BoxId,
    RulesetSpelling,
    trim_name,
)
from daily.strategy.bots import LEVELS

#: What the rules registry holds, in its order (the order of the document's enums).
SPELLINGS = tuple(name for v in VARIANTS for name in (v.name, *v.aliases))
BOXES = tuple(dict.fromkeys(box for v in VARIANTS for box in get_ruleset(v.name).box_ids))


def test_the_forbidden_name_characters_are_exactly_unicode_controls_and_formats() -> None:
    listed = {c for a, b in FORBIDDEN_IN_NAMES for c in range(a, b + 1)}
    expected = {c for c in range(0x110000) if unicodedata.category(chr(c)) in ("Cc", "Cf")}
    assert listed == expected


def test_names_match_the_pattern_exactly_when_the_trimmed_name_is_allowed() -> None:
    samples = ["Ada", "  Ada Lovelace  ", "\u3000Ada\u00a0", "x" * 24, "x" * 25, " ", "",
               "A\u202eda", "A\x00da", "Ada\t", "\u00e9l\u00e8ve", "a b c"]
    for text in samples:
        trimmed = trim_name(text)
        allowed = 1 <= len(trimmed) <= 24 and not any(
            unicodedata.category(ch) in ("Cc", "Cf") for ch in text
        )
        assert bool(re.fullmatch(NAME_PATTERN, text)) is allowed, repr(text)


def test_result_codes_of_the_app_match_their_pattern() -> None:
    from daily.service.games.codes import new_code, parse_code

    for _ in range(50):
        code = new_code()
        assert re.fullmatch(RESULT_CODE_PATTERN, code) and parse_code(code) == code


def test_the_written_out_literals_are_exactly_the_registry_in_its_order() -> None:
    # mypy reads the Literal aliases; the app's rules are the registry: they must agree.
    # When a ruleset, alias, box or level is added, update daily/service/http/contract/fields.py.
    assert get_args(RulesetSpelling) == SPELLINGS == RULESET_SPELLINGS
    assert get_args(BoxId) == BOXES == bodies.BOX_IDS
    assert get_args(BotLevel) == LEVELS


def test_the_models_validate_and_document_the_registry_values() -> None:
    """The runtime view: what the models take and the enums they document."""
    def enum(model: type[bodies.Body], field: str) -> list[str]:
        prop = model.model_json_schema()["properties"][field]
        found: list[str] = prop.get("enum") or prop["items"]["enum"]
        return found

    assert enum(bodies.RankedStart, "ruleset") == list(SPELLINGS)
    assert enum(bodies.Score, "box") == list(BOXES)
    assert enum(bodies.RankedStart, "opponents") == list(LEVELS)
    for spelling in SPELLINGS:
        bodies.DayPracticeStart.model_validate(
            {"ruleset": spelling, "date": "2026-11-29", "mode": "practice"}
        )
    for box in BOXES:
        assert bodies.Score.model_validate({"box": box, "position": 0}).box == box
    for wrong in ("Yahtzee", "poker-dice", ""):
        assert not _valid(bodies.RankedStart, {"ruleset": wrong, "date": "2026-11-29"})
    assert not _valid(bodies.Score, {"box": "sevens", "position": 0})
    assert not _valid(bodies.RankedStart, {"ruleset": "yatzy", "date": "2026-11-29",
                                           "opponents": ["expert"]})


def test_whole_numbers_of_bodies_and_queries_keep_their_rules() -> None:
    assert bodies.Hint.model_validate({"top": 3.0}).top == 3
    assert bodies.Roll.model_validate({"hold": "10100", "position": 10_000}).position == 10_000
    assert not _valid(bodies.Hint, {"top": True})
    assert not _valid(bodies.Hint, {"top": 21})
    assert not _valid(bodies.Roll, {"hold": "10100", "position": -1})
    assert bodies.LeaderboardQuery.model_validate({"limit": "1000"}).limit == 1000
    for wrong in ("1001", "0", "\u00b2", "1e3", " 5"):
        assert not _valid(bodies.LeaderboardQuery, {"limit": wrong}), wrong


def _valid(model: type[bodies.Body], data: dict[str, object]) -> bool:
    try:
        model.model_validate(data)
    except ValueError:  # pydantic's ValidationError
        return False
    return True
