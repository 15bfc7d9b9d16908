"""C2SP ``tlog-checkpoint`` (c2sp.org/tlog-checkpoint): a tree head as a signed note.

The note text is the **origin** (the log's name), the **tree size** in decimal (no
leading zero) and the RFC 6962 **root hash** in base64, one a line, then optional
extension lines. A day set's results log is one log: its origin is
``<deployment>/<date>/<ruleset>`` (:func:`origin_of`), and the day's results key signs
it as the note key named ``<deployment>`` (Ed25519, type 0x01).

>>> from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
>>> key = Ed25519PrivateKey.from_private_bytes(bytes(32))
>>> cp = Checkpoint(origin_of("dice.example", "2026-11-29", "yacht"), 3, bytes(32))
>>> print(cp.body(), end="")
dice.example/2026-11-29/yacht
3
AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=
>>> note = sign_checkpoint("dice.example", key, cp)
>>> vkey = VerifierKey.of("dice.example", raw_public(key))
>>> open_checkpoint(note.encode(), [vkey])[0] == cp
True
"""

from __future__ import annotations

import base64
import re
from collections.abc import Sequence
from dataclasses import dataclass

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from daily.audit.c2sp.note import (
    ED25519,
    Note,
    NoteError,
    VerifierKey,
    parse_note,
    raw_public,
    sign_ed25519,
    verify_ed25519,
)

__all__ = ["Checkpoint", "VerifierKey", "open_checkpoint", "origin_of", "raw_public",
           "sign_checkpoint"]

_SIZE = re.compile(r"0|[1-9][0-9]{0,18}")


@dataclass(frozen=True)
class Checkpoint:
    """Origin, tree size, root hash (32 bytes) and extension lines."""

    origin: str
    size: int
    root: bytes
    extensions: tuple[str, ...] = ()

    def body(self) -> str:
        """The note text."""
        lines = [self.origin, str(self.size), base64.b64encode(self.root).decode(),
                 *self.extensions]
        return "".join(line + "\n" for line in lines)

    @classmethod
    def from_text(cls, text: str) -> Checkpoint:
        """Parse a note text; :class:`NoteError` names what is wrong.

        >>> Checkpoint.from_text("log\\n007\\nAAAA\\n")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        daily.audit.c2sp.note.NoteError: checkpoint: the size line '007' is not a decimal ...
        """
        if not text.endswith("\n"):
            raise NoteError("does not end with a newline", field="checkpoint")
        lines = text[:-1].split("\n")
        if len(lines) < 3 or any(not line for line in lines):
            raise NoteError("is not three or more non-empty lines", field="checkpoint")
        origin, size, root = lines[:3]
        if not _SIZE.fullmatch(size):
            raise NoteError(f"the size line {size[:20]!r} is not a decimal without leading "
                            "zeroes", field="checkpoint")
        try:
            raw = base64.b64decode(root.encode("ascii"), validate=True)
        except (ValueError, UnicodeEncodeError):
            raw = b""
        if len(raw) != 32 or base64.b64encode(raw).decode() != root:
            raise NoteError("the root line is not the base64 of 32 bytes", field="checkpoint")
        return cls(origin, int(size), raw, tuple(lines[3:]))


def origin_of(deployment: str, date: str, ruleset: str) -> str:
    """The origin of a day set's log: ``<deployment>/<date>/<ruleset>``."""
    return f"{deployment}/{date}/{ruleset}"


def sign_checkpoint(name: str, key: Ed25519PrivateKey, checkpoint: Checkpoint) -> Note:
    """The checkpoint as a note signed by ``key`` under the key name ``name``."""
    return Note(checkpoint.body(), (sign_ed25519(name, key, checkpoint.body()),))


def open_checkpoint(data: bytes | str, log_keys: Sequence[VerifierKey]) -> tuple[Checkpoint, Note]:
    """Parse a signed checkpoint and check it carries a valid signature of one of the
    log's keys (a line of a known key that fails is refused too): :class:`NoteError`."""
    note = parse_note(data)
    checkpoint = Checkpoint.from_text(note.text)
    signed = False
    for vkey in log_keys:
        if vkey.sig_type == ED25519 and verify_ed25519(note, vkey):
            signed = True
    if not signed:
        raise NoteError(f"{checkpoint.origin} at size {checkpoint.size} carries no valid "
                        "signature of the log's key", field="signature")
    return checkpoint, note
