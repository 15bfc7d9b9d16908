"""Request bodies and query parameters of ``/api/v1``.

Every model refuses unknown fields and takes JSON types as they are (strict: ``"3"`` is
not a number, ``true`` is not ``1``). A field that may be left out may not be ``null``:
``{"name": null}`` is refused, ``{}`` is not.

>>> NewPlayer.model_validate({}).model_dump(exclude_unset=True)
{}
>>> start_model({"ruleset": "yatzy", "mode": "practice"}).__name__
'PracticeYatzyStart'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, create_model
from pydantic_core import PydanticCustomError

from daily.rules import OptionSpec, Variant, get_ruleset
from daily.rules.variants import VARIANTS
from daily.service.http.contract.fields import (
    JSON_WHOLE,
    QUERY_WHOLE,
    RULESET_SPELLINGS,
    BotLevel,
    BoxId,
    ChallengeCode,
    Date,
    GroupName,
    Name,
    PowChallengeToken,
    PowNonce,
    ResultCode,
    RulesetList,
    RulesetName,
    omittable,
    ruleset_spellings,
    runtime_literal,
)
from daily.service.http.error_handlers import ApiError
from daily.strategy.bots import LEVELS


def _no_null_defaults(schema: dict[str, Any]) -> None:
    """An optional field's ``None`` default means "left out", not a JSON ``null``."""
    for prop in schema.get("properties", {}).values():
        if "default" in prop and prop["default"] is None:
            del prop["default"]


class Body(BaseModel):
    """A request body or query: unknown fields refused, JSON types taken as they are."""

    model_config = ConfigDict(extra="forbid", strict=True, json_schema_extra=_no_null_defaults)


class ProofOfWork(Body):
    """The answer to a challenge of ``GET /players/challenge`` (docs/fairplay.md)."""

    challenge: PowChallengeToken
    nonce: PowNonce


class NewPlayer(Body):
    """``POST /players``: without a name, one like ``Player 4821`` is chosen. ``pow``
    is needed when the server asks for a proof-of-work (``bits`` above 0 in ``GET
    /players/challenge``) and ignored otherwise."""

    name: Name = omittable()
    pow: ProofOfWork = omittable()


class NoBody(Body):
    """No fields: the body is empty or ``{}``."""


class Rename(Body):
    """``PATCH /players/me``."""

    name: Name


class EmptyOptions(Body):
    """A day's rules are its ruleset's defaults: no options (``{}`` is allowed)."""


def _distinct(levels: list[str]) -> list[str]:
    if len(set(levels)) != len(levels):
        raise PydanticCustomError("distinct", "names each level at most once")
    return levels


#: Computer opponents that play the same dice: distinct levels.
Opponents = Annotated[
    list[BotLevel],
    Field(max_length=len(LEVELS), json_schema_extra={"uniqueItems": True},
          description="computer opponents on the same dice, each level at most once"),
    AfterValidator(_distinct),
]


class RankedStart(Body):
    """A ranked game of an open day (``mode`` defaults to ``ranked``)."""

    ruleset: RulesetName
    date: Date
    mode: Literal["ranked"] = omittable()
    options: EmptyOptions = omittable()
    opponents: Opponents = omittable()


class ChallengeStart(Body):
    """Take a friend's challenge (its code, or a result code): the same dice."""

    challenge: ChallengeCode
    blind: bool = omittable(description="play without seeing the rival's score")
    opponents: Opponents = omittable()


class DayPracticeStart(Body):
    """Practice on the dice of a revealed day."""

    ruleset: RulesetName
    date: Date
    mode: Literal["practice"]
    options: EmptyOptions = omittable()
    opponents: Opponents = omittable()


def _title(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("-"))


def _option_field(spec: OptionSpec) -> tuple[Any, Any]:
    # A strict bool refuses 0 and 1, which a Literal[False, True] would take.
    kind = bool if all(isinstance(c, bool) for c in spec.choices) else runtime_literal(
        spec.choices
    )
    return (kind, omittable(description=spec.doc))


def _options_model(variant: Variant) -> type[Body]:
    # Any: mypy checks a **dict's values against create_model's own keywords too.
    fields: dict[str, Any] = {spec.name: _option_field(spec) for spec in variant.options}
    return create_model(
        f"{_title(variant.name)}Options", __base__=Body,
        __doc__=f"Rule options of {variant.name} (each may be left out for its default).",
        **fields,
    )


#: The rule options model of each ruleset, by canonical name.
OPTIONS_MODELS: dict[str, type[Body]] = {v.name: _options_model(v) for v in VARIANTS}


def _practice_model(variant: Variant) -> type[Body]:
    fields: dict[str, Any] = {
        "ruleset": (runtime_literal(ruleset_spellings(variant.name)), ...),
        "mode": (Literal["practice"], ...),
        "options": (OPTIONS_MODELS[variant.name], omittable()),
        "opponents": (Opponents, omittable()),
    }
    return create_model(
        f"Practice{_title(variant.name)}Start", __base__=Body,
        __doc__=f"Practice {variant.name} on fresh random dice, with any rule options.",
        **fields,
    )


def _by_spelling(build: Callable[[Variant], type[Body]]) -> dict[str, type[Body]]:
    """``build(variant)`` once per ruleset, under each spelling of its name."""
    out: dict[str, type[Body]] = {}
    for variant in VARIANTS:
        model = build(variant)
        out.update(dict.fromkeys(ruleset_spellings(variant.name), model))
    return out


#: The random-dice practice model of each ruleset spelling.
PRACTICE_STARTS = _by_spelling(_practice_model)

#: Every shape of ``POST /games`` (exactly one matches a body), for the document.
START_MODELS: tuple[type[Body], ...] = (
    RankedStart, DayPracticeStart, *dict.fromkeys(PRACTICE_STARTS.values()), ChallengeStart
)


def start_model(body: Mapping[str, Any]) -> type[Body]:
    """Which shape of ``POST /games`` a body is meant to be (then validated by it)."""
    if "challenge" in body:
        return ChallengeStart
    mode = body.get("mode", "ranked")
    if mode == "ranked":
        return RankedStart
    if mode != "practice":
        raise ApiError(422, "invalid_field", "mode is 'ranked' or 'practice'", field="mode")
    if "date" in body:
        return DayPracticeStart
    ruleset = body.get("ruleset")
    model = PRACTICE_STARTS.get(ruleset) if isinstance(ruleset, str) else None
    if model is None:
        known = ", ".join(RULESET_SPELLINGS)
        raise ApiError(
            422, "invalid_field",
            "missing field 'ruleset'" if ruleset is None else f"ruleset is one of {known}",
            field="ruleset",
        )
    return model


def _dice_counts() -> list[int]:
    return sorted({get_ruleset(v.name).dice for v in VARIANTS})


#: Every box id of every ruleset, in card order.
BOX_IDS: tuple[str, ...] = tuple(
    dict.fromkeys(box for v in VARIANTS for box in get_ruleset(v.name).box_ids)
)
#: The position a move was decided at (``daily-move/1``, ``docs/protocol.md``).
Position = Annotated[
    int, Field(ge=0, le=10_000), JSON_WHOLE,
    Field(description="the game's position the move was decided at (daily-move/1), "
          "as the state showed it"),
]
#: A hold mask: ``1`` keeps the die at that position, at least one ``0``.
HOLD_PATTERN = "^[01]*0[01]*$"


class Roll(Body):
    """``POST /games/{id}/roll``: reroll the dice not held."""

    hold: Annotated[
        str,
        Field(pattern=HOLD_PATTERN, min_length=_dice_counts()[0],
              max_length=_dice_counts()[-1], examples=["10100"],
              description="one digit per die of the game; 1 keeps it; at least one 0"),
    ]
    position: Position


class Score(Body):
    """``POST /games/{id}/score``: fill a box with the dice showing."""

    box: Annotated[BoxId, Field(description="a box of the game's card")]
    position: Position


class LogTurn(Body):
    """A turn of a ``daily-log/1`` log: its hold masks and the box it filled."""

    holds: list[Annotated[str, Field(pattern="^[01]+$", max_length=8)]] = omittable(
        max_length=16
    )
    category: Annotated[BoxId, Field()] = omittable()


class DailyLog(Body):
    """A ``daily-log/1`` log in its JSON form (``docs/protocol.md``)."""

    format: Literal["daily-log/1"]
    ruleset: RulesetName
    options: dict[str, bool | int | str] = omittable()
    seed: Annotated[str, Field(pattern="^[0-9a-f]{64}$")] = omittable()
    day: Date = omittable()
    turns: Annotated[list[LogTurn], Field(max_length=32)]


#: A log in the compact text form (``dl1~ruleset~options~source~turns``).
LOG_TEXT_PATTERN = "^dl1~[^~]*~[^~]*~[^~]*~[^~]*$"


class SubmitLog(Body):
    """``POST /games/{id}/log``: the whole game as a move log, either form."""

    log: DailyLog | Annotated[str, Field(pattern=LOG_TEXT_PATTERN, max_length=4096)]


class Hint(Body):
    """``POST /games/{id}/hint``: how many alternatives besides the best action."""

    top: Annotated[int, Field(ge=0, le=20), JSON_WHOLE] = omittable(
        description="0 to 20, default 3"
    )


class LeaderboardQuery(Body):
    """``GET /leaderboards/{date}/{ruleset}``."""

    limit: Annotated[int, Field(ge=1, le=1000), QUERY_WHOLE] = omittable(
        description="1 to 1000, default 100"
    )


class HeadQuery(Body):
    """``GET /days/{date}/{ruleset}/head``: the latest head, or the head of ``size``."""

    size: Annotated[int, Field(ge=0, le=999_999_999), QUERY_WHOLE] = omittable(
        description="the head of the log of this many leaves (default: the latest head)"
    )


class ConsistencyQuery(Body):
    """``GET /days/{date}/{ruleset}/consistency``: from an older head to a later one."""

    model_config = ConfigDict(populate_by_name=False)

    old: Annotated[int, Field(ge=0, le=999_999_999), QUERY_WHOLE] = omittable(
        alias="from", description="the size of the older head (default: the first head, "
        "signed at the close)")
    new: Annotated[int, Field(ge=0, le=999_999_999), QUERY_WHOLE] = omittable(
        alias="to", description="the size of the later head (default: the latest head)")


class DaysQuery(Body):
    """``GET /days``: a range of dates (31 at most per page) and the rulesets."""

    model_config = ConfigDict(populate_by_name=False)

    start: Date = omittable(alias="from", description="default: the last revealed date")
    to: Date = omittable(description="default: the last published date")
    ruleset: RulesetList = omittable(description="default: every daily ruleset")


class ChallengeOfResult(Body):
    """``POST /challenges``: a challenge on the dice of a finished game (its result code)."""

    code: ResultCode


def _fresh_challenge_model(variant: Variant) -> type[Body]:
    fields: dict[str, Any] = {
        "ruleset": (runtime_literal(ruleset_spellings(variant.name)), ...),
        "options": (OPTIONS_MODELS[variant.name], omittable()),
    }
    return create_model(
        f"Fresh{_title(variant.name)}Challenge", __base__=Body,
        __doc__=f"``POST /challenges``: a challenge of {variant.name} on fresh random dice.",
        **fields,
    )


FRESH_CHALLENGES = _by_spelling(_fresh_challenge_model)

#: Every shape of ``POST /challenges``.
CHALLENGE_MODELS: tuple[type[Body], ...] = (
    ChallengeOfResult, *dict.fromkeys(FRESH_CHALLENGES.values())
)


def challenge_model(body: Mapping[str, Any]) -> type[Body]:
    """Which shape of ``POST /challenges`` a body is meant to be."""
    if "code" in body or "ruleset" not in body:
        return ChallengeOfResult
    ruleset = body.get("ruleset")
    model = FRESH_CHALLENGES.get(ruleset) if isinstance(ruleset, str) else None
    if model is None:
        raise ApiError(422, "invalid_field", f"ruleset is one of {', '.join(RULESET_SPELLINGS)}",
                       field="ruleset")
    return model


class NewGroup(Body):
    """``POST /groups``: a friends' league; you are its first member."""

    name: GroupName


class GroupQuery(Body):
    """``GET /groups/{code}``: the boards of one date (default: today's sets)."""

    date: Date = omittable()
