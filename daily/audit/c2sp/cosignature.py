"""C2SP ``tlog-cosignature`` v1 (c2sp.org/tlog-cosignature), Ed25519.

A cosignature is a note signature line (type 0x04) on a checkpoint: the witness's key
ID, then ``timestamp`` (u64, big-endian, POSIX seconds) and the Ed25519 signature of
``"cosignature/v1\\ntime <timestamp>\\n"`` followed by the checkpoint's note text. Its
key ID is ``SHA-256(name || "\\n" || 0x04 || public key)[:4]``.

A known answer of transparency-dev/formats (``note_cosigv1_test.go``): the time of a
cosignature line.

>>> from daily.audit.c2sp.note import parse_signature_line
>>> sig = parse_signature_line("— w ZGhGuQAAAABm/qTPeyKXD+R2rzyQsxPiP8mXum7qq/iF0u4vanlqJyoc"
...                            "WODBt97w9uL+8qT7S5gxEHWWOworDcFiEBYJXORmnFBOBA==")
>>> cosignature_time(sig)
1727964367
>>> from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
>>> key = Ed25519PrivateKey.from_private_bytes(bytes(32))
>>> body = "example.com/log\\n1\\n" + "A" * 43 + "=\\n"
>>> line = cosign("witness.example/w1", key, body, 1679315147)
>>> vkey = witness_vkey("witness.example/w1", key)
>>> verify_cosignature(Note(body, (line,)), vkey)
1679315147
"""

from __future__ import annotations

import struct

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from daily.audit.c2sp.note import (
    COSIGNATURE_V1,
    Note,
    NoteError,
    Signature,
    VerifierKey,
    raw_public,
)

HEADER = b"cosignature/v1\n"
#: Largest timestamp the spec allows (2**63 - 1).
MAX_TIME = (1 << 63) - 1


def cosigned_message(body: str, timestamp: int) -> bytes:
    """The bytes a cosignature signs.

    >>> cosigned_message("o\\n1\\nr\\n", 7)
    b'cosignature/v1\\ntime 7\\no\\n1\\nr\\n'
    """
    return HEADER + f"time {timestamp}\n".encode() + body.encode()


def witness_vkey(name: str, key: Ed25519PrivateKey) -> VerifierKey:
    """The cosignature/v1 vkey (type 0x04) of a witness key."""
    return VerifierKey.of(name, raw_public(key), COSIGNATURE_V1)


def parse_witness_vkey(text: str) -> VerifierKey:
    """A witness's verifier key from its text: a vkey of type cosignature/v1
    (:class:`NoteError` naming what is wrong otherwise).

    >>> key = Ed25519PrivateKey.from_private_bytes(bytes(32))
    >>> parse_witness_vkey(str(witness_vkey("w.example", key))).name
    'w.example'
    >>> parse_witness_vkey("w.example+1234abcd+BA==")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    daily.audit.c2sp.note.NoteError: ...
    """
    vkey = VerifierKey.parse(text)
    if vkey.sig_type != COSIGNATURE_V1:
        raise NoteError(f"{vkey.name} is not a witness's cosignature/v1 key", field="witness")
    return vkey


def cosign(name: str, key: Ed25519PrivateKey, body: str, timestamp: int) -> Signature:
    """The cosignature line of checkpoint text ``body`` at ``timestamp``."""
    if not 0 < timestamp <= MAX_TIME:
        raise NoteError("a cosignature's time is a positive POSIX timestamp", field="time")
    vkey = witness_vkey(name, key)
    signature = key.sign(cosigned_message(body, timestamp))
    return Signature(name, vkey.key_id, struct.pack(">Q", timestamp) + signature)


def cosignature_time(sig: Signature) -> int:
    """The timestamp of a cosignature line (:class:`NoteError` if it is not 8 + 64 bytes)."""
    if len(sig.data) != 72:
        raise NoteError("is not a cosignature/v1 (8-byte time and 64-byte signature)",
                        field="cosignature")
    return int(struct.unpack(">Q", sig.data[:8])[0])


def verify_cosignature(note: Note, vkey: VerifierKey) -> int | None:
    """The timestamp of the valid cosignature of ``vkey`` on the note, None if it has no
    line of that key; a line of that key that fails is :class:`NoteError`."""
    if vkey.sig_type != COSIGNATURE_V1:
        raise NoteError("is not a cosignature/v1 (0x04) key", field="witness")
    for sig in note.signatures:
        if not sig.made_by(vkey):
            continue
        timestamp = cosignature_time(sig)
        try:
            vkey.public_key().verify(sig.data[8:], cosigned_message(note.text, timestamp))
        except InvalidSignature:
            raise NoteError(f"the cosignature of {vkey.name}+{vkey.key_id.hex()} does not "
                            "verify", field="cosignature") from None
        return timestamp
    return None
