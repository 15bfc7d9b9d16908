"""Submitting a day set's checkpoint to the witnesses of ``DAILY_WITNESSES``.

For each witness that has not cosigned the checkpoint of ``size`` leaves yet,
:func:`submit_checkpoint` sends ``POST <url>/add-checkpoint`` (C2SP ``tlog-witness``)
with the size it last cosigned and the consistency proof from there; a 409 names the
size the witness holds, and the request is made again from it. A valid cosignature
(checked with the witness's vkey) is kept (:class:`DayCheckpoints`); a witness that
does not answer is *pending* (the job raises, and RQ tries again later); a witness
that refuses (403, 404, 422: it saw another log, or does not know ours) is *refused*
and logged as an error: that is what a witness is for.
"""

from __future__ import annotations

import logging
import urllib.error
import urllib.request
from dataclasses import dataclass, field

from daily.audit.c2sp.addcheckpoint import format_request
from daily.audit.c2sp.cosignature import verify_cosignature
from daily.audit.c2sp.note import Note, NoteError, VerifierKey, parse_signature_line
from daily.errors import StateError
from daily.service.audit.checkpoints import DayCheckpoints
from daily.service.audit.day_log import DayLog

log = logging.getLogger(__name__)

#: Seconds a witness has to answer.
TIMEOUT = 10.0


@dataclass
class Submission:
    """What one round of submissions did."""

    cosigned: list[str] = field(default_factory=list)
    pending: dict[str, str] = field(default_factory=dict)
    refused: dict[str, str] = field(default_factory=dict)


def _post(url: str, body: bytes) -> tuple[int, bytes]:
    request = urllib.request.Request(url + "/add-checkpoint", data=body, method="POST",
                                     headers={"Content-Type": "text/plain; charset=utf-8"})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
            return answer.status, answer.read(16384)
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read(16384)


def _cosignature(note: Note, vkey: VerifierKey, body: bytes) -> str | None:
    """The witness's valid cosignature line in its answer, if any."""
    for raw in body.decode("utf-8", "replace").splitlines():
        try:
            line = parse_signature_line(raw)
        except NoteError:
            continue
        try:
            if line.made_by(vkey) and verify_cosignature(Note(note.text, (line,)), vkey):
                return line.line()
        except NoteError:
            continue
    return None


def submit_checkpoint(day_log: DayLog, size: int) -> Submission:
    """Submit the checkpoint of ``size`` leaves to every witness that lacks it."""
    checkpoints = DayCheckpoints(day_log.conn, day_log.config, day_log.day, day_log.ruleset)
    note = checkpoints.signed(size)
    if note is None:
        raise StateError(f"no checkpoint of {size} leaves for {day_log.day} "
                         f"{day_log.ruleset}", field="size")
    done = Submission()
    have = checkpoints.cosigners(size)
    for vkey_text, url in day_log.config.witnesses:
        if vkey_text in have:
            continue
        vkey = VerifierKey.parse(vkey_text)
        old = min(checkpoints.witnessed(vkey_text), size)
        for _ in range(2):  # once more from the size a 409 names
            proof = day_log.tree(size).consistency_proof(old) if old else []
            try:
                status, body = _post(url, format_request(old, proof, note.encode()))
            except (OSError, ValueError) as exc:
                done.pending[vkey.name] = f"{url}: {exc}"
                break
            if status == 409:
                try:
                    told = int(body.decode("ascii").strip())
                except ValueError:
                    told = -1
                if 0 <= told <= size and told != old:
                    old = told
                    continue
            if status == 200:
                line = _cosignature(note, vkey, body)
                if line is not None:
                    checkpoints.add_cosignature(size, vkey_text, line)
                    done.cosigned.append(vkey.name)
                    break
                status, body = 502, b"no valid cosignature in its answer"
            reason = f"{status} {body.decode('utf-8', 'replace').strip()[:200]}"
            if status >= 500:
                done.pending[vkey.name] = reason
            else:
                done.refused[vkey.name] = reason
                log.error("witness %s refused the checkpoint of %s %s at size %d: %s",
                          vkey.name, day_log.day, day_log.ruleset, size, reason)
            break
    if done.cosigned:
        checkpoints.write_checkpoint_file(size)
    return done
