"""C2SP ``tlog-witness``: the ``add-checkpoint`` request and a witness's checks.

The request body is ``"old <size>\\n"``, up to 63 lines of a base64 consistency proof
hash each, a blank line, then the signed checkpoint. A witness that knows the log
cosigns only a checkpoint consistent with the last one it cosigned for that origin;
otherwise :func:`check_add` raises a :class:`Refusal` with the spec's status:

======  ==============================================================================
400     a malformed request, or an old size above the checkpoint's size
403     no valid signature of a key the witness trusts for the origin
404     an unknown origin
409     the old size is not the size the witness last cosigned (the answer says it,
        ``text/x.tlog.size``)
422     a proof that does not verify, a proof from size 0, a size-0 checkpoint that is
        not the empty tree, or the same size with another root (a fork)
======  ==============================================================================

>>> from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
>>> from daily.audit.c2sp.checkpoint import Checkpoint, VerifierKey, raw_public, sign_checkpoint
>>> key = Ed25519PrivateKey.from_private_bytes(bytes(32))
>>> logs = [LogKey(VerifierKey.of("dice.example", raw_public(key)), "dice.example/")]
>>> note = sign_checkpoint("dice.example", key, Checkpoint("dice.example/d/r", 1, bytes(32)))
>>> request = parse_request(format_request(0, (), note.encode()))
>>> check_add(request, logs, None).size
1
>>> fork = sign_checkpoint("dice.example", key, Checkpoint("dice.example/d/r", 1, bytes([1]) * 32))
>>> try:
...     check_add(parse_request(format_request(1, (), fork.encode())), logs, (1, bytes(32)))
... except Refusal as refused:
...     print(refused.status, refused.message)
422 the checkpoint of size 1 has another root than the one cosigned at that size
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Sequence
from dataclasses import dataclass

from daily.audit.c2sp.checkpoint import Checkpoint, VerifierKey, open_checkpoint
from daily.audit.c2sp.note import NoteError
from daily.audit.merkle import EMPTY_ROOT, verify_consistency

#: Most proof lines a request may carry.
MAX_PROOF = 63
_OLD = re.compile(r"old (0|[1-9][0-9]{0,18})")


class Refusal(Exception):
    """A checkpoint the witness does not cosign: the HTTP ``status`` and why; ``size`` is
    the size it last cosigned (409)."""

    def __init__(self, status: int, message: str, size: int | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.size = size


@dataclass(frozen=True)
class LogKey:
    """A log key a witness trusts, for the origins that start with ``origin_prefix``."""

    vkey: VerifierKey
    origin_prefix: str

    def covers(self, origin: str) -> bool:
        """True if this key signs the log ``origin``."""
        return origin.startswith(self.origin_prefix) and len(origin) > len(self.origin_prefix)


@dataclass(frozen=True)
class AddRequest:
    """A parsed ``add-checkpoint`` body."""

    old_size: int
    proof: tuple[bytes, ...]
    note: bytes


def format_request(old_size: int, proof: Sequence[bytes], note: bytes) -> bytes:
    """The body of an ``add-checkpoint`` request."""
    lines = [f"old {old_size}\n", *(base64.b64encode(h).decode() + "\n" for h in proof), "\n"]
    return "".join(lines).encode() + note


def parse_request(body: bytes) -> AddRequest:
    """Parse a body; :class:`Refusal` 400 when it is malformed."""
    head, sep, note = body.partition(b"\n\n")
    if not sep:
        raise Refusal(400, "the request has no blank line before the checkpoint")
    try:
        lines = head.decode("ascii").split("\n")
    except UnicodeDecodeError:
        raise Refusal(400, "the request's first lines are not ASCII") from None
    match = _OLD.fullmatch(lines[0])
    if match is None:
        raise Refusal(400, "the first line is not 'old <size>'")
    if len(lines) - 1 > MAX_PROOF:
        raise Refusal(400, f"more than {MAX_PROOF} proof lines")
    proof = []
    for line in lines[1:]:
        try:
            raw = base64.b64decode(line, validate=True)
        except binascii.Error:
            raw = b""
        if len(raw) != 32:
            raise Refusal(400, "a proof line is not the base64 of a 32-byte hash")
        proof.append(raw)
    return AddRequest(int(match.group(1)), tuple(proof), note)


def check_add(
    request: AddRequest, logs: Sequence[LogKey], last: tuple[int, bytes] | None
) -> Checkpoint:
    """The checkpoint of ``request`` if the witness may cosign it, given the keys it
    trusts and the (size, root) it last cosigned for its origin (None: never)."""
    try:
        origin = request.note.split(b"\n", 1)[0].decode("utf-8")
    except UnicodeDecodeError:
        raise Refusal(400, "the checkpoint is not UTF-8") from None
    keys = [log.vkey for log in logs if log.covers(origin)]
    if not keys:
        raise Refusal(404, f"unknown log {origin[:80]!r}")
    try:
        checkpoint, _ = open_checkpoint(request.note, keys)
    except NoteError as exc:
        status = 403 if exc.field == "signature" or "does not verify" in exc.message else 400
        raise Refusal(status, exc.message) from None
    old, size = request.old_size, checkpoint.size
    if old > size:
        raise Refusal(400, f"old size {old} is above the checkpoint's size {size}")
    last_size = last[0] if last else 0
    if old != last_size:
        raise Refusal(409, f"the last checkpoint cosigned has size {last_size}", last_size)
    if size == 0 and checkpoint.root != EMPTY_ROOT:
        raise Refusal(422, "a checkpoint of size 0 has the root of the empty tree")
    if old == 0:
        if request.proof:
            raise Refusal(422, "a proof from size 0 is empty")
        return checkpoint
    assert last is not None
    if old == size:
        if request.proof or checkpoint.root != last[1]:
            raise Refusal(422, f"the checkpoint of size {size} has another root than the "
                               "one cosigned at that size")
        return checkpoint
    if not verify_consistency(old, size, last[1], checkpoint.root, request.proof):
        raise Refusal(422, f"the consistency proof from size {old} to {size} does not verify")
    return checkpoint
