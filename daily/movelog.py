"""Move logs, format ``daily-log/1``: the JSON form and the compact text form.

A log names the ruleset and its options, the dice source (a seed or a day), and for
each turn the hold masks of its rerolls in order and the box it filled. A turn with
fewer masks stopped rolling early; a last turn without a box is still in progress.
Both forms parse and serialize symmetrically; ``docs/protocol.md`` is the spec.

>>> log = MoveLog.from_json({
...     "format": "daily-log/1", "ruleset": "yahtzee", "day": "2026-11-29",
...     "turns": [{"holds": ["11000", "11100"], "category": "full_house"}]})
>>> log.to_text()
'dl1~yahtzee~-~d2026-11-29~YcI'
>>> MoveLog.from_text(log.to_text()) == log
True
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

from daily.dice import parse_date, parse_seed_hex
from daily.errors import DailyError, LogFormatError
from daily.game import VALID_MASKS, check_mask
from daily.rules import OptionValue, Ruleset, get_ruleset

if TYPE_CHECKING:
    from daily.game import Game

LOG_FORMAT = "daily-log/1"
TEXT_PREFIX = "dl1"
#: Largest log accepted, in bytes of JSON or text.
MAX_LOG_BYTES = 64 * 1024
_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
_B64_INDEX = {c: i for i, c in enumerate(_B64)}
#: The text character of every hold mask of 1 to 6 dice (its bits as a number in _B64).
_MASK_CHAR = {format(v, f"0{n}b"): _B64[v] for n in range(1, 7) for v in range(1 << n)}
_TOP_FIELDS = {"format", "ruleset", "options", "seed", "day", "turns"}
_TURN_FIELDS = {"holds", "category"}


class Turn(NamedTuple):
    """One turn: the hold masks of its rerolls, and the box filled (``None`` if open)."""

    holds: tuple[str, ...] = ()
    box: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The JSON object of this turn.

        >>> Turn(("10100",), "chance").to_json()
        {'holds': ['10100'], 'category': 'chance'}
        """
        out: dict[str, Any] = {"holds": list(self.holds)}
        if self.box is not None:
            out["category"] = self.box
        return out


@dataclass(frozen=True)
class MoveLog:
    """A whole or partial game, as played, independent of its dice."""

    ruleset: str
    turns: tuple[Turn, ...] = ()
    options: tuple[tuple[str, OptionValue], ...] = ()
    seed: bytes | None = field(default=None, repr=False)
    day: dt.date | None = None

    def __post_init__(self) -> None:
        if (self.seed is None) == (self.day is None):
            raise LogFormatError("a log names either a seed or a day", field="seed")

    @property
    def rules(self) -> Ruleset:
        """The resolved ruleset of the log."""
        options = self.options
        if not options:
            return _rules_of(self.ruleset, ())
        if options.__class__ is tuple:  # keyed with the values' types: 1 is no True
            return _rules_of(self.ruleset, tuple((k, v, type(v)) for k, v in options))
        return get_ruleset(self.ruleset, dict(options))

    @property
    def complete(self) -> bool:
        """Every box is filled."""
        return len(self.turns) == len(self.rules.boxes) and all(
            t.box is not None for t in self.turns
        )

    # ----- JSON -----------------------------------------------------------------

    @classmethod
    def from_json(cls, data: str | bytes | Mapping[str, Any]) -> MoveLog:
        """Parse the JSON form (text, bytes or an already decoded object).

        >>> MoveLog.from_json('{"format": "daily-log/1"}')
        Traceback (most recent call last):
        ...
        daily.errors.LogFormatError: ruleset: missing field 'ruleset'
        """
        if isinstance(data, str | bytes | bytearray):
            if len(data) > MAX_LOG_BYTES:
                raise LogFormatError(f"log is larger than {MAX_LOG_BYTES} bytes", field="log")
            try:
                data = json.loads(data)
            except (ValueError, RecursionError):
                raise LogFormatError("log is not valid JSON", field="log") from None
        if not isinstance(data, Mapping):
            raise LogFormatError("a log is a JSON object", field="log")
        unknown = sorted(str(k) for k in data if k not in _TOP_FIELDS)
        if unknown:
            raise LogFormatError(f"unknown field {unknown[0]!r}", field=unknown[0])
        if data.get("format") != LOG_FORMAT:
            raise LogFormatError(
                f"format is {data.get('format')!r}, expected {LOG_FORMAT!r}", field="format"
            )
        if "ruleset" not in data:
            raise LogFormatError("missing field 'ruleset'", field="ruleset")
        rules = get_ruleset(data["ruleset"], data.get("options") or {})
        if "options" in data and not isinstance(data["options"], Mapping):
            raise LogFormatError("options is an object", field="options")
        seed, day = _source(data.get("seed"), data.get("day"))
        raw_turns = data.get("turns")
        if not isinstance(raw_turns, list):
            raise LogFormatError("missing list 'turns'", field="turns")
        return cls._build(rules, raw_turns, _turn_from_json, seed, day)

    def to_json(self) -> dict[str, Any]:
        """The canonical JSON object of the log.

        >>> MoveLog("yatzy", day=dt.date(2026, 1, 2)).to_json()["day"]
        '2026-01-02'
        """
        out: dict[str, Any] = {"format": LOG_FORMAT, "ruleset": self.ruleset}
        out["options"] = dict(self.options)
        if self.seed is not None:
            out["seed"] = self.seed.hex()
        if self.day is not None:
            out["day"] = self.day.isoformat()
        out["turns"] = [t.to_json() for t in self.turns]
        return out

    def dumps(self) -> str:
        """The canonical JSON text (compact, keys in a fixed order)."""
        return json.dumps(self.to_json(), separators=(",", ":"))

    # ----- compact text ------------------------------------------------------------

    def to_text(self) -> str:
        """The compact text form: ``dl1~ruleset~options~source~turns``.

        >>> MoveLog("yacht", (Turn((), "yacht"),), seed=bytes(32)).to_text().split("~")[-1]
        'L'
        """
        opts = ",".join(f"{k}={_text_value(v)}" for k, v in self.options) or "-"
        source = f"s{self.seed.hex()}" if self.seed is not None else f"d{self.day}"
        rules = self.rules
        chars = _MASK_CHAR
        tokens = []
        for holds, box in self.turns:
            masks = "".join([chars.get(m) or _B64[int(m, 2)] for m in holds])
            tokens.append(masks + ("*" if box is None else _B64[rules.box_index(box)]))
        return "~".join((TEXT_PREFIX, self.ruleset, opts, source, ".".join(tokens)))

    @classmethod
    def from_text(cls, text: str) -> MoveLog:
        """Parse the compact text form.

        >>> MoveLog.from_text("dl1~yahtzee~-~d2026-13-01~")
        Traceback (most recent call last):
        ...
        daily.errors.DiceError: date: '2026-13-01' is not a date of the form YYYY-MM-DD
        """
        if not isinstance(text, str):
            raise LogFormatError("a text log is a string", field="log")
        if len(text) > MAX_LOG_BYTES:
            raise LogFormatError(f"log is larger than {MAX_LOG_BYTES} bytes", field="log")
        parts = text.strip().split("~")
        if len(parts) != 5 or parts[0] != TEXT_PREFIX:
            raise LogFormatError(
                f"a text log has 5 parts separated by '~' and starts with {TEXT_PREFIX!r}",
                field="log",
            )
        _, name, opts_text, source, body = parts
        options = _options_from_text(opts_text)
        rules = get_ruleset(name, options)
        if source[:1] == "s":
            seed, day = _source(source[1:], None)
        elif source[:1] == "d":
            seed, day = _source(None, source[1:])
        else:
            raise LogFormatError("the source is 's' + seed hex or 'd' + date", field="seed")
        tokens = body.split(".") if body else []
        return cls._build(rules, tokens, _turn_from_token, seed, day)

    @classmethod
    def _build(
        cls,
        rules: Ruleset,
        raw_turns: list[Any],
        parse_turn: Callable[..., Turn],
        seed: bytes | None,
        day: dt.date | None,
    ) -> MoveLog:
        """The log from raw turns of either form, each parsed by ``parse_turn``."""
        if len(raw_turns) > rules.turns:
            raise LogFormatError(
                f"{len(raw_turns)} turns, but {rules.name} has {rules.turns}", field="turns"
            )
        last = len(raw_turns) - 1
        turns = tuple(parse_turn(t, i, rules, last=i == last) for i, t in enumerate(raw_turns))
        return cls(rules.name, turns, tuple(rules.non_default_options().items()), seed, day)

    # ----- from a game --------------------------------------------------------------

    @classmethod
    def of_game(
        cls, game: Game, *, seed: bytes | None = None, day: dt.date | None = None
    ) -> MoveLog:
        """The log of a game so far (the turn in progress included).

        >>> from daily.game import Game
        >>> from daily.rules import get_ruleset
        >>> game = Game.from_seed(get_ruleset("yacht"), bytes(32))
        >>> _ = game.reroll("01110")
        >>> MoveLog.of_game(game, seed=bytes(32)).turns
        (Turn(holds=('01110',), box=None),)
        """
        turns = [Turn(rec.holds, rec.box) for rec in game.history]
        if not game.over:
            turns.append(Turn(tuple(game.holds), None))
        rules = game.rules
        return cls(rules.name, tuple(turns), rules.non_default_items, seed, day)


@lru_cache(maxsize=256)
def _rules_of(name: str, options: tuple[tuple[str, OptionValue, type], ...]) -> Ruleset:
    """:func:`get_ruleset` of a log's ruleset and options (name, value, the value's
    type), resolved once per combination.

    >>> _rules_of("yatzy", (("forced_order", True, bool),)).forced_order
    True
    """
    return get_ruleset(name, {k: v for k, v, _ in options})


def text_after(text: str, kind: str, value: str, rules: Ruleset, over: bool) -> str | None:
    """The compact text of a log one decision later, from the text before it: a reroll
    (``kind`` ``"roll"``, ``value`` its mask) or a filled box (``"score"``, the box id;
    ``over``: that ended the game), as :meth:`MoveLog.to_text` of the game would give
    it, without going over every turn again. ``None`` when ``text`` does not end with
    a turn in progress (``*``) or an empty list of turns.

    >>> text_after("dl1~yacht~-~d2026-11-29~", "roll", "01110", get_ruleset("yacht"), False)
    'dl1~yacht~-~d2026-11-29~O*'
    >>> text_after("dl1~yacht~-~d2026-11-29~O*", "score", "twos", get_ruleset("yacht"), False)
    'dl1~yacht~-~d2026-11-29~OB.*'
    """
    if text.endswith("*"):
        head = text[:-1]
    elif text.endswith("~") and text.count("~") == 4:
        head = text
    else:
        return None
    if kind == "roll":
        char = _MASK_CHAR.get(value)
        return None if char is None else f"{head}{char}*"
    return f"{head}{_B64[rules.box_index(value)]}{'' if over else '.*'}"


def parse_log(text: str | bytes) -> MoveLog:
    """Parse either form: JSON (starts with ``{``) or compact text.

    >>> parse_log("dl1~yatzy~-~d2026-11-29~").ruleset
    'yatzy'
    """
    if isinstance(text, bytes | bytearray):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            raise LogFormatError("log is not UTF-8 text", field="log") from None
    if not isinstance(text, str):
        raise LogFormatError("a log is text", field="log")
    stripped = text.lstrip()
    return MoveLog.from_json(stripped) if stripped.startswith("{") else MoveLog.from_text(text)


def _source(seed_hex: Any, day: Any) -> tuple[bytes | None, dt.date | None]:
    if (seed_hex is None) == (day is None):
        raise LogFormatError("a log names exactly one of 'seed' and 'day'", field="seed")
    if seed_hex is not None:
        if isinstance(seed_hex, str) and seed_hex != seed_hex.lower():
            raise LogFormatError("the seed is lowercase hex", field="seed")
        return parse_seed_hex(seed_hex), None
    return None, parse_date(day)


def _turn_from_json(raw: Any, index: int, rules: Ruleset, *, last: bool) -> Turn:
    if raw.__class__ is not dict and not isinstance(raw, Mapping):
        raise LogFormatError("a turn is a JSON object", turn=index)
    if not _TURN_FIELDS.issuperset(raw):
        unknown = sorted(str(k) for k in raw if k not in _TURN_FIELDS)
        raise LogFormatError(f"unknown field {unknown[0]!r}", turn=index, field=unknown[0])
    holds = raw.get("holds", ())
    if not isinstance(holds, list | tuple):
        raise LogFormatError("holds is a list of hold masks", turn=index, field="holds")
    _check_hold_count(len(holds), index, rules)
    valid = VALID_MASKS[rules.dice]
    if all(m.__class__ is str and m in valid for m in holds):
        masks = tuple(holds)
    else:
        masks = tuple(
            check_mask(m, rules.dice, turn=index, roll=r + 1) for r, m in enumerate(holds)
        )
    box = raw.get("category")
    if box is None:
        if not last:
            raise LogFormatError("missing field 'category'", turn=index, field="category")
    elif box not in rules.box_ids:
        try:
            rules.box_index(box)
        except DailyError as exc:
            raise LogFormatError(exc.message, turn=index, field="category") from None
    return Turn(masks, box)


def _turn_from_token(token: str, index: int, rules: Ruleset, *, last: bool) -> Turn:
    if not token:
        raise LogFormatError("empty turn", turn=index)
    body, end = token[:-1], token[-1]
    _check_hold_count(len(body), index, rules)
    limit = 1 << rules.dice
    masks = []
    for r, ch in enumerate(body):
        value = _B64_INDEX.get(ch)
        if value is None or value >= limit:
            raise LogFormatError(f"bad hold character {ch!r}", turn=index, roll=r + 1)
        masks.append(format(value, f"0{rules.dice}b"))
    if end == "*":
        if not last:
            raise LogFormatError("only the last turn may be in progress", turn=index)
        return Turn(tuple(masks), None)
    box_index = _B64_INDEX.get(end)
    if box_index is None or box_index >= len(rules.boxes):
        raise LogFormatError(f"bad box character {end!r}", turn=index, field="category")
    return Turn(tuple(masks), rules.boxes[box_index].id)


def _check_hold_count(count: int, index: int, rules: Ruleset) -> None:
    # Saved rolls can bank at most 2 rolls per earlier turn.
    ceiling = rules.rolls_per_turn - 1 + (2 * index if rules.saved_rolls else 0)
    if count > ceiling:
        raise LogFormatError(
            f"{count} rerolls, at most {ceiling} are possible here", turn=index, field="holds"
        )


def _text_value(value: OptionValue) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(value)


def _options_from_text(text: str) -> dict[str, OptionValue]:
    if text == "-":
        return {}
    out: dict[str, OptionValue] = {}
    for item in text.split(","):
        name, sep, raw = item.partition("=")
        if not sep or not name:
            raise LogFormatError(f"option {item!r} is not name=value", field="options")
        value: OptionValue
        if raw.isascii() and raw.isdigit() and raw not in ("0", "1"):
            value = int(raw)
        elif raw in ("0", "1"):
            value = raw == "1"
        else:
            value = raw
        out[name] = value
    return out
