"""Receipts and signed tree heads of the results log (Ed25519, domain-separated).

A **receipt** (``daily-receipt/v1``) is given at the finish of a ranked game: the
results key signs the ASCII message ``"daily-receipt/v1\\n" + key_id + "\\n" +
hex(accepted_digest(acc))``. It is written ``"<key_id>:<128 hex signature>"``.

A **signed head** (``daily-results-head/v1``) commits to a day's log: the results key
signs ``"daily-head/v1\\n"`` followed by the canonical JSON of every head field but
``signature``. Key ids are those of every other key of the service (the first 16 hex
digits of SHA-256 of the raw public key, :func:`daily.audit.verify.key_id_of`); signatures
are lowercase hex, as a day descriptor's.

>>> from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
>>> from daily.audit.leaf import Accepted
>>> key = Ed25519PrivateKey.from_private_bytes(bytes(32))
>>> acc = Accepted("DD-1", "p", "yacht", "2026-11-29", "dl1~", 3, "2026-11-29T10:00:00.000Z")
>>> receipt = sign_receipt(key, acc)
>>> receipt[:17], verify_receipt(key.public_key(), acc, receipt)
('139e3940e64b5491:', True)
>>> head = sign_head(key, "2026-11-29", "yacht", 0, bytes(32), "2026-11-30T12:00:00.000Z")
>>> verify_head(key.public_key(), head), SignedHead.from_json(head.to_json()) == head
(True, True)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from daily.audit.canonical import canonical_json
from daily.audit.leaf import Accepted, LeafError, accepted_digest, parse_instant
from daily.audit.verify import key_id_of
from daily.errors import DailyError

HEAD_VERSION = "daily-results-head/v1"
RECEIPT_DOMAIN = b"daily-receipt/v1\n"
HEAD_DOMAIN = b"daily-head/v1\n"
_RECEIPT = re.compile(r"([0-9a-f]{16}):([0-9a-f]{128})")
_HEX64 = re.compile(r"[0-9a-f]{64}")
_HEX128 = re.compile(r"[0-9a-f]{128}")
_KEY_ID = re.compile(r"[0-9a-f]{16}")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_HEAD_FIELDS = ("version", "date", "ruleset", "size", "root", "time", "key_id", "signature")
_ids: dict[int, tuple[Any, str]] = {}


class HeadError(DailyError):
    """A signed head or receipt that is malformed; ``field`` names the part."""


def public_key_id(key: Ed25519PrivateKey | Ed25519PublicKey) -> str:
    """The key id of a key (of its public half), as listed at ``GET /api/v1/keys``.

    >>> public_key_id(Ed25519PrivateKey.from_private_bytes(bytes(32)))
    '139e3940e64b5491'
    """
    cached = _ids.get(id(key))
    if cached is not None and cached[0] is key:
        return cached[1]
    public = key.public_key() if isinstance(key, Ed25519PrivateKey) else key
    found = key_id_of(public.public_bytes(serialization.Encoding.Raw,
                                          serialization.PublicFormat.Raw))
    if len(_ids) > 64:
        _ids.clear()
    _ids[id(key)] = (key, found)
    return found


def receipt_message(acc: Accepted, key_id: str) -> bytes:
    """The bytes a receipt signs (for a signer that is not an ``Ed25519PrivateKey``).

    >>> acc = Accepted("DD-1", "p", "yacht", "2026-11-29", "dl1~", 3, "x")
    >>> receipt_message(acc, "0123456789abcdef")[:34]
    b'daily-receipt/v1\\n0123456789abcdef\\n'
    """
    return RECEIPT_DOMAIN + key_id.encode("ascii") + b"\n" + accepted_digest(acc).hex().encode()


def sign_receipt(private_key: Ed25519PrivateKey, acc: Accepted) -> str:
    """The receipt of ``acc``: ``"<key_id>:<signature hex>"``."""
    key_id = public_key_id(private_key)
    return f"{key_id}:{private_key.sign(receipt_message(acc, key_id)).hex()}"


def receipt_key_id(receipt: Any) -> str:
    """The id of the key that made ``receipt`` (raises :class:`HeadError` if malformed).

    >>> receipt_key_id("nope")
    Traceback (most recent call last):
    ...
    daily.audit.signing.HeadError: receipt: is not <16 hex key id>:<128 hex signature>
    """
    match = _RECEIPT.fullmatch(receipt) if isinstance(receipt, str) else None
    if match is None:
        raise HeadError("is not <16 hex key id>:<128 hex signature>", field="receipt")
    return match.group(1)


def verify_receipt(public_key: Ed25519PublicKey, acc: Accepted, sig: str) -> bool:
    """True if ``sig`` is a receipt of ``acc`` made by ``public_key`` (False if malformed)."""
    match = _RECEIPT.fullmatch(sig) if isinstance(sig, str) else None
    if match is None or match.group(1) != public_key_id(public_key):
        return False
    try:
        public_key.verify(bytes.fromhex(match.group(2)), receipt_message(acc, match.group(1)))
    except InvalidSignature:
        return False
    return True


@dataclass(frozen=True)
class SignedHead:
    """A signed tree head: the day, the ruleset, the number of leaves and their root.

    ``root`` is 64 lowercase hex; ``time`` RFC 3339 UTC with milliseconds; ``signature``
    128 lowercase hex by the key ``key_id``.
    """

    date: str
    ruleset: str
    size: int
    root: str
    time: str
    key_id: str
    signature: str
    version: str = HEAD_VERSION

    @property
    def root_bytes(self) -> bytes:
        """The root as 32 bytes."""
        return bytes.fromhex(self.root)

    def signed_fields(self) -> dict[str, Any]:
        """Every field but the signature: what :func:`head_message` serializes."""
        return {name: getattr(self, name) for name in _HEAD_FIELDS if name != "signature"}

    def to_json(self) -> dict[str, Any]:
        """The JSON object of the head (what ``GET .../head`` answers)."""
        return {name: getattr(self, name) for name in _HEAD_FIELDS}

    @classmethod
    def from_json(cls, obj: Any) -> SignedHead:
        """Parse and check a head; :class:`HeadError` names the field at fault.

        >>> SignedHead.from_json({"version": "daily-results-head/v1"})
        Traceback (most recent call last):
        ...
        daily.audit.signing.HeadError: date: is missing
        """
        if not isinstance(obj, Mapping):
            raise HeadError("is not a JSON object")
        if obj.get("version") != HEAD_VERSION:
            raise HeadError(f"is {obj.get('version')!r}, expected {HEAD_VERSION!r}",
                            field="version")
        for name in _HEAD_FIELDS:
            if name not in obj:
                raise HeadError("is missing", field=name)
        for name in obj:
            if name not in _HEAD_FIELDS:
                raise HeadError("is not a field of a head", field=name)
        checks = (("date", _DATE, "a date YYYY-MM-DD"), ("root", _HEX64, "64 lowercase hex"),
                  ("key_id", _KEY_ID, "16 lowercase hex"),
                  ("signature", _HEX128, "128 lowercase hex"))
        for name, pattern, what in checks:
            if not (isinstance(obj[name], str) and pattern.fullmatch(obj[name])):
                raise HeadError(f"is not {what}", field=name)
        if not isinstance(obj["ruleset"], str) or not obj["ruleset"]:
            raise HeadError("is not a ruleset name", field="ruleset")
        if type(obj["size"]) is not int or obj["size"] < 0:
            raise HeadError("is not a non-negative integer", field="size")
        try:
            parse_instant(obj["time"], "time")
        except LeafError as exc:
            raise HeadError(exc.message, field="time") from None
        return cls(*(obj[name] for name in _HEAD_FIELDS if name != "version"))


def head_message(head: SignedHead) -> bytes:
    """The bytes a head's signature covers: ``"daily-head/v1\\n"`` and the canonical JSON
    of its fields but ``signature``."""
    return HEAD_DOMAIN + canonical_json(head.signed_fields())


def sign_head(
    private_key: Ed25519PrivateKey,
    date: str,
    ruleset: str,
    size: int,
    root: bytes,
    time: str,
) -> SignedHead:
    """Sign the head of a tree of ``size`` leaves with root ``root`` (32 bytes) at ``time``."""
    unsigned = SignedHead(date, ruleset, size, root.hex(), time, public_key_id(private_key), "")
    return replace(unsigned, signature=private_key.sign(head_message(unsigned)).hex())


def verify_head(public_key: Ed25519PublicKey, head: SignedHead) -> bool:
    """True if ``public_key`` is the head's key and its signature verifies."""
    if head.key_id != public_key_id(public_key) or not _HEX128.fullmatch(head.signature):
        return False
    try:
        public_key.verify(bytes.fromhex(head.signature), head_message(head))
    except InvalidSignature:
        return False
    return True
