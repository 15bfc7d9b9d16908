"""The value types of the API contract agree with the rules they state."""

from __future__ import annotations

import re
import unicodedata

from daily.service.contract.fields import (
    FORBIDDEN_IN_NAMES,
    NAME_PATTERN,
    RESULT_CODE_PATTERN,
    trim_name,
)


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
    from daily.service.codes import new_code, parse_code

    for _ in range(50):
        code = new_code()
        assert re.fullmatch(RESULT_CODE_PATTERN, code) and parse_code(code) == code
