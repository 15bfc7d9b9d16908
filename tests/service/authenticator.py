"""A software WebAuthn authenticator for the tests: real credentials, real signatures.

It does what a passkey authenticator does for a relying party ("none" attestation):
an Ed25519 key from ``cryptography``, authenticator data (RP id hash, flags, sign
counter, attested credential data with the COSE key), the attestation object and
client data JSON a browser would send, each part changeable to build a refusal. CBOR
is written with the `webauthn` library's own encoder. The answers are the JSON forms of
``PublicKeyCredential.toJSON()``.

>>> auth = SoftAuthenticator()
>>> made = auth.create({"challenge": "AAAA", "rp": {"id": "dice.example"},
...                     "user": {"id": "cF8x"}}, origin="https://dice.example")
>>> made["type"], len(base64url_to_bytes(made["id"]))
('public-key', 16)
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
from dataclasses import dataclass, field
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.encode_cbor import encode_cbor

UP, UV, AT = 0x01, 0x04, 0x40


def b64(data: bytes) -> str:
    """base64url without padding."""
    return bytes_to_base64url(data)


@dataclass
class SoftAuthenticator:
    """One passkey: its id, Ed25519 key, user handle and sign counter."""

    key: Ed25519PrivateKey = field(default_factory=Ed25519PrivateKey.generate)
    credential_id: bytes = field(default_factory=lambda: os.urandom(16))
    user_handle: bytes = b""
    sign_count: int = 0

    def cose_key(self) -> bytes:
        raw = self.key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        return encode_cbor({1: 1, 3: -8, -1: 6, -2: raw})

    def auth_data(self, rp_id: str, *, attested: bool, count: int | None = None,
                  flags: int = UP | UV) -> bytes:
        """Authenticator data for ``rp_id`` (with the credential when ``attested``)."""
        data = hashlib.sha256(rp_id.encode()).digest()
        data += bytes([flags | (AT if attested else 0)])
        data += struct.pack(">I", self.sign_count if count is None else count)
        if attested:
            data += bytes(16) + struct.pack(">H", len(self.credential_id))
            data += self.credential_id + self.cose_key()
        return data

    @staticmethod
    def client_data(kind: str, challenge: str, origin: str) -> bytes:
        return json.dumps({"type": kind, "challenge": challenge, "origin": origin,
                           "crossOrigin": False}).encode()

    def create(self, options: dict[str, Any], *, origin: str, rp_id: str | None = None,
               challenge: str | None = None) -> dict[str, Any]:
        """The answer of ``navigator.credentials.create(options)`` on ``origin``
        (``rp_id`` and ``challenge`` override the options', to build refusals)."""
        self.user_handle = base64url_to_bytes(options["user"]["id"])
        auth = self.auth_data(rp_id or options["rp"]["id"], attested=True)
        attestation = encode_cbor({"fmt": "none", "attStmt": {}, "authData": auth})
        client = self.client_data("webauthn.create", challenge or options["challenge"], origin)
        return {"id": b64(self.credential_id), "rawId": b64(self.credential_id),
                "type": "public-key", "clientExtensionResults": {},
                "authenticatorAttachment": "platform",
                "response": {"clientDataJSON": b64(client),
                             "attestationObject": b64(attestation),
                             "transports": ["internal"]}}

    def get(self, options: dict[str, Any], *, origin: str, rp_id: str | None = None,
            challenge: str | None = None, count: int | None = None) -> dict[str, Any]:
        """The answer of ``navigator.credentials.get(options)``: the counter goes up by
        one unless ``count`` says what it reads."""
        if count is None:
            self.sign_count += 1
        auth = self.auth_data(rp_id or options["rpId"], attested=False, count=count)
        client = self.client_data("webauthn.get", challenge or options["challenge"], origin)
        signature = self.key.sign(auth + hashlib.sha256(client).digest())
        return {"id": b64(self.credential_id), "rawId": b64(self.credential_id),
                "type": "public-key", "clientExtensionResults": {},
                "response": {"clientDataJSON": b64(client), "authenticatorData": b64(auth),
                             "signature": b64(signature), "userHandle": b64(self.user_handle)}}
