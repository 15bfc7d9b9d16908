"""A day set's checkpoint checked as a client does: the log's signature by a results
key, the origin of that day set, and at least ``quorum`` valid witness cosignatures.

``daily verify-day --checkpoint FILE --witness VKEY ... --quorum K`` and ``daily
monitor`` call :func:`check_checkpoint`; a failure is a :class:`CheckpointRefused`
saying which check.

>>> from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
>>> from daily.audit.c2sp.checkpoint import Checkpoint, sign_checkpoint
>>> from daily.audit.c2sp.cosignature import cosign, witness_vkey
>>> log = Ed25519PrivateKey.from_private_bytes(bytes(32))
>>> w = Ed25519PrivateKey.from_private_bytes(bytes([1]) * 32)
>>> cp = Checkpoint("dice.example/2026-11-29/yacht", 2, bytes(32))
>>> note = sign_checkpoint("dice.example", log, cp)
>>> note = note.with_signatures((cosign("w.example", w, note.text, 1700000000),))
>>> found = check_checkpoint(note.encode(), {"k1": log.public_key()}, "2026-11-29", "yacht",
...                          [witness_vkey("w.example", w)], 1)
>>> found.checkpoint.size, found.witnessed
(2, ('w.example',))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from daily.audit.c2sp.checkpoint import Checkpoint, VerifierKey, raw_public
from daily.audit.c2sp.cosignature import verify_cosignature
from daily.audit.c2sp.note import ED25519, Note, NoteError, parse_note, verify_ed25519
from daily.errors import DailyError


class CheckpointRefused(DailyError):
    """A checkpoint that fails a check (``field`` names which)."""


@dataclass(frozen=True)
class CheckedCheckpoint:
    """A checkpoint that passed: its results key id, and the witnesses that cosigned."""

    checkpoint: Checkpoint
    note: Note
    key_id: str
    witnessed: tuple[str, ...]


def deployment_of(origin: str, date: str, ruleset: str) -> str:
    """The deployment an origin names for (date, ruleset).

    >>> deployment_of("dice.example/2026-11-29/yacht", "2026-11-29", "yacht")
    'dice.example'
    """
    tail = f"/{date}/{ruleset}"
    if not origin.endswith(tail) or len(origin) == len(tail):
        raise CheckpointRefused(f"the origin {origin[:80]!r} is not the log of {date} "
                                f"{ruleset}", field="origin")
    return origin[:-len(tail)]


def check_checkpoint(
    data: bytes | str,
    results_keys: Mapping[str, Ed25519PublicKey],
    date: str,
    ruleset: str,
    witnesses: Sequence[VerifierKey],
    quorum: int,
) -> CheckedCheckpoint:
    """Check a signed checkpoint of (date, ruleset); ``results_keys`` by key id (the
    results keys of ``GET /keys``, or only the key the day names)."""
    try:
        note = parse_note(data)
        checkpoint = Checkpoint.from_text(note.text)
    except NoteError as exc:
        raise CheckpointRefused(f"the checkpoint is malformed: {exc.message}",
                                field="checkpoint") from None
    deployment = deployment_of(checkpoint.origin, date, ruleset)
    signer = None
    for key_id, key in results_keys.items():
        vkey = VerifierKey.of(deployment, raw_public(key), ED25519)
        try:
            if verify_ed25519(note, vkey):
                signer = key_id
                break
        except NoteError as exc:
            raise CheckpointRefused(exc.message, field="signature") from None
    if signer is None:
        raise CheckpointRefused(f"the checkpoint of {date} {ruleset} carries no valid "
                                "signature of a results key", field="signature")
    witnessed = []
    for vkey in witnesses:
        try:
            if verify_cosignature(note, vkey) is not None:
                witnessed.append(vkey.name)
        except NoteError:
            continue  # a bad line counts as no cosignature
    if len(witnessed) < quorum:
        raise CheckpointRefused(
            f"the checkpoint of {date} {ruleset} at size {checkpoint.size} has "
            f"{len(witnessed)} valid witness cosignature{'s' if len(witnessed) != 1 else ''}"
            f" of the {quorum} required", field="quorum")
    return CheckedCheckpoint(checkpoint, note, signer, tuple(witnessed))
