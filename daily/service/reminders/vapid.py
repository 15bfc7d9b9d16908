"""The service's VAPID key (RFC 8292): the P-256 key that signs every Web Push request.

A browser subscribes with the key's public half (``applicationServerKey``) and its push
service then accepts only requests signed by the private half, so the key is made once
and kept: a new key would orphan every subscription. It lives beside the other secrets
(``<data>/keys/vapid.key``, PKCS#8 PEM, mode 0600), created by ``daily keys init``
(:func:`daily.service.days.keyring.init_keys` calls :func:`create_vapid_key` with its
never-overwriting atomic writer), or in the file named by ``DAILY_VAPID_KEY_FILE``.

>>> import tempfile
>>> from daily.service.config import load_config
>>> from daily.service.days.keyring import init_keys
>>> config = load_config({"DAILY_DATA_DIR": tempfile.mkdtemp()})
>>> "vapid.key" in [p.name for p in init_keys(config.keys_dir)]
True
>>> key = load_vapid_key(config)
>>> len(key.public_b64url), key.public_b64url == load_vapid_key(config).public_b64url
(87, True)
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from pathlib import Path

from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid

from daily.service.config import Config, ConfigError

VAPID_FILE = "vapid.key"

#: ``write_new(path, data)``: write ``data`` to a new file atomically, never overwriting;
#: True if written (the keyring's writer).
WriteNew = Callable[[Path, bytes], bool]


class VapidKeyError(ConfigError):
    """The VAPID key file is unreadable or not a P-256 private key (says which file)."""


def b64url(data: bytes) -> str:
    """Base64url without padding, as Web Push writes keys.

    >>> b64url(b"\\xfb\\xff")
    '-_8'
    """
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def create_vapid_key(keys_dir: Path, write_new: WriteNew) -> list[Path]:
    """Make the VAPID key in ``keys_dir`` unless it is there; returns ``[path]`` if made."""
    path = Path(keys_dir) / VAPID_FILE
    if path.exists():
        return []
    pem = ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption())
    return [path] if write_new(path, pem) else []


def vapid_key_path(config: Config) -> Path:
    """Where the VAPID key is: ``DAILY_VAPID_KEY_FILE``, else ``<data>/keys/vapid.key``."""
    return config.vapid_key_file or config.keys_dir / VAPID_FILE


class VapidKey:
    """The loaded key: its public half for browsers, and a signer for pywebpush (never
    shows the private key in its repr)."""

    __slots__ = ("_private", "public_b64url")

    def __init__(self, private: ec.EllipticCurvePrivateKey) -> None:
        self._private = private
        point = private.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        #: The ``applicationServerKey`` of ``PushManager.subscribe()`` (65-byte point).
        self.public_b64url = b64url(point)

    def __repr__(self) -> str:
        return f"VapidKey(public={self.public_b64url[:12]}...)"

    def __reduce__(self) -> str:
        raise TypeError("a VapidKey holds a secret and is not picklable")

    def signer(self) -> Vapid:
        """A py_vapid signer of the ``Authorization: vapid t=...,k=...`` header."""
        return Vapid(private_key=self._private)


def load_vapid_key(config: Config) -> VapidKey | None:
    """The VAPID key of ``config``, or None when there is none yet (``daily keys init``
    makes it); :class:`VapidKeyError` when the file is there but unusable."""
    path = vapid_key_path(config)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise VapidKeyError(f"{path} cannot be read: {exc.strerror}",
                            field="DAILY_VAPID_KEY_FILE") from None
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError, UnsupportedAlgorithm):
        raise VapidKeyError(f"{path} is not an unencrypted PEM private key",
                            field="DAILY_VAPID_KEY_FILE") from None
    if not isinstance(key, ec.EllipticCurvePrivateKey) or key.curve.name != "secp256r1":
        raise VapidKeyError(f"{path} is not a P-256 (prime256v1) key",
                            field="DAILY_VAPID_KEY_FILE")
    return VapidKey(key)
