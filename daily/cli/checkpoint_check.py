"""``verify-day --checkpoint FILE --witness VKEY ... --quorum K``: the day's checkpoint.

The checkpoint must be signed by a results key of the key list, name the day set in
its origin, carry at least K valid cosignatures of the given witnesses (K defaults to
their number), and, with ``--head``, be that head: same size, same root. A checkpoint
that fails is a :class:`daily.audit.verify.VerificationFailed` (exit 1).

>>> check_checkpoint_file(None, None, "2026-11-29", "yacht", [], None, None)
Traceback (most recent call last):
...
daily.audit.verify.VerificationInputError: checkpoint: --witness and --quorum need --checkpoint
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from daily.audit.c2sp.cosignature import parse_witness_vkey
from daily.audit.c2sp.note import NoteError, VerifierKey
from daily.audit.c2sp.quorum import CheckpointRefused, check_checkpoint
from daily.audit.signing import SignedHead
from daily.audit.verify import VerificationFailed, VerificationInputError

#: Largest checkpoint file read.
MAX_CHECKPOINT_BYTES = 64 * 1024


def witness_keys(texts: Sequence[str]) -> list[VerifierKey]:
    """Parse ``--witness`` vkeys (cosignature/v1 keys), naming a bad one."""
    out = []
    for text in texts:
        try:
            vkey = parse_witness_vkey(text)
        except NoteError as exc:
            raise VerificationInputError(f"{text[:60]!r}: {exc.message}", field="witness") from None
        out.append(vkey)
    return out


def check_checkpoint_file(
    path: str | None,
    report: Any,
    date: str,
    ruleset: str,
    witnesses: Sequence[str],
    quorum: int | None,
    head: SignedHead | None,
) -> list[str]:
    """Check the checkpoint in ``path`` (``report``: the verified day, with its results
    keys); the lines to print."""
    if path is None:
        raise VerificationInputError("--witness and --quorum need --checkpoint",
                                     field="checkpoint")
    keys = witness_keys(witnesses)
    need = len(keys) if quorum is None else quorum
    if need < 0 or need > len(keys):
        raise VerificationInputError(f"--quorum {need} is not between 0 and the {len(keys)} "
                                     "--witness keys given", field="quorum")
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_CHECKPOINT_BYTES + 1)
    except OSError as exc:
        raise VerificationInputError(f"{path} cannot be read: {exc.strerror}",
                                     field="checkpoint") from None
    if len(data) > MAX_CHECKPOINT_BYTES:
        raise VerificationInputError(f"{path} is larger than {MAX_CHECKPOINT_BYTES} bytes",
                                     field="checkpoint")
    try:
        found = check_checkpoint(data, report.results_keys, date, ruleset, keys, need)
    except CheckpointRefused as exc:
        raise VerificationFailed(exc.message, field="checkpoint") from None
    checkpoint = found.checkpoint
    if head is not None and (head.size, head.root_bytes) != (checkpoint.size, checkpoint.root):
        raise VerificationFailed(
            f"the checkpoint (size {checkpoint.size}, root {checkpoint.root.hex()[:16]}...) "
            f"is not the head (size {head.size}, root {head.root[:16]}...): a fork",
            field="checkpoint")
    witnessed = ", ".join(found.witnessed) or "none required"
    return [f"checkpoint: {checkpoint.origin} size {checkpoint.size} signed by results key "
            f"{found.key_id}",
            f"checkpoint cosigned by {len(found.witnessed)} of {len(keys)} witnesses "
            f"(quorum {need}): {witnessed}"]
