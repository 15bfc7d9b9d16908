"""``daily monitor URL --dir DIR --witness VKEY ...``: follow a deployment's days.

For each day set of the last ``--days`` days (``GET /api/v1/days``) whose log is
sealed, the monitor fetches the checkpoint (``GET .../checkpoint``), checks it like a
client (:func:`daily.audit.c2sp.quorum.check_checkpoint`: a results key of ``GET
/api/v1/keys``, the day set's origin, the witness quorum), then compares it with the
last checkpoint it saw of that day set (``DIR/<date>.<ruleset>.checkpoint``): the same
size must have the same root, a smaller size is a rollback, a larger one must be
proved consistent (``GET .../consistency``, checked against the two roots). It prints
one line per day set; the first fork or failed check is one line on stderr and exit 1.
What it saw is written atomically, only once it checked out.
"""

from __future__ import annotations

import datetime as dt
import json
import sys
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from daily.audit.c2sp.checkpoint import Checkpoint
from daily.audit.c2sp.note import COSIGNATURE_V1, NoteError, VerifierKey, parse_note
from daily.audit.c2sp.quorum import CheckpointRefused, check_checkpoint
from daily.audit.merkle import verify_consistency
from daily.errors import DailyError
from daily.service.atomicfile import write_atomic

#: Largest answer read.
MAX_ANSWER = 4 * 1024 * 1024


class MonitorError(DailyError):
    """Bad input, or a deployment that cannot be read."""


class Fork(DailyError):
    """Two checkpoints of one day set that cannot both be true, or a failed check."""


def _get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=30) as answer:
            return answer.status, answer.read(MAX_ANSWER)
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read(MAX_ANSWER)
    except (OSError, ValueError) as exc:
        raise MonitorError(f"{url}: {exc}", field="url") from None


def _json(url: str) -> Any:
    status, body = _get(url)
    if status != 200:
        raise MonitorError(f"{url} answered {status}", field="url")
    try:
        return json.loads(body)
    except ValueError:
        raise MonitorError(f"{url} did not answer JSON", field="url") from None


def results_keys(base: str) -> dict[str, Ed25519PublicKey]:
    """The deployment's results keys, by id."""
    out = {}
    for key in _json(f"{base}/api/v1/keys").get("keys", []):
        if key.get("purpose") == "results":
            out[str(key["id"])] = Ed25519PublicKey.from_public_bytes(
                bytes.fromhex(key["public_key"]))
    return out


def consistent(base: str, date: str, ruleset: str, old: Checkpoint, new: Checkpoint) -> bool:
    """True if the deployment proves ``old`` a prefix of ``new`` (checked here)."""
    if old.size == new.size:
        return old.root == new.root
    if old.size > new.size:
        return False
    status, body = _get(f"{base}/api/v1/days/{date}/{ruleset}/consistency"
                        f"?from={old.size}&to={new.size}")
    if status != 200:
        return False
    try:
        path = [bytes.fromhex(h) for h in json.loads(body)["path"]]
    except (ValueError, KeyError, TypeError):
        return False
    return verify_consistency(old.size, new.size, old.root, new.root, path)


def check_day(base: str, folder: Path, date: str, ruleset: str,
              keys: dict[str, Ed25519PublicKey], witnesses: Sequence[VerifierKey],
              quorum: int) -> str | None:
    """Check one day set; the line to print (None: its log is not sealed yet)."""
    status, body = _get(f"{base}/api/v1/days/{date}/{ruleset}/checkpoint")
    if status in (404, 409):
        return None
    if status != 200:
        raise MonitorError(f"the checkpoint of {date} {ruleset} answered {status}", field="url")
    try:
        found = check_checkpoint(body, keys, date, ruleset, witnesses, quorum)
    except CheckpointRefused as exc:
        raise Fork(f"{date} {ruleset}: {exc.message}") from None
    new = found.checkpoint
    seen = folder / f"{date}.{ruleset}.checkpoint"
    if seen.exists():
        try:
            old = Checkpoint.from_text(parse_note(seen.read_bytes()).text)
        except NoteError as exc:
            raise MonitorError(f"{seen}: {exc}", field="dir") from None
        if not consistent(base, date, ruleset, old, new):
            raise Fork(f"fork: {date} {ruleset}: the checkpoint of size {new.size} (root "
                       f"{new.root.hex()[:16]}...) is not consistent with the one seen of "
                       f"size {old.size} (root {old.root.hex()[:16]}...)")
    write_atomic(seen, [body])
    return (f"ok {date} {ruleset}: size {new.size}, cosigned by "
            f"{', '.join(found.witnessed) or 'no witness'}")


def run_monitor(url: str, folder: Path, witness_texts: Sequence[str], quorum: int | None,
                days: int, today: dt.date | None = None) -> int:
    """The ``daily monitor`` command; the exit status."""
    base = url.rstrip("/")
    witnesses = []
    for text in witness_texts:
        vkey = VerifierKey.parse(text)
        if vkey.sig_type != COSIGNATURE_V1:
            raise MonitorError(f"{vkey.name} is not a witness's cosignature/v1 key",
                               field="witness")
        witnesses.append(vkey)
    need = len(witnesses) if quorum is None else quorum
    if not 0 <= need <= len(witnesses) or not 1 <= days <= 400:
        raise MonitorError("--quorum is at most the --witness keys given, --days 1 to 400",
                           field="quorum")
    folder.mkdir(parents=True, exist_ok=True)
    keys = results_keys(base)
    start = (today or dt.datetime.now(dt.UTC).date()) - dt.timedelta(days=days)
    listed = _json(f"{base}/api/v1/days?from={start.isoformat()}")
    try:
        for entry in listed.get("days", []):
            line = check_day(base, folder, str(entry["date"]), str(entry["ruleset"]), keys,
                             witnesses, need)
            if line is not None:
                print(line, flush=True)
    except Fork as exc:
        print(f"daily: {exc.message}", file=sys.stderr)
        return 1
    return 0
