"""``daily monitor URL --dir DIR --witness VKEY ...``: follow a deployment's days.

For each day set of the last ``--days`` days (``GET /api/v1/days``), the monitor reads
the log's C2SP tiles (``--tiles``, default ``URL/tlog``; the day set's under
``<tiles>/<date>/<ruleset>/``): its ``checkpoint`` (none yet: not sealed, the line is
skipped), checked like a client (:func:`daily.audit.c2sp.quorum.check_checkpoint`: a
results key of ``GET /api/v1/keys``, the day set's origin, the witness quorum); the
tiles of its right edge, which must reproduce its root; then the last checkpoint it saw
of that day set (``DIR/<date>.<ruleset>.checkpoint``): the same size must have the same
root, a smaller size is a rollback, and for a larger one the tiles covering the older
tree, each tied to the new root, must reproduce the older root
(:meth:`daily.audit.c2sp.tiles.TileReader.consistent`). Only the tiles of those edges
are fetched (a few a level), each once. It prints one line per day set; the first fork
or failed check is one line on stderr and exit 1. What it saw is written atomically,
only once it checked out.
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
from daily.audit.c2sp.tiles import TileError, TileReader
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


def tile_reader(prefix: str) -> TileReader:
    """A reader of the tiles under ``prefix`` (a 404 or another status: a TileError)."""
    def fetch(path: str) -> bytes:
        status, body = _get(f"{prefix}/{path}")
        if status != 200:
            raise TileError(f"{path} answered {status}")
        return body
    return TileReader(fetch)


def follows(reader: TileReader, old: Checkpoint, new: Checkpoint) -> bool:
    """True if ``new`` continues ``old``: the same root at the same size, else the
    tiles of ``new`` (whose root they reproduce) reproduce ``old``'s root."""
    if old.size >= new.size:
        return old.size == new.size and old.root == new.root
    return reader.consistent(old.size, old.root, new.size, new.root)


def check_day(tiles: str, folder: Path, date: str, ruleset: str,
              keys: dict[str, Ed25519PublicKey], witnesses: Sequence[VerifierKey],
              quorum: int) -> str | None:
    """Check one day set; the line to print (None: its log has no tiles yet)."""
    prefix = f"{tiles}/{date}/{ruleset}"
    status, body = _get(f"{prefix}/checkpoint")
    if status == 404:
        return None
    if status != 200:
        raise MonitorError(f"the checkpoint of {date} {ruleset} answered {status}", field="url")
    try:
        found = check_checkpoint(body, keys, date, ruleset, witnesses, quorum)
    except CheckpointRefused as exc:
        raise Fork(f"{date} {ruleset}: {exc.message}") from None
    new = found.checkpoint
    reader = tile_reader(prefix)
    seen = folder / f"{date}.{ruleset}.checkpoint"
    try:
        if reader.root(new.size) != new.root:
            raise Fork(f"{date} {ruleset}: the tiles do not reproduce the root of the "
                       f"checkpoint of size {new.size} ({new.root.hex()[:16]}...)")
        if seen.exists():
            try:
                old = Checkpoint.from_text(parse_note(seen.read_bytes()).text)
            except NoteError as exc:
                raise MonitorError(f"{seen}: {exc}", field="dir") from None
            if not follows(reader, old, new):
                raise Fork(f"fork: {date} {ruleset}: the checkpoint of size {new.size} (root "
                           f"{new.root.hex()[:16]}...) is not consistent with the one seen "
                           f"of size {old.size} (root {old.root.hex()[:16]}...)")
    except TileError as exc:
        raise Fork(f"{date} {ruleset}: tiles of size {new.size}: {exc}") from None
    write_atomic(seen, [body])
    return (f"ok {date} {ruleset}: size {new.size}, cosigned by "
            f"{', '.join(found.witnessed) or 'no witness'}, {len(reader.fetched)} tiles read")


def run_monitor(url: str, folder: Path, witness_texts: Sequence[str], quorum: int | None,
                days: int, today: dt.date | None = None, tiles: str | None = None) -> int:
    """The ``daily monitor`` command; the exit status."""
    base = url.rstrip("/")
    tiles_base = (tiles or f"{base}/tlog").rstrip("/")
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
            line = check_day(tiles_base, folder, str(entry["date"]),
                             str(entry["ruleset"]), keys, witnesses, need)
            if line is not None:
                print(line, flush=True)
    except Fork as exc:
        print(f"daily: {exc.message}", file=sys.stderr)
        return 1
    return 0
