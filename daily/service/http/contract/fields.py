"""The value types of the API, each one exact: its JSON schema (a type, an enum or a
regular expression) accepts exactly what the app accepts.

Patterns use literal characters and ASCII classes only (no ``\\d``, ``\\s`` or ``\\p``), so
Python's ``re``, pydantic's Rust engine and ECMA-262 (JSON Schema) agree on them.

>>> import re
>>> [bool(re.fullmatch(NAME_PATTERN, name)) for name in ("  Ada Lovelace ", "A\\u202eda")]
[True, False]
>>> trim_name("\\u3000Ada ")
'Ada'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field
from pydantic_core import PydanticCustomError

from daily.calendar import DATE_PATTERN
from daily.rules import RULESET_NAMES, get_variant
from daily.rules.variants import VARIANTS

#: Longest display name, after trimming.
NAME_MAX = 24
#: Longest name as sent, spaces around it included.
NAME_MAX_SENT = 64
#: Control (Cc) and format (Cf) characters of Unicode 14 (bidi overrides, zero-width
#: characters, ...): never in a name. ``tests/service/test_contract_fields.py`` checks the
#: table against :mod:`unicodedata`.
FORBIDDEN_IN_NAMES = (
    (0x0, 0x1F), (0x7F, 0x9F), (0xAD, 0xAD), (0x600, 0x605), (0x61C, 0x61C),
    (0x6DD, 0x6DD), (0x70F, 0x70F), (0x890, 0x891), (0x8E2, 0x8E2), (0x180E, 0x180E),
    (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x2064), (0x2066, 0x206F),
    (0xFEFF, 0xFEFF), (0xFFF9, 0xFFFB), (0x110BD, 0x110BD), (0x110CD, 0x110CD),
    (0x13430, 0x13438), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0001, 0xE0001),
    (0xE0020, 0xE007F),
)
#: The spaces trimmed around a name (``str.isspace`` characters that are not controls).
NAME_SPACES = " \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009" \
    "\u200a\u2028\u2029\u202f\u205f\u3000"


def _char_class(ranges: tuple[tuple[int, int], ...], extra: str = "") -> str:
    parts = [chr(a) if a == b else f"{chr(a)}-{chr(b)}" for a, b in ranges]
    return "".join(parts) + extra


_BAD = _char_class(FORBIDDEN_IN_NAMES)
_SPACE = NAME_SPACES


def name_pattern(longest: int) -> str:
    """The pattern of every name people choose and others read (a player's, a
    group's): spaces, then 1 to ``longest`` characters that start and end with a
    non-space and hold no control or format character (bidi overrides, zero-width
    characters), then spaces. The one validator of names.

    >>> import re
    >>> bool(re.fullmatch(name_pattern(40), " Friday club ")), re.fullmatch(
    ...     name_pattern(40), "club\u200b")
    (True, None)
    """
    return (
        f"^[{_SPACE}]*[^{_SPACE}{_BAD}](?:[^{_BAD}]{{0,{longest - 2}}}[^{_SPACE}{_BAD}])?"
        f"[{_SPACE}]*$"
    )


#: A player's name: 1 to 24 characters once trimmed (:func:`name_pattern`).
NAME_PATTERN = name_pattern(NAME_MAX)


def trim_name(value: str) -> str:
    """The name as stored: the spaces around it removed."""
    return value.strip(NAME_SPACES)


#: A display name as sent (trimmed by :func:`trim_name` before it is stored).
Name = Annotated[
    str,
    Field(
        pattern=NAME_PATTERN, max_length=NAME_MAX_SENT, examples=["Ada"],
        description=f"1 to {NAME_MAX} characters once the spaces around it are trimmed; "
        "no control or format characters",
    ),
]

#: A calendar date the service supports (2000-01-01 to 2999-12-31).
Date = Annotated[
    str,
    Field(pattern=DATE_PATTERN, examples=["2026-11-29"],
          description="YYYY-MM-DD, from 2000-01-01 to 2999-12-31"),
]


def runtime_literal(values: Iterable[object]) -> Any:
    """``Literal[...]`` of ``values``, built at run time: only for the models
    :func:`pydantic.create_model` makes per ruleset, which no type checker reads (every
    other field names one of the ``Literal`` aliases of this module).

    >>> runtime_literal(["easy", "hard"])
    typing.Literal['easy', 'hard']
    """
    return Literal.__getitem__(tuple(values))


def omittable(**kwargs: Any) -> Any:
    """A field that may be left out but, when present, is never ``null``: its ``None``
    default means "absent" and is not documented. Typed ``Any`` so that the field keeps
    its own type (``name: Name = omittable()``) rather than ``Name | None``.

    >>> omittable(description="0 to 20").default is None
    True
    """
    return Field(default=None, **kwargs)


#: Every spelling of a ruleset the API takes: canonical names and aliases, lower case.
RULESET_SPELLINGS: tuple[str, ...] = tuple(
    name for variant in VARIANTS for name in (variant.name, *variant.aliases)
)
#: :data:`RULESET_SPELLINGS` as a type, written out so that mypy reads it;
#: ``tests/service/test_contract_fields.py`` checks that the two agree, in order.
RulesetSpelling = Literal[
    "yahtzee", "kniffel", "yatzy", "scandinavian-yatzy", "maxi-yatzy", "maxi", "yacht",
    "generala", "triple-yahtzee", "triple",
]
RulesetName = Annotated[
    RulesetSpelling,
    Field(description="a ruleset: its name or an alias (docs/protocol.md)"),
]
#: A computer opponent's level: :data:`daily.strategy.bots.LEVELS` as a type (checked
#: against it by ``tests/service/test_contract_fields.py``).
BotLevel = Literal["easy", "medium", "hard"]
#: Every box id of every ruleset, in card order (the ``BOX_IDS`` of
#: :mod:`daily.service.http.contract.bodies` as a type, checked against it by
#: ``tests/service/test_contract_fields.py``).
BoxId = Literal[
    "ones", "twos", "threes", "fours", "fives", "sixes", "three_of_a_kind",
    "four_of_a_kind", "full_house", "small_straight", "large_straight", "yahtzee", "chance",
    "one_pair", "two_pairs", "yatzy", "three_pairs", "five_of_a_kind", "villa", "tower",
    "full_straight", "maxi_yatzy", "choice", "yacht", "escalera", "full", "poker",
    "generala", "doble_generala",
    "1.ones", "1.twos", "1.threes", "1.fours", "1.fives", "1.sixes", "1.three_of_a_kind",
    "1.four_of_a_kind", "1.full_house", "1.small_straight", "1.large_straight", "1.yahtzee",
    "1.chance",
    "2.ones", "2.twos", "2.threes", "2.fours", "2.fives", "2.sixes", "2.three_of_a_kind",
    "2.four_of_a_kind", "2.full_house", "2.small_straight", "2.large_straight", "2.yahtzee",
    "2.chance",
    "3.ones", "3.twos", "3.threes", "3.fours", "3.fives", "3.sixes", "3.three_of_a_kind",
    "3.four_of_a_kind", "3.full_house", "3.small_straight", "3.large_straight", "3.yahtzee",
    "3.chance",
]


def ruleset_spellings(name: str) -> tuple[str, ...]:
    """The spellings of one ruleset.

    >>> ruleset_spellings("maxi-yatzy")[:2]
    ('maxi-yatzy', 'maxi')
    """
    variant = get_variant(name)
    return (variant.name, *variant.aliases)


#: Comma-separated ruleset spellings (``yahtzee,maxi-yatzy``).
_ONE_RULESET = "(?:" + "|".join(RULESET_SPELLINGS) + ")"
#: The most rulesets one request may name.
MAX_RULESET_NAMES = 8
RULESET_LIST_PATTERN = f"^{_ONE_RULESET}(?:,{_ONE_RULESET}){{0,{MAX_RULESET_NAMES - 1}}}$"
RulesetList = Annotated[
    str,
    Field(pattern=RULESET_LIST_PATTERN, examples=["yahtzee,maxi-yatzy"],
          description=f"1 to {MAX_RULESET_NAMES} rulesets, separated by commas"),
]

#: A game id as the app makes them (``g_`` and 20 base32 characters); any other
#: plausible id is simply not found.
GAME_ID_PATTERN = "^g_[0-9A-Za-z]{1,38}$"
GameId = Annotated[str, Field(pattern=GAME_ID_PATTERN, examples=["g_0123456789abcdefghjk"])]

#: A result code as people type it: ``DD-`` or ``DD`` (optional), then 1 to 12 Crockford
#: base32 characters in either case (``I``/``L`` read as 1, ``O`` as 0), dashes and
#: spaces anywhere.
RESULT_CODE_PATTERN = "^ *(?:[Dd] *[Dd])?[ -]*(?:[0-9A-TV-Za-tv-z][ -]*){1,12}$"
ResultCode = Annotated[
    str, Field(pattern=RESULT_CODE_PATTERN, max_length=40, examples=["DD-7K3M9QX2PA"])
]

def _whole_number(value: Any) -> Any:
    """A query value is text: only plain decimal digits make a whole number."""
    if isinstance(value, str):
        if not value.isascii() or not value.isdigit() or len(value) > 9:
            raise PydanticCustomError("int_parsing", "is a whole number")
        return int(value)
    return value


def _integral(value: Any) -> Any:
    """JSON Schema counts ``15.0`` as an integer; so does the API."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


#: The last metadata of a whole number in a JSON body (``true`` is not one; ``3.0`` is,
#: as in JSON Schema), after its bounds: ``Annotated[int, Field(ge=0, le=20), JSON_WHOLE]``.
JSON_WHOLE = BeforeValidator(_integral)
#: The last metadata of a whole number in a query string (ASCII digits only), after its
#: bounds: ``Annotated[int, Field(ge=1, le=1000), QUERY_WHOLE]``.
QUERY_WHOLE = BeforeValidator(_whole_number)

#: What a pattern means, for error messages (a pattern itself tells people little).
PATTERN_MEANINGS = {
    DATE_PATTERN: "is a date YYYY-MM-DD from 2000-01-01 to 2999-12-31",
    NAME_PATTERN: f"is a name of 1 to {NAME_MAX} characters (spaces around it trimmed), "
    "without control or format characters",
    RULESET_LIST_PATTERN: f"names at most {MAX_RULESET_NAMES} rulesets, separated by commas "
    "(each a ruleset's name or alias, in lower case)",
    RESULT_CODE_PATTERN: "is a result code: DD- and 1 to 12 Crockford base32 characters",
    GAME_ID_PATTERN: "is a game id (g_ and letters or digits)",
}

#: A challenge code (``CH-`` optional and 1 to 8 characters) or a result code (with
#: its ``DD-``), as ``POST /games {"challenge": ...}`` reads them.
CHALLENGE_PATTERN = (
    "^(?:[Dd][Dd]-(?:-*[0-9A-TV-Za-tv-z]){1,12}-*"
    "|(?:[Cc][Hh]-)?-*(?:[0-9A-TV-Za-tv-z]-*){1,8})$"
)
ChallengeCode = Annotated[
    str, Field(pattern=CHALLENGE_PATTERN, max_length=40, examples=["CH-K7M2-Q9XD"])
]
#: A group code: ``G-`` (optional) and 1 to 6 Crockford characters, dashes anywhere.
GROUP_CODE_PATTERN = "^(?:[Gg]-)?-*(?:[0-9A-TV-Za-tv-z]-*){1,6}$"
GroupCode = Annotated[str, Field(pattern=GROUP_CODE_PATTERN, max_length=40, examples=["G-AB12CD"])]
#: Longest group name, after trimming.
GROUP_NAME_MAX = 40
#: A group name: 1 to 40 characters once trimmed, no control or format characters, as a
#: player's name (:func:`name_pattern`).
GROUP_NAME_PATTERN = name_pattern(GROUP_NAME_MAX)
GroupName = Annotated[str, Field(pattern=GROUP_NAME_PATTERN, max_length=NAME_MAX_SENT + 16,
                                 examples=["Friday club"])]
PATTERN_MEANINGS[GROUP_CODE_PATTERN] = "is a group code (G- and 6 characters)"
PATTERN_MEANINGS[GROUP_NAME_PATTERN] = ("is a name of 1 to 40 characters (spaces around it"
                                       " trimmed), without control or format characters")
PATTERN_MEANINGS[CHALLENGE_PATTERN] = "is a challenge code (CH- and 8 characters) or a result code"
#: The error code of a value not in its pattern, where a player can meet it (a typed
#: code or name; the client says it in the player's words); other fields answer
#: ``invalid_field``.
PATTERN_CODES = {
    NAME_PATTERN: "bad_name",
    GROUP_NAME_PATTERN: "bad_group_name",
    GROUP_CODE_PATTERN: "bad_group_code",
    CHALLENGE_PATTERN: "bad_challenge_code",
    RESULT_CODE_PATTERN: "bad_result_code",
}

#: A proof-of-work challenge as ``GET /players/challenge`` hands it out: 32 hex digits.
POW_CHALLENGE_PATTERN = "^[0-9a-f]{32}$"
PowChallengeToken = Annotated[
    str, Field(pattern=POW_CHALLENGE_PATTERN, examples=["3f9c0a7de2b14c6f8a5e0d1b2c3a4f56"],
               description="the challenge of GET /players/challenge, as it was handed out"),
]
#: A proof-of-work nonce: 1 to 32 ASCII letters or digits (the web client counts up).
POW_NONCE_PATTERN = "^[0-9A-Za-z]{1,32}$"
PowNonce = Annotated[
    str, Field(pattern=POW_NONCE_PATTERN, examples=["48213"],
               description="SHA-256 of 'challenge:nonce' starts with the asked zero bits"),
]
PATTERN_MEANINGS[POW_CHALLENGE_PATTERN] = "is a challenge of GET /players/challenge (32 hex digits)"
PATTERN_MEANINGS[POW_NONCE_PATTERN] = "is 1 to 32 ASCII letters or digits"

__all__ = [
    "RULESET_NAMES",
    "BotLevel",
    "BoxId",
    "Date",
    "GameId",
    "Name",
    "ResultCode",
    "RulesetList",
    "RulesetName",
    "RulesetSpelling",
]
