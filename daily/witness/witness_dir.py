"""A witness's folder: its key, the logs it knows, and what it last cosigned.

Layout of ``DIR`` (``daily witness init --dir DIR --name NAME``)::

    witness.key    the Ed25519 private key (PEM, mode 0600)
    witness.json   {"name": NAME, "vkey": its cosignature/v1 vkey}
    logs.json      {"logs": [{"vkey": a log's vkey, "origin_prefix": "<name>/"}]}
    state/<sha256 hex of the origin>.json
                   {"origin", "size", "root" (base64), "checkpoint" (the note cosigned)}

:meth:`WitnessDir.add_checkpoint` checks a request (:mod:`daily.audit.c2sp.addcheckpoint`)
and records the new state before it answers, under a lock held across the check and
the write (an exclusive ``flock`` on ``state/.lock``), so two requests never roll the
state back. State files are replaced whole (:func:`daily.service.atomicfile.write_atomic`).

>>> import tempfile
>>> folder = WitnessDir.init(Path(tempfile.mkdtemp()) / "w", "witness.example/w1")
>>> str(folder.vkey()).startswith("witness.example/w1+")
True
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import hashlib
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from daily.audit.c2sp.addcheckpoint import LogKey, Refusal, check_add, parse_request
from daily.audit.c2sp.cosignature import cosign, witness_vkey
from daily.audit.c2sp.note import NoteError, VerifierKey, check_key_name
from daily.errors import DailyError
from daily.service.atomicfile import write_atomic

KEY_FILE = "witness.key"
INFO_FILE = "witness.json"
LOGS_FILE = "logs.json"
_LOCK = threading.Lock()


class WitnessDirError(DailyError):
    """A witness folder that cannot be used (missing, or holding bad files)."""


def origin_hash(origin: str) -> str:
    """The lowercase hex SHA-256 of an origin (its state file, its monitoring path).

    >>> origin_hash("example.com/log")[:12]
    '4d3203c8f35c'
    """
    return hashlib.sha256(origin.encode()).hexdigest()


class WitnessDir:
    """One witness's folder."""

    def __init__(self, path: Path) -> None:
        self.path = path
        if not (path / KEY_FILE).exists():
            raise WitnessDirError(f"{path} is not a witness folder: run `daily witness "
                                  "init --dir DIR --name NAME`", field="dir")
        info = self._json(INFO_FILE)
        self.name = check_key_name(str(info.get("name", "")))
        pem = (path / KEY_FILE).read_bytes()
        key = serialization.load_pem_private_key(pem, password=None)
        if not isinstance(key, Ed25519PrivateKey):
            raise WitnessDirError(f"{path / KEY_FILE} is not an Ed25519 key", field="dir")
        self._key = key

    @classmethod
    def init(cls, path: Path, name: str) -> WitnessDir:
        """Create the folder and a new key (refused if it already holds one)."""
        check_key_name(name)
        if (path / KEY_FILE).exists():
            raise WitnessDirError(f"{path} already holds a witness key; nothing changed",
                                  field="dir")
        path.mkdir(parents=True, exist_ok=True)
        key = Ed25519PrivateKey.generate()
        pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption())
        write_atomic(path / KEY_FILE, [pem])
        (path / KEY_FILE).chmod(0o600)
        vkey = str(witness_vkey(name, key))
        write_atomic(path / INFO_FILE, [_dumps({"name": name, "vkey": vkey})])
        if not (path / LOGS_FILE).exists():
            write_atomic(path / LOGS_FILE, [_dumps({"logs": []})])
        return cls(path)

    def _json(self, name: str) -> dict[str, Any]:
        try:
            found = json.loads((self.path / name).read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:
            raise WitnessDirError(f"{self.path / name} cannot be read: {exc}",
                                  field="dir") from None
        if not isinstance(found, dict):
            raise WitnessDirError(f"{self.path / name} is not a JSON object", field="dir")
        return found

    def vkey(self) -> VerifierKey:
        """The witness's cosignature/v1 vkey."""
        return witness_vkey(self.name, self._key)

    def logs(self) -> list[LogKey]:
        """The logs it knows (``logs.json``)."""
        out = []
        for i, item in enumerate(self._json(LOGS_FILE).get("logs", [])):
            try:
                vkey = VerifierKey.parse(item["vkey"])
                prefix = str(item.get("origin_prefix") or vkey.name + "/")
            except (KeyError, TypeError, NoteError) as exc:
                raise WitnessDirError(f"{self.path / LOGS_FILE}: log {i}: {exc}",
                                      field="logs") from None
            out.append(LogKey(vkey, prefix))
        return out

    def add_log(self, vkey: str, origin_prefix: str | None = None) -> LogKey:
        """Trust the log key ``vkey`` for the origins under ``origin_prefix`` (default:
        the key's name and a slash)."""
        parsed = VerifierKey.parse(vkey)
        log = LogKey(parsed, origin_prefix or parsed.name + "/")
        with self._locked():
            doc = self._json(LOGS_FILE)
            logs = [x for x in doc.get("logs", []) if x.get("vkey") != str(parsed)]
            logs.append({"vkey": str(parsed), "origin_prefix": log.origin_prefix})
            write_atomic(self.path / LOGS_FILE, [_dumps({"logs": logs})])
        return log

    def state(self, origin: str) -> dict[str, Any] | None:
        """What it last cosigned for ``origin`` (None: never)."""
        found = self._json(f"state/{origin_hash(origin)}.json")
        return found or None

    def state_by_hash(self, digest: str) -> dict[str, Any] | None:
        """The state of the log whose origin hashes to ``digest`` (None: never cosigned)."""
        return self._json(f"state/{digest}.json") or None

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        (self.path / "state").mkdir(exist_ok=True)
        with _LOCK, open(self.path / "state" / ".lock", "a+b") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def add_checkpoint(self, body: bytes, now: float | None = None) -> bytes:
        """Check an ``add-checkpoint`` body and answer its cosignature line; a
        :class:`Refusal` carries the status otherwise."""
        request = parse_request(body)
        logs = self.logs()
        with self._locked():
            origin = request.note.split(b"\n", 1)[0].decode("utf-8", "replace")
            last = self.state(origin)
            known = None if last is None else (int(last["size"]), base64.b64decode(last["root"]))
            checkpoint = check_add(request, logs, known)
            text = request.note.decode()
            note_text = text[:text.rfind("\n\n") + 1]
            line = cosign(self.name, self._key, note_text, int(now or time.time()))
            write_atomic(self.path / "state" / f"{origin_hash(checkpoint.origin)}.json", [_dumps({
                "origin": checkpoint.origin, "size": checkpoint.size,
                "root": base64.b64encode(checkpoint.root).decode(),
                "checkpoint": text + line.line()})])
        return line.line().encode()


def _dumps(doc: Any) -> bytes:
    return json.dumps(doc, indent=1).encode() + b"\n"


__all__ = ["Refusal", "WitnessDir", "WitnessDirError", "origin_hash"]
