"""The service's secrets: the master seed secret and the Ed25519 signing keys.

Two kinds of secret live in the keys directory (``<data>/keys``, mode 0700), each
file with mode 0600, created by :func:`init_keys` and never overwritten:

| file | content |
|---|---|
| ``master.secret`` | the master seed secret: 64 hex digits (32 random bytes) and a newline |
| ``signing.key`` | the current descriptors key: Ed25519, PKCS#8 PEM, unencrypted |
| ``results.key`` | the current results key (receipts and the days' log heads), the same form |
| ``public-keys.json`` | every public key ever used, ``{"keys": [{"id", "algorithm", ...}]}`` |
| ``retired/<id>.key`` | private keys replaced by :func:`rotate_signing_key` (see below) |
| ``vapid.key`` | the VAPID key of Web Push reminders (:mod:`daily.service.reminders.vapid`) |

Day seeds derive from the master secret (``daily.dice.day_seed``, spec v1). A key id
is the first 16 hex digits of the SHA-256 of the 32-byte raw public key. Each public
key has a ``purpose``: ``descriptors`` (it signs day descriptors) or ``results`` (it
signs the receipts of accepted results and the signed heads of the days' results logs,
:mod:`daily.audit`); one key of each purpose is active. Rotation makes a new current
key of one purpose and keeps every old *public* key, so what was signed before the
rotation still verifies. A ``day/2`` descriptor names the results key of its day, so the
service signs a day's receipts and heads with that key (:meth:`Keyring.results_signer`
with its id), retired or not: a rotation applies to the days published after it.
``daily keys init`` run on an older keys directory adds the results key and leaves
everything else as it is.

In production the secrets may instead come from files named by
``DAILY_MASTER_SECRET_FILE`` and ``DAILY_SIGNING_KEY_FILE`` or, for the master secret,
from ``DAILY_MASTER_SECRET`` (hex). A :class:`Keyring` never shows a secret in its
repr, and nothing here logs one.

>>> import tempfile
>>> from daily.service.config import load_config
>>> data = tempfile.mkdtemp()
>>> created = init_keys(load_config({"DAILY_DATA_DIR": data}).keys_dir)
>>> sorted(p.name for p in created)
['master.secret', 'public-keys.json', 'results.key', 'signing.key', 'vapid.key']
>>> ring = Keyring.load(load_config({"DAILY_DATA_DIR": data}))
>>> len(ring.day_seed("yahtzee", "2026-11-29")), ring.public_keys()[0]["active"]
(32, True)
>>> init_keys(load_config({"DAILY_DATA_DIR": data}).keys_dir)  # never overwrites
[]
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from daily.audit.verify import DESCRIPTORS, RESULTS, key_id_of
from daily.dice import commitment, day_seed
from daily.fairplay.daykey import fairplay_key
from daily.service.clock import iso
from daily.service.config import Config, ConfigError
from daily.service.reminders.vapid import create_vapid_key

log = logging.getLogger(__name__)

MASTER_FILE = "master.secret"
SIGNING_FILE = "signing.key"
RESULTS_FILE = "results.key"
#: The purposes of the signing keys, and the file of each one's current private key.
PURPOSES = {DESCRIPTORS: SIGNING_FILE, RESULTS: RESULTS_FILE}
PUBLIC_FILE = "public-keys.json"
RETIRED_DIR = "retired"
ALGORITHM = "Ed25519"
#: The master secret is at least this many bytes (``daily keys init`` makes 32).
MASTER_MIN_BYTES = 32
MASTER_MAX_BYTES = 64


class KeyringError(ConfigError):
    """Keys that are missing, malformed or inconsistent (says which file or variable)."""


def _raw_public(key: Ed25519PrivateKey | Ed25519PublicKey) -> bytes:
    public = key.public_key() if isinstance(key, Ed25519PrivateKey) else key
    return public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def _now_iso() -> str:
    return iso(dt.datetime.now(dt.UTC))


@dataclass(frozen=True)
class PublicKeyInfo:
    """One public key of the keyring: id, raw key bytes, when it was made and what it
    signs (``descriptors`` or ``results``; a list written before purposes existed holds
    descriptors keys only)."""

    id: str
    raw: bytes
    created: str | None
    purpose: str = DESCRIPTORS

    def to_json(self, active: bool) -> dict[str, Any]:
        """The form served by ``GET /api/v1/keys``."""
        return {
            "id": self.id,
            "algorithm": ALGORITHM,
            "public_key": self.raw.hex(),
            "created": self.created,
            "active": active,
            "purpose": self.purpose,
        }


# ---------------------------------------------------------------- writing key files


def _write_new(path: Path, data: bytes, mode: int = 0o600) -> bool:
    """Write ``data`` to ``path`` atomically unless it exists; True if written.

    The bytes go to a temporary file first, which is then hard-linked into place:
    the link fails when ``path`` exists, so nothing is ever overwritten and no reader
    ever sees a half-written file.
    """
    tmp = _write_temp(path, data, mode)
    try:
        os.link(tmp, path)
    except FileExistsError:
        return False
    finally:
        tmp.unlink()
    return True


def _replace(path: Path, data: bytes, mode: int) -> None:
    """Atomically replace ``path`` (for the public key list, which is not secret)."""
    os.replace(_write_temp(path, data, mode), path)


def _write_temp(path: Path, data: bytes, mode: int) -> Path:
    """``data`` written and synced to a new temporary file beside ``path``, with ``mode``."""
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        os.fchmod(fd, mode)
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    return tmp


def _pem(key: Ed25519PrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )


def _ensure_dir(keys_dir: Path) -> None:
    keys_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(keys_dir, 0o700)


def _public_list_bytes(infos: list[PublicKeyInfo], active_ids: set[str]) -> bytes:
    doc = {"keys": [info.to_json(info.id in active_ids) for info in infos]}
    return (json.dumps(doc, indent=2) + "\n").encode("ascii")


def _active_ids(keys_dir: Path) -> set[str]:
    """The ids of the current private keys of ``keys_dir`` (those that exist)."""
    found = set()
    for name in PURPOSES.values():
        path = keys_dir / name
        if path.exists():
            found.add(key_id_of(_raw_public(_load_signing_key(path, "signing key"))))
    return found


def _publish(keys_dir: Path, info: PublicKeyInfo, history: list[PublicKeyInfo],
             retiring: str | None = None) -> None:
    """List ``info`` (a new current key) in ``public-keys.json`` beside ``history``,
    before it signs anything; ``retiring``: the id of the key it replaces."""
    active = (_active_ids(keys_dir) - {retiring}) | {info.id}
    kept = [i for i in history if i.id != info.id]
    _replace(keys_dir / PUBLIC_FILE, _public_list_bytes([*kept, info], active), 0o644)


def init_keys(keys_dir: Path) -> list[Path]:
    """Create the master secret, a key of each purpose and the VAPID key in ``keys_dir``;
    returns what it made.

    Files that already exist are left untouched (an empty list means nothing changed).

    >>> import tempfile, stat
    >>> d = Path(tempfile.mkdtemp()) / "keys"
    >>> made = init_keys(d)
    >>> oct(stat.S_IMODE(d.stat().st_mode)), oct(stat.S_IMODE((d / "master.secret").stat().st_mode))
    ('0o700', '0o600')
    """
    keys_dir = Path(keys_dir)
    _ensure_dir(keys_dir)
    created: list[Path] = []
    master_path = keys_dir / MASTER_FILE
    if not master_path.exists() and _write_new(
        master_path, (secrets.token_bytes(32).hex() + "\n").encode("ascii")
    ):
        created.append(master_path)
        log.info("created the master seed secret in %s", keys_dir)
    for purpose, name in PURPOSES.items():
        path = keys_dir / name
        if path.exists():
            continue
        key = Ed25519PrivateKey.generate()
        info = PublicKeyInfo(key_id_of(_raw_public(key)), _raw_public(key), _now_iso(), purpose)
        staged = keys_dir / f"{name}.new"
        if not _write_new(staged, _pem(key)):
            raise KeyringError(f"{staged} exists: a key creation was interrupted; remove it")
        # Publish the public key before the private key can sign anything.
        _publish(keys_dir, info, _read_public_list(keys_dir / PUBLIC_FILE))
        try:
            os.link(staged, path)
        except FileExistsError:
            staged.unlink()
            continue
        staged.unlink()
        created.append(path)
        if keys_dir / PUBLIC_FILE not in created:
            created.append(keys_dir / PUBLIC_FILE)
        log.info("created %s key %s in %s", purpose, info.id, keys_dir)
    for path in create_vapid_key(keys_dir, _write_new):
        created.append(path)
        log.info("created the VAPID key of reminders in %s", keys_dir)
    return created


def rotate_signing_key(keys_dir: Path, purpose: str = DESCRIPTORS) -> tuple[str, str]:
    """Make a new current key of ``purpose``; the old one is retired. Returns (old id,
    new id).

    The old public key stays in ``public-keys.json`` (inactive), so its signatures keep
    verifying; its private key moves to ``retired/`` and is never used again.

    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp())
    >>> _ = init_keys(d)
    >>> old, new = rotate_signing_key(d)
    >>> old != new, sorted(k["active"] for k in Keyring.from_dir(d).public_keys())
    (True, [False, True, True])
    >>> _ = rotate_signing_key(d, "results")
    >>> sorted((k["purpose"], k["active"]) for k in Keyring.from_dir(d).public_keys())
    ... # doctest: +NORMALIZE_WHITESPACE
    [('descriptors', False), ('descriptors', True), ('results', False), ('results', True)]
    """
    if purpose not in PURPOSES:
        raise KeyringError(f"a key signs {' or '.join(PURPOSES)}, not {purpose!r}",
                           field="purpose")
    keys_dir = Path(keys_dir)
    signing_path = keys_dir / PURPOSES[purpose]
    old_key = _load_signing_key(signing_path, f"{purpose} key")
    old_info_raw = _raw_public(old_key)
    old_id = key_id_of(old_info_raw)
    history = _read_public_list(keys_dir / PUBLIC_FILE)
    if old_id not in {i.id for i in history}:
        history.append(PublicKeyInfo(old_id, old_info_raw, None, purpose))
    new_key = Ed25519PrivateKey.generate()
    new_raw = _raw_public(new_key)
    new_info = PublicKeyInfo(key_id_of(new_raw), new_raw, _now_iso(), purpose)
    staged = keys_dir / f"{signing_path.name}.new"
    if not _write_new(staged, _pem(new_key)):
        raise KeyringError(f"{staged} exists: a rotation was interrupted; remove it and retry")
    # Publish the new public key before it signs anything, then swap the private key.
    _publish(keys_dir, new_info, history, retiring=old_id)
    retired = keys_dir / RETIRED_DIR
    retired.mkdir(mode=0o700, exist_ok=True)
    retired_path = retired / f"{old_id}.key"
    if not retired_path.exists():
        os.link(signing_path, retired_path)
    os.replace(staged, signing_path)
    log.info("rotated the %s key: %s retired, %s active", purpose, old_id, new_info.id)
    return old_id, new_info.id


# ---------------------------------------------------------------- reading key files


def _read_public_list(path: Path) -> list[PublicKeyInfo]:
    if not path.exists():
        return []
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        entries = doc["keys"]
        out = []
        for entry in entries:
            raw = bytes.fromhex(entry["public_key"])
            if len(raw) != 32 or entry.get("algorithm") != ALGORITHM:
                raise ValueError("not a 32-byte Ed25519 key")
            if entry["id"] != key_id_of(raw):
                raise ValueError(f"id {entry['id']!r} does not match its public key")
            created = entry.get("created")
            purpose = entry.get("purpose", DESCRIPTORS)
            if purpose not in PURPOSES:
                raise ValueError(f"purpose {purpose!r} is not one of {', '.join(PURPOSES)}")
            out.append(PublicKeyInfo(
                entry["id"], raw, created if isinstance(created, str) else None, purpose
            ))
        return out
    except (ValueError, KeyError, TypeError, UnicodeDecodeError) as exc:
        raise KeyringError(f"{path} is not a valid public key list: {exc}") from None


def _warn_if_exposed(path: Path) -> None:
    try:
        mode = path.stat().st_mode & 0o777
    except OSError:
        return
    if mode & 0o077:
        log.warning("%s is readable by others (mode %o); run chmod 600 on it", path, mode)


def _load_signing_key(path: Path, what: str) -> Ed25519PrivateKey:
    _warn_if_exposed(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise KeyringError(
            f"{what} {path} does not exist; run `daily keys init` or set DAILY_SIGNING_KEY_FILE"
        ) from None
    except OSError as exc:
        raise KeyringError(f"{what} {path} cannot be read: {exc.strerror}") from None
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError, UnsupportedAlgorithm):
        # The message of the library error may quote the file; never pass it on.
        raise KeyringError(f"{what} {path} is not an unencrypted PEM private key") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise KeyringError(f"{what} {path} is not an Ed25519 key")
    return key


def parse_master_hex(text: str, source: str) -> bytes:
    """The master secret from hex text; the error names ``source``, never the value.

    >>> len(parse_master_hex("ab" * 32, "DAILY_MASTER_SECRET"))
    32
    >>> parse_master_hex("xyz", "DAILY_MASTER_SECRET")
    Traceback (most recent call last):
    ...
    daily.service.days.keyring.KeyringError: DAILY_MASTER_SECRET: is not 64 to 128 hex digits
    """
    cleaned = text.strip()
    low, high = 2 * MASTER_MIN_BYTES, 2 * MASTER_MAX_BYTES
    problem = KeyringError(f"is not {low} to {high} hex digits", field=source)
    if not low <= len(cleaned) <= high or len(cleaned) % 2:
        raise problem
    try:
        return bytes.fromhex(cleaned)
    except ValueError:
        raise problem from None


def _load_master(config: Config) -> bytes:
    if config.master_secret_hex and config.master_secret_file:
        raise KeyringError(
            "set only one of DAILY_MASTER_SECRET and DAILY_MASTER_SECRET_FILE",
            field="DAILY_MASTER_SECRET",
        )
    if config.master_secret_hex:
        return parse_master_hex(config.master_secret_hex, "DAILY_MASTER_SECRET")
    return _read_master_file(config.master_secret_file or config.keys_dir / MASTER_FILE)


def _read_master_file(path: Path) -> bytes:
    _warn_if_exposed(path)
    try:
        text = path.read_text(encoding="ascii")
    except FileNotFoundError:
        raise KeyringError(
            f"master secret {path} does not exist; run `daily keys init` or set "
            "DAILY_MASTER_SECRET / DAILY_MASTER_SECRET_FILE"
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else "it is not ASCII hex"
        raise KeyringError(f"master secret {path} cannot be read: {reason}") from None
    return parse_master_hex(text, f"master secret {path}")


# ---------------------------------------------------------------- the keyring


class Keyring:
    """The loaded secrets: derives day seeds and signs with the current keys (the
    descriptors key, and the results key when there is one).

    >>> ring = Keyring(b"daily-dice-example-master-secret",
    ...                Ed25519PrivateKey.from_private_bytes(bytes(32)),
    ...                results_key=Ed25519PrivateKey.from_private_bytes(bytes(range(32))))
    >>> ring
    Keyring(key_id='139e3940e64b5491', results_key_id='56475aa75463474c', public_keys=2)
    >>> ring.commitment("yahtzee", "2026-11-29")[:16]
    '0695463bf43b6458'
    """

    __slots__ = ("_master", "_public", "_results", "_retired", "_signing", "key_id",
                 "results_key_id")

    def __init__(
        self,
        master: bytes,
        signing_key: Ed25519PrivateKey,
        history: list[PublicKeyInfo] | None = None,
        created: str | None = None,
        results_key: Ed25519PrivateKey | None = None,
        retired_results: Mapping[str, Ed25519PrivateKey] | None = None,
    ) -> None:
        if not isinstance(master, bytes) or len(master) < 16:
            raise KeyringError("the master secret is at least 16 bytes", field="master")
        self._master = master
        self._signing = signing_key
        self._results = results_key
        self._retired = dict(retired_results or {})
        raw = _raw_public(signing_key)
        self.key_id = key_id_of(raw)
        public = {info.id: info for info in history or []}
        if self.key_id not in public:
            public[self.key_id] = PublicKeyInfo(self.key_id, raw, created)
        self.results_key_id: str | None = None
        if results_key is not None:
            results_raw = _raw_public(results_key)
            self.results_key_id = key_id_of(results_raw)
            if self.results_key_id not in public:
                public[self.results_key_id] = PublicKeyInfo(
                    self.results_key_id, results_raw, created, RESULTS)
        self._public = public

    def __repr__(self) -> str:  # never a secret
        return (f"Keyring(key_id={self.key_id!r}, results_key_id={self.results_key_id!r}, "
                f"public_keys={len(self._public)})")

    def __reduce__(self) -> Any:
        raise TypeError("a Keyring holds secrets and is not picklable")

    @classmethod
    def load(cls, config: Config) -> Keyring:
        """Load from the environment-configured files, or else the data directory.

        Missing or malformed keys raise :class:`KeyringError` naming the file or
        variable (never its content); a missing results key only when something is to
        be signed with it (:meth:`results_signer`).
        """
        master = _load_master(config)
        signing_path = config.signing_key_file or config.keys_dir / SIGNING_FILE
        signing = _load_signing_key(signing_path, "signing key")
        results_path = config.results_key_file or config.keys_dir / RESULTS_FILE
        results = None
        if config.results_key_file is not None or results_path.exists():
            results = _load_signing_key(results_path, "results key")
        history = _read_public_list(config.keys_dir / PUBLIC_FILE)
        created = None
        if config.signing_key_file is not None:
            mtime = signing_path.stat().st_mtime
            created = iso(dt.datetime.fromtimestamp(int(mtime), dt.UTC))
        return cls(master, signing, history, created, results,
                   _retired_results(config.keys_dir, history))

    @classmethod
    def from_dir(cls, keys_dir: Path) -> Keyring:
        """Load the keys of one keys directory (what ``daily keys`` works on)."""
        keys_dir = Path(keys_dir)
        master = _read_master_file(keys_dir / MASTER_FILE)
        signing = _load_signing_key(keys_dir / SIGNING_FILE, "signing key")
        results_path = keys_dir / RESULTS_FILE
        results = (_load_signing_key(results_path, "results key")
                   if results_path.exists() else None)
        history = _read_public_list(keys_dir / PUBLIC_FILE)
        return cls(master, signing, history, results_key=results,
                   retired_results=_retired_results(keys_dir, history))

    def day_seed(self, ruleset: str, date: dt.date | str) -> bytes:
        """The secret seed of a day set (server-internal: never send it before reveal)."""
        return day_seed(self._master, ruleset, date)

    def fairplay_key(self, ruleset: str, date: dt.date | str) -> bytes:
        """The fair-play key of a day set (:mod:`daily.fairplay.daykey`): the secret
        parameters of its check derive from it. Server-internal until the reveal.

        >>> ring = Keyring(bytes(32), Ed25519PrivateKey.from_private_bytes(bytes(32)))
        >>> ring.fairplay_key("yahtzee", "2026-11-29") != ring.day_seed("yahtzee", "2026-11-29")
        True
        """
        return fairplay_key(self._master, ruleset, date)

    def commitment(self, ruleset: str, date: dt.date | str) -> str:
        """The public commitment to a day's seed (hex SHA-256)."""
        return commitment(self.day_seed(ruleset, date))

    def sign(self, message: bytes) -> str:
        """The hex Ed25519 signature of ``message`` by the current key (:attr:`key_id`).

        >>> ring = Keyring(bytes(32), Ed25519PrivateKey.from_private_bytes(bytes(32)))
        >>> len(ring.sign(b"hello"))
        128
        """
        return self._signing.sign(message).hex()

    def results_signer(self, named: str | None = None) -> tuple[str, Ed25519PrivateKey]:
        """The id and private key of the current results key (receipts, log heads), or
        of the results key ``named`` (the one a day's descriptor names, current or
        retired); :class:`KeyringError` when there is none yet (``daily keys init``
        makes it) or this keyring lacks the named one.

        >>> ring = Keyring(bytes(32), Ed25519PrivateKey.from_private_bytes(bytes(32)))
        >>> ring.results_signer()
        Traceback (most recent call last):
        ...
        daily.service.days.keyring.KeyringError: no results key yet: run `daily keys init`
        >>> ring.results_signer("0123456789abcdef")
        Traceback (most recent call last):
        ...
        daily.service.days.keyring.KeyringError: the results key 0123456789abcdef, named by \
the day's descriptor, is not in keys/results.key nor keys/retired/
        """
        if named is not None and named != self.results_key_id:
            retired = self._retired.get(named)
            if retired is None:
                raise KeyringError(f"the results key {named}, named by the day's descriptor, "
                                   "is not in keys/results.key nor keys/retired/")
            return named, retired
        if self._results is None or self.results_key_id is None:
            raise KeyringError("no results key yet: run `daily keys init`")
        return self.results_key_id, self._results

    def results_public(self) -> tuple[str, bytes] | None:
        """The id and raw public key of the current results key (None without one): what
        a ``day/2`` descriptor signed now names."""
        if self._results is None or self.results_key_id is None:
            return None
        return self.results_key_id, _raw_public(self._results)

    def public_keys(self) -> list[dict[str, Any]]:
        """Every public key, oldest first, the current one of each purpose
        ``"active": true``."""
        active = {self.key_id, self.results_key_id}
        return [info.to_json(info.id in active) for info in self._public.values()]

    def public_key_map(self) -> Mapping[str, bytes]:
        """Key id to raw public key bytes, for verification."""
        return {info.id: info.raw for info in self._public.values()}


def _retired_results(keys_dir: Path, history: list[PublicKeyInfo]
                     ) -> dict[str, Ed25519PrivateKey]:
    """The retired results keys kept in ``retired/`` (they sign the days whose
    descriptors name them), by id."""
    out = {}
    for info in history:
        path = Path(keys_dir) / RETIRED_DIR / f"{info.id}.key"
        if info.purpose == RESULTS and path.exists():
            out[info.id] = _load_signing_key(path, "retired results key")
    return out


class KeyringLoader:
    """The keyring of a configuration, reloaded when its key files change.

    A web process keeps one loader; after ``daily keys rotate`` its next request signs
    with the new key and lists it, without a restart. The check is two ``stat`` calls.

    >>> import tempfile
    >>> from daily.service.config import load_config
    >>> config = load_config({"DAILY_DATA_DIR": tempfile.mkdtemp()})
    >>> _ = init_keys(config.keys_dir)
    >>> loader = KeyringLoader(config)
    >>> before = loader.get().key_id
    >>> _ = rotate_signing_key(config.keys_dir)
    >>> loader.get().key_id != before
    True
    """

    def __init__(self, config: Config) -> None:
        self.config = config
        self._stamp: tuple[tuple[int, int] | None, ...] | None = None
        self._keyring: Keyring | None = None

    def __repr__(self) -> str:
        return f"KeyringLoader(keyring={self._keyring!r})"

    def _paths(self) -> tuple[Path, ...]:
        config = self.config
        return (
            config.signing_key_file or config.keys_dir / SIGNING_FILE,
            config.results_key_file or config.keys_dir / RESULTS_FILE,
            config.keys_dir / PUBLIC_FILE,
            config.master_secret_file or config.keys_dir / MASTER_FILE,
        )

    def _current_stamp(self) -> tuple[tuple[int, int] | None, ...]:
        stamps: list[tuple[int, int] | None] = []
        for path in self._paths():
            try:
                st = path.stat()
            except OSError:
                stamps.append(None)
            else:
                stamps.append((st.st_ino, st.st_mtime_ns))
        return tuple(stamps)

    def get(self) -> Keyring:
        """The keyring, loaded again if a key file changed since the last call."""
        stamp = self._current_stamp()
        if self._keyring is None or stamp != self._stamp:
            keyring = Keyring.load(self.config)
            if self._keyring is not None and keyring.key_id != self._keyring.key_id:
                log.info("signing key changed: %s is now active", keyring.key_id)
            self._keyring, self._stamp = keyring, stamp
        return self._keyring
