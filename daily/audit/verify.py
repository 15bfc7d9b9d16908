"""Offline verification of a day: descriptor signature, seed commitment and dice.

Everything a player needs to check a day without trusting the server: a fetched day
descriptor (format ``day/2``, or the older ``day/1``; see ``docs/protocol.md``), the
fetched public keys and, once the day is revealed, its seed. No server, Flask or Redis
involved.

A ``day/2`` descriptor also signs ``results_key``, the id and public key of the results
key that signs the day's receipts and log heads: it is published before the day opens,
so a results key rotated later (or a key list served later) cannot vouch for that day.

The signature covers the *canonical bytes* of the signed fields only: the canonical
JSON (:func:`daily.audit.canonical.canonical_json`, the one encoder of the project) of
the object of ``version, ruleset, options, date, generator, commitment, key_id`` (keys
sorted, no spaces; every signed field is ASCII, so the bytes are ASCII).

>>> fields = {"version": "day/1", "ruleset": "yahtzee", "options": {},
...           "date": "2026-11-29", "generator": "dice/v1",
...           "commitment": "ab" * 32, "key_id": "0123456789abcdef"}
>>> canonical_bytes(fields)[-88:]
b'dice/v1","key_id":"0123456789abcdef","options":{},"ruleset":"yahtzee","version":"day/1"}'
>>> canonical_bytes({**fields, "status": "open", "seed": "x"}) == canonical_bytes(fields)
True
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from daily.audit.canonical import CanonicalError, canonical_json
from daily.dice import (
    GENERATOR,
    SlotSource,
    commitment_matches,
    parse_date,
    parse_seed_hex,
    slot_dice,
)
from daily.errors import DailyError
from daily.movelog import LOG_FORMAT, MoveLog, Turn
from daily.replay import replay
from daily.rules import get_ruleset

#: The descriptor version the service signs; ``day/1`` (no results key) still verifies.
DESCRIPTOR_VERSION = "day/2"
DESCRIPTOR_V1 = "day/1"
ALGORITHM = "Ed25519"
#: The fields covered by the signature of a ``day/1`` descriptor, in the order documented.
SIGNED_FIELDS = ("version", "ruleset", "options", "date", "generator", "commitment", "key_id")
#: ... and of a ``day/2`` one: also the day's results key.
SIGNED_FIELDS_V2 = (*SIGNED_FIELDS, "results_key")
_SIGNED = {DESCRIPTOR_V1: SIGNED_FIELDS, DESCRIPTOR_VERSION: SIGNED_FIELDS_V2}
#: Fields added when a descriptor is served; never signed.
SERVED_FIELDS = ("status", "opens_at", "closes_at", "seed", "fairplay_key", "par")
_HEX = frozenset("0123456789abcdef")


class VerificationInputError(DailyError):
    """Input that cannot be verified at all: malformed descriptor, key list, seed or game."""


class VerificationFailed(DailyError):
    """A well-formed input that fails a check (signature, commitment, dice, game)."""


def _lower_hex(value: Any, length: int, name: str) -> str:
    if not (isinstance(value, str) and len(value) == length and _HEX.issuperset(value)):
        raise VerificationInputError(f"is not {length} lowercase hex digits", field=name)
    return value


def key_id_of(public_raw: bytes) -> str:
    """A key id: the first 16 hex digits of SHA-256 of the 32-byte raw public key.

    >>> key_id_of(bytes(32))
    '66687aadf862bd77'
    """
    return hashlib.sha256(public_raw).hexdigest()[:16]


def signed_fields(version: Any) -> tuple[str, ...]:
    """The fields a descriptor of ``version`` signs.

    >>> signed_fields("day/2")[-1]
    'results_key'
    """
    fields = _SIGNED.get(version) if isinstance(version, str) else None
    if fields is None:
        raise VerificationInputError(
            f"is {version!r}, expected {DESCRIPTOR_VERSION!r} or {DESCRIPTOR_V1!r}",
            field="version")
    return fields


def canonical_bytes(descriptor: Mapping[str, Any]) -> bytes:
    """The bytes that are signed: the signed fields of its version, as canonical JSON."""
    names = signed_fields(descriptor.get("version"))
    missing = [name for name in names if name not in descriptor]
    if missing:
        raise VerificationInputError(f"missing field {missing[0]!r}", field=missing[0])
    try:
        return canonical_json({name: descriptor[name] for name in names})
    except CanonicalError as exc:
        raise VerificationInputError(exc.message, field=exc.field or "descriptor") from None


def results_key_entry(key_id: str, public_raw: bytes) -> dict[str, str]:
    """The ``results_key`` field of a ``day/2`` descriptor.

    >>> results_key_entry("66687aadf862bd77", bytes(32))["id"]
    '66687aadf862bd77'
    """
    return {"id": key_id, "public_key": public_raw.hex()}


def _parse_results_key(value: Any) -> tuple[str, Ed25519PublicKey]:
    if not isinstance(value, Mapping) or sorted(value) != ["id", "public_key"]:
        raise VerificationInputError('is not {"id": ..., "public_key": ...}',
                                     field="results_key")
    raw = bytes.fromhex(_lower_hex(value["public_key"], 64, "results_key.public_key"))
    if value["id"] != key_id_of(raw):
        raise VerificationInputError(
            f"id {value['id']!r} is not the id of its public key ({key_id_of(raw)})",
            field="results_key")
    return value["id"], Ed25519PublicKey.from_public_bytes(raw)


@dataclass(frozen=True)
class Descriptor:
    """A parsed ``day/2`` (or ``day/1``) descriptor (the served extras in ``served``)."""

    fields: Mapping[str, Any]
    signature: bytes
    served: Mapping[str, Any] = field(default_factory=dict)

    @property
    def ruleset(self) -> str:
        """Canonical ruleset name."""
        return str(self.fields["ruleset"])

    @property
    def date(self) -> str:
        """The date, ``YYYY-MM-DD``."""
        return str(self.fields["date"])

    @property
    def key_id(self) -> str:
        """Id of the key that signed it."""
        return str(self.fields["key_id"])

    @property
    def version(self) -> str:
        """``day/2`` or ``day/1``."""
        return str(self.fields["version"])

    @property
    def results_key(self) -> tuple[str, Ed25519PublicKey] | None:
        """The id and public key of the day's results key, which the descriptor signs
        (``day/2``); None for a ``day/1`` descriptor, which names none."""
        value = self.fields.get("results_key")
        return None if value is None else _parse_results_key(value)

    @property
    def seed(self) -> bytes | None:
        """The revealed seed, if the descriptor carries one."""
        raw = self.served.get("seed")
        return None if raw is None else parse_seed_hex(raw)


def parse_descriptor(obj: Any) -> Descriptor:
    """Check the shape of a descriptor (not its signature).

    >>> parse_descriptor({"version": "day/3"})
    Traceback (most recent call last):
    ...
    daily.audit.verify.VerificationInputError: version: is 'day/3', expected 'day/2' or 'day/1'
    """
    if not isinstance(obj, Mapping):
        raise VerificationInputError("a day descriptor is a JSON object", field="descriptor")
    names = signed_fields(obj.get("version"))
    unknown = sorted(str(k) for k in obj if k not in names + SERVED_FIELDS + ("signature",))
    if unknown:
        raise VerificationInputError(f"unknown field {unknown[0]!r}", field=unknown[0])
    for name in (*names, "signature"):
        if name not in obj:
            raise VerificationInputError(f"missing field {name!r}", field=name)
    if obj["generator"] != GENERATOR:
        raise VerificationInputError(
            f"is {obj['generator']!r}, this verifier knows {GENERATOR!r}", field="generator"
        )
    rules = get_ruleset(obj["ruleset"], obj["options"])
    if rules.name != obj["ruleset"] or rules.non_default_options() != obj["options"]:
        raise VerificationInputError(
            "ruleset and options are not in canonical form", field="ruleset"
        )
    if not isinstance(obj["date"], str) or parse_date(obj["date"]).isoformat() != obj["date"]:
        raise VerificationInputError("is not a date YYYY-MM-DD", field="date")
    _lower_hex(obj["commitment"], 64, "commitment")
    _lower_hex(obj["key_id"], 16, "key_id")
    if "results_key" in names:
        _parse_results_key(obj["results_key"])
    sig_hex = obj["signature"]
    if not isinstance(sig_hex, str):
        raise VerificationInputError("is not hex", field="signature")
    _lower_hex(sig_hex.lower(), 128, "signature")
    served = {k: obj[k] for k in SERVED_FIELDS if k in obj and obj[k] is not None}
    if "seed" in served:
        parse_seed_hex(served["seed"])
    if "fairplay_key" in served:  # the key of the day's fair-play parameters
        _lower_hex(served["fairplay_key"], 64, "fairplay_key")
    return Descriptor({name: obj[name] for name in names}, bytes.fromhex(sig_hex), served)


def select_descriptor(obj: Any, date: str, ruleset: str) -> Any:
    """The descriptor for (date, ruleset) out of a ``{"days": [...]}`` answer, or ``obj``.

    >>> select_descriptor({"days": [{"date": "2026-11-29", "ruleset": "yahtzee"}]},
    ...                   "2026-11-29", "yahtzee")["ruleset"]
    'yahtzee'
    """
    if isinstance(obj, Mapping) and isinstance(obj.get("days"), list):
        for item in obj["days"]:
            if isinstance(item, Mapping) and (item.get("date"), item.get("ruleset")) == (
                date,
                ruleset,
            ):
                return item
        raise VerificationInputError(
            f"the list holds no descriptor for {date} {ruleset}", field="descriptor"
        )
    return obj


#: What a published key signs: day descriptors, or results logs and their receipts.
DESCRIPTORS, RESULTS = "descriptors", "results"
PURPOSES = (DESCRIPTORS, RESULTS)


def parse_public_keys(obj: Any, purpose: str | None = None) -> dict[str, Ed25519PublicKey]:
    """Key id to public key from a ``GET /keys`` answer (or its ``keys`` list); with
    ``purpose``, only the keys of that purpose (``descriptors`` or ``results``; an entry
    without one is a ``descriptors`` key, as every key was before results were signed).

    Every id must be the hash of its key, so a list cannot relabel a key, and a key is
    trusted only for what it signs: a results key never vouches for a descriptor, nor a
    descriptor key for a results log.

    >>> parse_public_keys({"keys": [{"id": "66687aadf862bd77", "algorithm": "Ed25519",
    ...                              "public_key": "00" * 32}]})  # doctest: +ELLIPSIS
    {'66687aadf862bd77': <cryptography...Ed25519PublicKey object at ...>}
    >>> parse_public_keys({"keys": [{"id": "66687aadf862bd77", "algorithm": "Ed25519",
    ...                              "public_key": "00" * 32}]}, "results")
    {}
    """
    entries = obj.get("keys") if isinstance(obj, Mapping) else obj
    if not isinstance(entries, list):
        raise VerificationInputError('a key list is {"keys": [...]}', field="keys")
    out: dict[str, Ed25519PublicKey] = {}
    for i, entry in enumerate(entries):
        where = f"keys[{i}]"
        if not isinstance(entry, Mapping):
            raise VerificationInputError("is not an object", field=where)
        if entry.get("algorithm") != ALGORITHM:
            raise VerificationInputError(
                f"algorithm is {entry.get('algorithm')!r}, expected {ALGORITHM!r}", field=where
            )
        raw_hex = _lower_hex(entry.get("public_key"), 64, f"{where}.public_key")
        raw = bytes.fromhex(raw_hex)
        if entry.get("id") != key_id_of(raw):
            raise VerificationInputError(
                f"id {entry.get('id')!r} is not the id of its public key ({key_id_of(raw)})",
                field=where,
            )
        kind = entry.get("purpose", PURPOSES[0])
        if kind not in PURPOSES:
            raise VerificationInputError(
                f"purpose is {kind!r}, expected one of {', '.join(PURPOSES)}", field=where
            )
        if purpose is None or kind == purpose:
            out[entry["id"]] = Ed25519PublicKey.from_public_bytes(raw)
    if not entries:
        raise VerificationInputError("the key list is empty", field="keys")
    return out


def verify_signature(descriptor: Descriptor, keys: Mapping[str, Ed25519PublicKey]) -> None:
    """Raise :class:`VerificationFailed` unless a known key signed the descriptor."""
    public = keys.get(descriptor.key_id)
    if public is None:
        raise VerificationFailed(
            f"signed by key {descriptor.key_id}, which is not in the key list "
            "(as a descriptors key)",
            field="signature",
        )
    try:
        public.verify(descriptor.signature, canonical_bytes(descriptor.fields))
    except InvalidSignature:
        raise VerificationFailed(
            f"does not verify with key {descriptor.key_id}: the descriptor was altered",
            field="signature",
        ) from None


def verify_commitment(descriptor: Descriptor, seed: bytes) -> None:
    """Raise :class:`VerificationFailed` unless ``seed`` is the one committed to."""
    if not commitment_matches(seed, descriptor.fields["commitment"]):
        raise VerificationFailed(
            "the seed's SHA-256 is not the descriptor's commitment", field="commitment"
        )


def day_dice(ruleset: str, options: Mapping[str, Any], seed: bytes) -> list[list[tuple[int, ...]]]:
    """Every slot of a day: ``[turn][roll]`` dice for the ruleset's normal rolls.

    >>> table = day_dice("yahtzee", {}, bytes(32))
    >>> len(table), len(table[0]), table[0][0]
    (13, 3, (5, 2, 2, 2, 3))
    """
    rules = get_ruleset(ruleset, options)
    return [
        [slot_dice(seed, t, r, rules.dice) for r in range(rules.rolls_per_turn)]
        for t in range(rules.turns)
    ]


@dataclass(frozen=True)
class GameCheck:
    """What checking a game against the day's dice found."""

    turns: int
    rolls: int
    total: int


def _game_turns(game: Mapping[str, Any]) -> tuple[list[Any], bool]:
    for name in ("history", "turns"):
        value = game.get(name)
        if isinstance(value, list):
            return value, name == "history"
    raise VerificationInputError(
        "a game is a daily-log/1 log, or has a 'history' or 'turns' list", field="game"
    )


def verify_game(
    descriptor: Descriptor, seed: bytes, game: Any, *, slots: SlotSource | None = None
) -> GameCheck:
    """Replay ``game`` on the day's dice and compare every roll and score it claims.

    ``game`` is a ``daily-log/1`` move log (parsed, or its JSON), a game state or result
    (``history`` with ``rolls``, ``holds`` and ``box``) or a ``daily-result/1``
    (``turns``). ``slots`` are the day's dice already cached (many games of one day).
    """
    if isinstance(game, MoveLog):
        game_day = None if game.day is None else game.day.isoformat()
        names = {"ruleset": game.ruleset, "date": game_day}
    elif isinstance(game, Mapping):
        names = {"ruleset": game.get("ruleset"), "date": game.get("date", game.get("day"))}
    else:
        raise VerificationInputError("a game is a JSON object", field="game")
    for name, expected in (("ruleset", descriptor.ruleset), ("date", descriptor.date)):
        value = names[name]
        if value is not None and value != expected:
            raise VerificationFailed(
                f"the game is for {value!r}, the descriptor for {expected!r}", field=name
            )
    rules = get_ruleset(descriptor.ruleset, descriptor.fields["options"])
    if isinstance(game, MoveLog) or game.get("format") == LOG_FORMAT:
        log = game if isinstance(game, MoveLog) else MoveLog.from_json(game)
        if log.rules != rules:
            raise VerificationFailed("the log's rule options differ from the day's", field="game")
        if log.seed is not None and log.seed != seed:
            raise VerificationFailed("the log names another seed than the day's", field="seed")
        claimed: list[Any] = []
    else:
        raw_turns, _ = _game_turns(game)
        claimed = raw_turns
        turns = []
        for i, raw in enumerate(raw_turns):
            if not isinstance(raw, Mapping) or not isinstance(raw.get("holds"), list):
                raise VerificationInputError("a turn has a 'holds' list", field="game", turn=i)
            box = raw.get("box")
            if box is None and i < len(raw_turns) - 1:
                raise VerificationInputError("only the last turn may lack a box", turn=i)
            turns.append(Turn(tuple(raw["holds"]), box))
        log = MoveLog(rules.name, tuple(turns), tuple(rules.non_default_options().items()), seed)
    try:
        result = replay(log, seed, slots=slots)
    except DailyError as exc:
        raise VerificationFailed(
            f"the game does not replay on the day's dice: {exc.message}",
            turn=exc.turn,
            roll=exc.roll,
            field=exc.field,
        ) from None
    rolls = 0
    for t, (raw, rec) in enumerate(zip(claimed, result.history, strict=False)):
        shown = raw.get("rolls")
        if shown is None:
            continue
        if not isinstance(shown, list) or len(shown) != len(rec.rolls):
            raise VerificationFailed(
                f"claims {len(shown) if isinstance(shown, list) else shown!r} rolls, "
                f"the log makes {len(rec.rolls)}",
                turn=t,
            )
        for r, (dice_shown, dice_true) in enumerate(zip(shown, rec.rolls, strict=True)):
            if not isinstance(dice_shown, list) or tuple(dice_shown) != dice_true:
                raise VerificationFailed(
                    f"shows dice {dice_shown}, the day's dice are {list(dice_true)}",
                    turn=t,
                    roll=r,
                )
            rolls += 1
        if "points" in raw and raw["points"] != rec.points:
            raise VerificationFailed(
                f"claims {raw['points']!r} points for {rec.box}, the replay gives {rec.points}",
                turn=t,
            )
    if len(claimed) > len(result.history) and claimed[len(result.history)].get("box"):
        raise VerificationFailed("claims more scored turns than the replay", field="game")
    total = None if isinstance(game, MoveLog) else game.get("total")
    if total is not None and total != result.total:
        raise VerificationFailed(
            f"claims a total of {total!r}, the replay gives {result.total}",
            field="total",
        )
    if rolls == 0:
        rolls = sum(len(rec.rolls) for rec in result.history)
    return GameCheck(len(result.history), rolls, result.total)


@dataclass
class DayReport:
    """What :func:`verify_day` checked, line by line; ``complete`` once the seed was known."""

    lines: list[str] = field(default_factory=list)
    complete: bool = False
    dice: list[list[tuple[int, ...]]] = field(default_factory=list)
    descriptor: Descriptor | None = None
    seed: bytes | None = None
    keys: Mapping[str, Ed25519PublicKey] = field(default_factory=dict)
    #: The keys a results log, its heads and receipts are checked with: the results key
    #: the ``day/2`` descriptor names (alone), or the key list's ``results`` keys (day/1).
    results_keys: Mapping[str, Ed25519PublicKey] = field(default_factory=dict)
    #: Whether ``results_keys`` is the one key the signed descriptor names.
    anchored: bool = False


def verify_day(
    descriptor_obj: Any,
    keys_obj: Any,
    *,
    date: str | None = None,
    ruleset: str | None = None,
    seed: bytes | None = None,
    game: Any = None,
) -> DayReport:
    """Verify a fetched descriptor: signature, then commitment and dice if a seed is known.

    Raises :class:`VerificationInputError` for malformed input and
    :class:`VerificationFailed` at the first failed check.
    """
    report = DayReport()
    if date is not None:
        date = parse_date(date).isoformat()
    if date is not None and ruleset is not None:
        descriptor_obj = select_descriptor(descriptor_obj, date, ruleset)
    descriptor = parse_descriptor(descriptor_obj)
    keys = parse_public_keys(keys_obj, DESCRIPTORS)
    report.descriptor, report.keys = descriptor, keys
    report.results_keys = parse_public_keys(keys_obj, RESULTS)
    anchor = descriptor.results_key
    wanted = (date or descriptor.date, ruleset or descriptor.ruleset)
    if (descriptor.date, descriptor.ruleset) != wanted:
        raise VerificationFailed(
            f"the descriptor is for {descriptor.date} {descriptor.ruleset}, "
            f"not {wanted[0]} {wanted[1]}",
            field="descriptor",
        )
    report.lines.append(
        f"descriptor: {descriptor.version} {descriptor.ruleset} {descriptor.date}, "
        f"generator {descriptor.fields['generator']}, "
        f"options {json.dumps(descriptor.fields['options'])}"
    )
    verify_signature(descriptor, keys)
    report.lines.append(f"signature: ok (Ed25519, key {descriptor.key_id})")
    if anchor is not None:
        report.results_keys, report.anchored = {anchor[0]: anchor[1]}, True
        report.lines.append(
            f"results key: {anchor[0]} (named by the signed descriptor: the day's receipts "
            "and heads must be signed by it)")
    else:
        report.lines.append(
            "results key: not named (a day/1 descriptor: any listed results key is accepted)")
    revealed = descriptor.seed
    if seed is not None and revealed is not None and seed != revealed:
        raise VerificationFailed("the given seed differs from the descriptor's seed", field="seed")
    seed = seed if seed is not None else revealed
    if seed is None:
        report.lines.append(
            "seed: not revealed yet; commitment and dice not checked "
            f"(commitment {descriptor.fields['commitment']})"
        )
        if game is not None:
            raise VerificationInputError("checking a game needs the revealed seed", field="seed")
        return report
    verify_commitment(descriptor, seed)
    report.seed = seed
    report.lines.append("commitment: ok (SHA-256 of the seed)")
    report.dice = day_dice(descriptor.ruleset, descriptor.fields["options"], seed)
    turns, rolls = len(report.dice), len(report.dice[0])
    first = " ".join(map(str, report.dice[0][0]))
    report.lines.append(
        f"dice: {turns} turns x {rolls} rolls derived from the seed (generator "
        f"{GENERATOR}); turn 1 opens with {first}"
    )
    if game is not None:
        check = verify_game(descriptor, seed, game)
        report.lines.append(
            f"game: ok ({check.turns} turns, {check.rolls} rolls match the day's dice, "
            f"total {check.total})"
        )
    report.complete = True
    return report


def format_dice(table: Sequence[Sequence[Sequence[int]]]) -> list[str]:
    """The day's dice as lines ``turn 1: 5 2 2 2 3 | 1 4 ... | ...``.

    >>> format_dice([[(1, 2), (3, 4)]])
    ['turn 1: 1 2 | 3 4']
    """
    return [
        f"turn {t + 1}: " + " | ".join(" ".join(map(str, roll)) for roll in rolls)
        for t, rolls in enumerate(table)
    ]
