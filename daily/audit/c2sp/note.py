"""C2SP ``signed-note`` (c2sp.org/signed-note): notes, Ed25519 note signatures, vkeys.

A signed note is a text ending in a newline, a blank line, and one or more signature
lines ``"— <key name> <base64(4-byte key ID || signature)>\\n"`` (an em dash, U+2014).
A key is named (no spaces, no ``+``) and identified by its key ID, the first four bytes
of ``SHA-256(name || 0x0A || signature type || public key)``; its verifier key
(*vkey*) is ``<name>+<hex key ID>+<base64(signature type || public key)>``. Type
``0x01`` is an Ed25519 signature of the note text; ``0x04`` a timestamped cosignature
(:mod:`daily.audit.c2sp.cosignature`).

Known answers from ``golang.org/x/mod/sumdb/note``'s tests:

>>> vkey = VerifierKey.parse("PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW")
>>> vkey.name, vkey.key_id.hex(), vkey.sig_type
('PeterNeumann', 'c74f20a3', 1)
>>> key = parse_signer_key("PRIVATE+KEY+PeterNeumann+c74f20a3+"
...                        "AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz")
>>> text = ("If you think cryptography is the answer to your problem,\\n"
...         "then you don't know what your problem is.\\n")
>>> note = Note(text, (sign_ed25519(key[0], key[1], text),))
>>> note.encode().decode().splitlines()[2:]
['', '— PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNX...']
>>> verify_ed25519(parse_note(note.encode()), vkey)
True
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from dataclasses import dataclass

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from daily.errors import DailyError

#: Signature types of c2sp.org/signed-note.
ED25519 = 0x01
COSIGNATURE_V1 = 0x04
EM_DASH = "\u2014"
#: Most signature lines a note may carry (the spec asks at least 16 be accepted).
MAX_SIGNATURES = 100
#: Largest note accepted, in bytes.
MAX_NOTE_BYTES = 64 * 1024
_CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f]")


class NoteError(DailyError):
    """A note, key or signature that is malformed, or one that fails to verify."""


def check_key_name(name: str) -> str:
    """``name`` if it is a key name: non-empty, no Unicode space, no ``+``.

    >>> check_key_name("a b")
    Traceback (most recent call last):
    ...
    daily.audit.c2sp.note.NoteError: key name: 'a b' is empty or holds a space or a '+'
    """
    if (not name or "+" in name or any(c.isspace() for c in name)
            or _CONTROL.search(name) or EM_DASH in name):
        raise NoteError(f"{name!r} is empty or holds a space or a '+'", field="key name")
    return name


def key_id(name: str, sig_type: int, public: bytes) -> bytes:
    """The 4-byte key ID: ``SHA-256(name || "\\n" || type || public key)[:4]``.

    >>> key_id("example.com/foo", ED25519, bytes(32)).hex()
    'ae0599c0'
    """
    return hashlib.sha256(name.encode() + b"\n" + bytes([sig_type]) + public).digest()[:4]


def raw_public(key: Ed25519PrivateKey | Ed25519PublicKey) -> bytes:
    """The 32 raw bytes of an Ed25519 public key (of the public half of a private key)."""
    public = key.public_key() if isinstance(key, Ed25519PrivateKey) else key
    return public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def _b64decode(text: str, what: str) -> bytes:
    try:
        raw = base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError):
        raise NoteError(f"{text[:40]!r} is not base64", field=what) from None
    if base64.b64encode(raw).decode() != text:
        raise NoteError(f"{text[:40]!r} is not canonical base64", field=what)
    return raw


@dataclass(frozen=True)
class VerifierKey:
    """A parsed vkey: a name, a key ID, a signature type and the public key bytes."""

    name: str
    key_id: bytes
    sig_type: int
    public: bytes

    @classmethod
    def of(cls, name: str, public: bytes, sig_type: int = ED25519) -> VerifierKey:
        """The vkey of an Ed25519 public key under ``name`` for ``sig_type``.

        >>> str(VerifierKey.of("example.com/foo", bytes(32)))[:24]
        'example.com/foo+ae0599c0'
        """
        check_key_name(name)
        return cls(name, key_id(name, sig_type, public), sig_type, public)

    @classmethod
    def parse(cls, text: str) -> VerifierKey:
        """Parse ``<name>+<hex key ID>+<base64(type || key)>``; :class:`NoteError` if it
        is malformed, of a type other than Ed25519 (0x01) or cosignature/v1 (0x04), or if
        its key ID is not the one its name and key make.

        >>> VerifierKey.parse("PeterNeumann+c74f20a4+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW")
        ... # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        daily.audit.c2sp.note.NoteError: vkey: its key ID c74f20a4 is not the hash of its ...
        """
        if not isinstance(text, str):
            raise NoteError("is not text", field="vkey")
        parts = text.split("+", 2)
        if len(parts) != 3 or not re.fullmatch(r"[0-9a-f]{8}", parts[1]):
            raise NoteError(f"{text[:60]!r} is not <name>+<8 hex>+<base64 key>", field="vkey")
        name = check_key_name(parts[0])
        raw = _b64decode(parts[2], "vkey")
        if not raw or raw[0] not in (ED25519, COSIGNATURE_V1) or len(raw) != 33:
            raise NoteError("is not an Ed25519 (0x01) or cosignature/v1 (0x04) key of 32 bytes",
                            field="vkey")
        found = cls(name, bytes.fromhex(parts[1]), raw[0], raw[1:])
        if key_id(name, raw[0], raw[1:]) != found.key_id:
            raise NoteError(f"its key ID {parts[1]} is not the hash of its name and key",
                            field="vkey")
        return found

    def __str__(self) -> str:
        body = base64.b64encode(bytes([self.sig_type]) + self.public).decode()
        return f"{self.name}+{self.key_id.hex()}+{body}"

    def public_key(self) -> Ed25519PublicKey:
        """The Ed25519 public key."""
        return Ed25519PublicKey.from_public_bytes(self.public)


def parse_signer_key(text: str) -> tuple[str, Ed25519PrivateKey]:
    """The name and key of an Ed25519 signer key ``PRIVATE+KEY+<name>+<hex ID>+<base64(0x01
    || 32-byte seed)>`` (the form of ``golang.org/x/mod/sumdb/note``)."""
    parts = text.split("+", 4)
    if len(parts) != 5 or parts[:2] != ["PRIVATE", "KEY"]:
        raise NoteError("is not PRIVATE+KEY+<name>+<id>+<key>", field="signer key")
    name = check_key_name(parts[2])
    raw = _b64decode(parts[4], "signer key")
    if len(raw) != 33 or raw[0] != ED25519:
        raise NoteError("is not an Ed25519 seed", field="signer key")
    key = Ed25519PrivateKey.from_private_bytes(raw[1:])
    if key_id(name, ED25519, raw_public(key)).hex() != parts[3]:
        raise NoteError("its key ID is not the hash of its name and key", field="signer key")
    return name, key


@dataclass(frozen=True)
class Signature:
    """One signature line: the key name, the key ID, and the signature bytes after it."""

    name: str
    key_id: bytes
    data: bytes

    def line(self) -> str:
        """The line, with its final newline."""
        return f"{EM_DASH} {self.name} {base64.b64encode(self.key_id + self.data).decode()}\n"

    def made_by(self, vkey: VerifierKey) -> bool:
        """True if the line names ``vkey`` (name and key ID)."""
        return self.name == vkey.name and self.key_id == vkey.key_id


@dataclass(frozen=True)
class Note:
    """A note text (ending in a newline) and its signatures."""

    text: str
    signatures: tuple[Signature, ...]

    def encode(self) -> bytes:
        """The signed note's bytes."""
        return (self.text + "\n" + "".join(s.line() for s in self.signatures)).encode()

    def with_signatures(self, extra: tuple[Signature, ...]) -> Note:
        """The note with the ``extra`` lines added (a line already there is not repeated)."""
        kept = list(self.signatures)
        kept += [s for s in extra if s not in kept]
        return Note(self.text, tuple(kept))


def parse_signature_line(line: str) -> Signature:
    """One ``"— <name> <base64>"`` line (without its newline)."""
    prefix = EM_DASH + " "
    if not line.startswith(prefix):
        raise NoteError(f"{line[:40]!r} is not a signature line", field="note")
    name, sep, b64 = line[len(prefix):].partition(" ")
    if not sep:
        raise NoteError(f"{line[:40]!r} is not a signature line", field="note")
    check_key_name(name)
    raw = _b64decode(b64, "note")
    if len(raw) < 5:
        raise NoteError("a signature is shorter than its key ID", field="note")
    return Signature(name, raw[:4], raw[4:])


def parse_note(data: bytes | str) -> Note:
    """Parse a signed note: UTF-8, no control character but newline, the text up to the
    last blank line, then at least one signature line.

    >>> parse_note(b"hello\\n")
    Traceback (most recent call last):
    ...
    daily.audit.c2sp.note.NoteError: note: has no blank line before its signatures
    """
    if isinstance(data, bytes):
        if len(data) > MAX_NOTE_BYTES:
            raise NoteError(f"is larger than {MAX_NOTE_BYTES} bytes", field="note")
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError:
            raise NoteError("is not UTF-8", field="note") from None
    if _CONTROL.search(data):
        raise NoteError("holds a control character other than newline", field="note")
    split = data.rfind("\n\n")
    if split < 0:
        raise NoteError("has no blank line before its signatures", field="note")
    text, block = data[:split + 1], data[split + 2:]
    if not block.endswith("\n"):
        raise NoteError("does not end with a newline", field="note")
    lines = block[:-1].split("\n")
    if len(lines) > MAX_SIGNATURES:
        raise NoteError(f"has more than {MAX_SIGNATURES} signatures", field="note")
    return Note(text, tuple(parse_signature_line(line) for line in lines))


def sign_ed25519(name: str, key: Ed25519PrivateKey, text: str) -> Signature:
    """The Ed25519 (type 0x01) signature line of ``text`` by ``key`` named ``name``."""
    check_key_name(name)
    if not text.endswith("\n") or _CONTROL.search(text):
        raise NoteError("a note text ends with a newline and holds no control character",
                        field="note")
    return Signature(name, key_id(name, ED25519, raw_public(key)), key.sign(text.encode()))


def verify_ed25519(note: Note, vkey: VerifierKey) -> bool:
    """True if a signature line of ``vkey`` (type 0x01) verifies the note's text; False
    if it has none. A line that names the key but does not verify makes the note
    malformed (:class:`NoteError`)."""
    if vkey.sig_type != ED25519:
        raise NoteError("is not an Ed25519 (0x01) key", field="vkey")
    found = False
    for sig in note.signatures:
        if not sig.made_by(vkey):
            continue
        try:
            vkey.public_key().verify(sig.data, note.text.encode())
        except InvalidSignature:
            raise NoteError(f"the signature of {vkey.name}+{vkey.key_id.hex()} does not "
                            "verify", field="note") from None
        found = True
    return found
