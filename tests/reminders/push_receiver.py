"""A local push service for the tests: an HTTP server that takes Web Push requests as a
browser's push service would, and checks them as one must.

Each request to ``/push/<name>`` must carry

* a VAPID ``Authorization: vapid t=<JWT>,k=<key>`` header (RFC 8292) whose key is the
  server's and whose ES256 JWT verifies, with ``aud`` this receiver's origin, ``exp``
  in the future but within 24 hours, and a ``mailto:`` or ``https:`` ``sub``;
* a ``TTL`` header, and a body in ``Content-Encoding: aes128gcm`` (RFC 8188) that
  decrypts (RFC 8291) with the subscription's private key and authentication secret.

The subscription answers its configured status (201, or 404/410 for a dead one); a
request that fails a check gets 400 and its reason is kept in :attr:`PushReceiver.errors`.
The decryption is written here with ``cryptography``'s ECDH, HKDF and AES-GCM, not taken
from the library under test, and checked against RFC 8291's own example.
"""

from __future__ import annotations

import base64
import json
import os
import struct
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF


def b64d(text: str) -> bytes:
    """Base64url with or without padding."""
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64e(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _point(key: ec.EllipticCurvePublicKey) -> bytes:
    return key.public_bytes(serialization.Encoding.X962,
                            serialization.PublicFormat.UncompressedPoint)


def _hkdf(salt: bytes, ikm: bytes, info: bytes, length: int) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=salt, info=info).derive(ikm)


def decrypt_aes128gcm(body: bytes, ua_private: ec.EllipticCurvePrivateKey,
                      auth_secret: bytes) -> bytes:
    """The plaintext of an RFC 8291 message (one record), or ValueError."""
    if len(body) < 21:
        raise ValueError("body shorter than the aes128gcm header")
    salt, (rs,), idlen = body[:16], struct.unpack(">I", body[16:20]), body[20]
    as_public_raw = body[21:21 + idlen]
    ciphertext = body[21 + idlen:]
    if idlen != 65 or rs < 18 or len(ciphertext) > rs:
        raise ValueError(f"unexpected header: idlen {idlen}, rs {rs}")
    as_public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), as_public_raw)
    ecdh_secret = ua_private.exchange(ec.ECDH(), as_public)
    key_info = b"WebPush: info\x00" + _point(ua_private.public_key()) + as_public_raw
    ikm = _hkdf(auth_secret, ecdh_secret, key_info, 32)
    cek = _hkdf(salt, ikm, b"Content-Encoding: aes128gcm\x00", 16)
    nonce = _hkdf(salt, ikm, b"Content-Encoding: nonce\x00", 12)
    padded = AESGCM(cek).decrypt(nonce, ciphertext, None)  # InvalidTag if anything is off
    stripped = padded.rstrip(b"\x00")
    if not stripped.endswith(b"\x02"):
        raise ValueError("the last record lacks its 0x02 delimiter")
    return stripped[:-1]


def check_vapid(header: str, audience: str, server_key: str) -> dict[str, Any]:
    """The JWT claims of a ``vapid t=...,k=...`` header after checking it all (ValueError)."""
    scheme, _, params = header.partition(" ")
    if scheme != "vapid":
        raise ValueError(f"Authorization scheme {scheme!r}, not vapid")
    parts = dict(p.strip().split("=", 1) for p in params.split(","))
    token, key = parts["t"], parts["k"]
    if b64d(key) != b64d(server_key):
        raise ValueError("k is not the server's VAPID public key")
    head_b64, claims_b64, sig_b64 = token.split(".")
    head = json.loads(b64d(head_b64))
    if head.get("alg") != "ES256":
        raise ValueError(f"JWT alg {head.get('alg')!r}")
    sig = b64d(sig_b64)
    if len(sig) != 64:
        raise ValueError("an ES256 signature is 64 bytes (r, s)")
    der = encode_dss_signature(int.from_bytes(sig[:32], "big"), int.from_bytes(sig[32:], "big"))
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b64d(key))
    try:
        public.verify(der, f"{head_b64}.{claims_b64}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise ValueError("the JWT's signature does not verify") from None
    claims: dict[str, Any] = json.loads(b64d(claims_b64))
    now = time.time()
    if claims.get("aud") != audience:
        raise ValueError(f"aud {claims.get('aud')!r}, not {audience!r}")
    if not now < int(claims.get("exp", 0)) <= now + 24 * 3600:
        raise ValueError(f"exp {claims.get('exp')!r} is not within the next 24 hours")
    if not str(claims.get("sub", "")).startswith(("mailto:", "https:")):
        raise ValueError(f"sub {claims.get('sub')!r} is not a mailto: or https: URL")
    return claims


@dataclass
class Browser:
    """One subscription as a browser holds it: its keys, and what its service answers."""

    name: str
    endpoint: str
    private: ec.EllipticCurvePrivateKey
    auth: bytes
    status: int = 201

    @property
    def keys(self) -> dict[str, str]:
        return {"p256dh": b64e(_point(self.private.public_key())), "auth": b64e(self.auth)}

    def subscription(self) -> dict[str, Any]:
        """What ``PushSubscription.toJSON()`` would give (endpoint and keys)."""
        return {"endpoint": self.endpoint, "keys": self.keys}


@dataclass
class PushReceiver:
    """The receiver: its subscriptions, the messages it took and the errors it found."""

    server_key: str
    browsers: dict[str, Browser] = field(default_factory=dict)
    messages: list[dict[str, Any]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    origin: str = ""

    def browser(self, name: str, status: int = 201) -> Browser:
        """A new subscription at ``/push/<name>`` answering ``status``."""
        found = Browser(name, f"{self.origin}/push/{name}",
                        ec.generate_private_key(ec.SECP256R1()), os.urandom(16), status)
        self.browsers[name] = found
        return found

    def take(self, path: str, headers: Any, body: bytes) -> int:
        name = path.removeprefix("/push/")
        found = self.browsers.get(name)
        if found is None:
            return 404
        try:
            claims = check_vapid(headers.get("Authorization", ""), self.origin, self.server_key)
            if headers.get("Content-Encoding") != "aes128gcm":
                raise ValueError(f"Content-Encoding {headers.get('Content-Encoding')!r}")
            if not (headers.get("TTL") or "").isdigit():
                raise ValueError("no TTL header")
            plain = decrypt_aes128gcm(body, found.private, found.auth)
        except Exception as exc:
            self.errors.append(f"{name}: {type(exc).__name__}: {exc}")
            return 400
        self.messages.append({"browser": name, "claims": claims, "status": found.status,
                              "topic": headers.get("Topic"), "payload": json.loads(plain)})
        return found.status


class _Handler(BaseHTTPRequestHandler):
    receiver: PushReceiver

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        status = self.receiver.take(self.path, self.headers, self.rfile.read(length))
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


class running_receiver:
    """Start a :class:`PushReceiver` on a local port (``0``: a free one); stop it on exit."""

    def __init__(self, server_key: str, port: int = 0) -> None:
        self.receiver = PushReceiver(server_key)
        self.port = port

    def __enter__(self) -> PushReceiver:
        handler = type("Handler", (_Handler,), {"receiver": self.receiver})
        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), handler)
        self.receiver.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        return self.receiver

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(5)
