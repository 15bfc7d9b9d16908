"""A day set's heads as C2SP checkpoints, the witnesses' cosignatures, and its tiles.

Each signed head is also a checkpoint (:mod:`daily.audit.c2sp.checkpoint`) of origin
``<deployment>/<date>/<ruleset>``, signed by the same results key under the note key
name ``<deployment>`` (:func:`deployment_name`: ``DAILY_PUBLIC_URL`` without its scheme,
or ``daily-dice.localhost``). The cosignatures of the witnesses of ``DAILY_WITNESSES``
are collected by the job :func:`workers.cosign.cosign_checkpoint`, enqueued after each
new head (:func:`after_head`) and retried while a witness is down.

Storage (:mod:`daily.service.keymap`, ``P audit:{D:R}:<part>``)::

    checkpoints  HASH  size -> the signed checkpoint note (the log's signature only)
    cosigs:<N>   HASH  witness vkey -> its cosignature line on the checkpoint of size N
    witnessed    HASH  witness vkey -> the size of the last checkpoint it cosigned

Beside the archive, ``<archive>/tlog/<D>/<R>/`` holds the log as C2SP tiles
(``checkpoint``, ``tile/...``), static files nginx serves at ``/tlog/<D>/<R>/``, written
by the job :func:`workers.cosign.write_tiles` after each new head (a million games take
8 to 13 s, ``bench/tiles.py``: off the close's path).

>>> deployment_name(None), deployment_name("https://dice.example/play")
('daily-dice.localhost', 'dice.example/play')
"""

from __future__ import annotations

import datetime as dt
import json
import logging
from collections.abc import Iterable
from pathlib import Path
from urllib.parse import urlsplit

import redis
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from rq import Queue, Retry

from daily.audit.c2sp.checkpoint import Checkpoint, origin_of, sign_checkpoint
from daily.audit.c2sp.note import ED25519, Note, VerifierKey, parse_note, parse_signature_line
from daily.audit.c2sp.tiles import tiles
from daily.audit.merkle import MerkleTree
from daily.audit.signing import SignedHead
from daily.service import keymap
from daily.service.atomicfile import write_atomic
from daily.service.config import Config
from daily.service.connections import DAYS_QUEUE, queue_redis_from_config
from daily.service.results.archive import archive_path

log = logging.getLogger(__name__)

#: The job that collects cosignatures, and its waits between tries (a witness down).
COSIGN_FUNC = "workers.cosign.cosign_checkpoint"
#: The job that writes a log's tiles.
TILES_FUNC = "workers.cosign.write_tiles"
RETRY_INTERVALS = [10, 30, 60, 300, 900, 1800, 3600, 3600, 3600, 3600]
FALLBACK_NAME = "daily-dice.localhost"


def deployment_name(public_url: str | None) -> str:
    """The deployment's name in checkpoints: its public URL without the scheme."""
    if not public_url:
        return FALLBACK_NAME
    parts = urlsplit(public_url)
    return (parts.netloc + parts.path).rstrip("/")


def results_vkey(config: Config, public: bytes) -> str:
    """The C2SP vkey of a results key (``GET /api/v1/keys``, ``vkey``)."""
    return str(VerifierKey.of(deployment_name(config.public_url), public, ED25519))


def _text(raw: bytes | str) -> str:
    return raw.decode() if isinstance(raw, bytes) else raw


class DayCheckpoints:
    """The checkpoints and cosignatures of one day set."""

    def __init__(self, conn: redis.Redis, config: Config, day: dt.date, ruleset: str) -> None:
        self.conn = conn
        self.config = config
        self.day = day
        self.ruleset = ruleset
        self.name = deployment_name(config.public_url)
        self.origin = origin_of(self.name, day.isoformat(), ruleset)

    def key(self, part: str) -> str:
        """The Redis key of one part."""
        return keymap.audit(self.config.key_prefix, self.day, self.ruleset, part)

    def publish(self, head: SignedHead, key: Ed25519PrivateKey) -> Note:
        """Sign and store the checkpoint of ``head`` (by the key that signed the head)."""
        note = sign_checkpoint(self.name, key, Checkpoint(self.origin, head.size,
                                                          head.root_bytes))
        self.conn.hset(self.key("checkpoints"), str(head.size), note.encode())
        return note

    def signed(self, size: int) -> Note | None:
        """The checkpoint of ``size`` leaves with the log's signature only."""
        raw = self.conn.hget(self.key("checkpoints"), str(size))
        return parse_note(_text(raw)) if raw is not None else None

    def cosigned(self, size: int) -> Note | None:
        """The checkpoint of ``size`` leaves with every cosignature collected."""
        note = self.signed(size)
        if note is None:
            return None
        found = self.conn.hgetall(self.key(f"cosigs:{size}"))
        lines = sorted(_text(line).rstrip("\n") for line in found.values())
        return note.with_signatures(tuple(parse_signature_line(line) for line in lines))

    def cosigners(self, size: int) -> set[str]:
        """The vkeys of the witnesses that cosigned the checkpoint of ``size``."""
        return {_text(k) for k in self.conn.hkeys(self.key(f"cosigs:{size}"))}

    def witnessed(self, vkey: str) -> int:
        """The size of the last checkpoint the witness ``vkey`` cosigned (0: none)."""
        raw = self.conn.hget(self.key("witnessed"), vkey)
        return int(raw) if raw is not None else 0

    def add_cosignature(self, size: int, vkey: str, line: str) -> None:
        """Keep a witness's (verified) cosignature line."""
        with self.conn.pipeline(transaction=True) as pipe:
            pipe.hset(self.key(f"cosigs:{size}"), vkey, line)
            pipe.hset(self.key("witnessed"), vkey, str(size))
            pipe.execute()

    def tiles_dir(self) -> Path:
        """Where the day set's tiles are written."""
        return self.config.archive_dir / "tlog" / self.day.isoformat() / self.ruleset

    def write_tiles(self, tree: MerkleTree, lines: Iterable[bytes], size: int) -> Path:
        """Write the tiles of the log of ``size`` leaves and its checkpoint (with the
        cosignatures so far); full tiles are rewritten with the same bytes."""
        base = self.tiles_dir()
        for path, data in tiles(tree, lines, size):
            write_atomic(base / path, [data], durable=False)
        self.write_checkpoint_file(size)
        return base

    def write_checkpoint_file(self, size: int) -> None:
        """Rewrite ``<tiles>/checkpoint`` with the cosigned checkpoint of ``size``, and
        the file of every checkpoint beside the archive."""
        note = self.cosigned(size)
        if note is not None:
            write_atomic(self.tiles_dir() / "checkpoint", [note.encode()])
        self.save()

    def sizes(self) -> list[int]:
        """The sizes of the checkpoints signed, smallest first."""
        return sorted(int(k) for k in self.conn.hkeys(self.key("checkpoints")))

    def file(self, archive: Path | None = None) -> Path:
        """``<archive>/<D>/<R>.checkpoints.jsonl``: every checkpoint with its
        cosignatures, one JSON line each (``{"size", "checkpoint"}``)."""
        base = archive or archive_path(self.config.archive_dir, self.day.isoformat(),
                                       self.ruleset)
        return base.with_suffix(".checkpoints.jsonl")

    def save(self) -> Path:
        """Write :meth:`file` (atomic replace)."""
        lines = []
        for size in self.sizes():
            note = self.cosigned(size)
            if note is not None:
                doc = {"size": size, "checkpoint": note.encode().decode()}
                lines.append(json.dumps(doc, ensure_ascii=False).encode() + b"\n")
        return write_atomic(self.file(), lines)

    def restore(self, archive: Path | None = None) -> int:
        """Put the checkpoints and the cosignatures of the configured witnesses back in
        Redis from :meth:`file` (``daily rebuild``); the number restored."""
        path = self.file(archive)
        if not path.exists():
            return 0
        witnesses = [(text, VerifierKey.parse(text)) for text, _ in self.config.witnesses]
        count = 0
        for line in path.read_bytes().splitlines():
            doc = json.loads(line)
            size, note = int(doc["size"]), parse_note(doc["checkpoint"])
            signed = Note(note.text, note.signatures[:1])
            self.conn.hset(self.key("checkpoints"), str(size), signed.encode())
            for sig in note.signatures[1:]:
                for text, vkey in witnesses:
                    if sig.made_by(vkey):
                        self.add_cosignature(size, text, sig.line())
            count += 1
        return count


def after_head(config: Config, day: dt.date, ruleset: str, size: int) -> list[str]:
    """Enqueue what follows a new head, off the close's path: the job that writes the
    log's tiles and, with witnesses configured, the one that submits the checkpoint to
    them (retried while a witness does not answer). Returns the job ids."""
    queue = Queue(DAYS_QUEUE, connection=queue_redis_from_config(config))
    args = (day.isoformat(), ruleset, size)
    tiles_id = f"tiles-{day.isoformat()}-{ruleset}-{size}"
    queue.enqueue_call(TILES_FUNC, args=args, job_id=tiles_id, timeout=3600,
                       retry=Retry(max=2))
    if not config.witnesses:
        return [tiles_id]
    job_id = f"cosign-{day.isoformat()}-{ruleset}-{size}"
    queue.enqueue_call(COSIGN_FUNC, args=args, job_id=job_id, timeout=300,
                       retry=Retry(max=len(RETRY_INTERVALS), interval=RETRY_INTERVALS))
    return [tiles_id, job_id]
