"""Passkeys: WebAuthn credentials that carry a player to another browser or device.

Registration and sign-in go through the `webauthn` library (options, CBOR, attestation
and signatures: none of it is parsed here). Each ceremony is two requests: the options,
with a random challenge kept in Redis under a one-time ticket for
:data:`CHALLENGE_SECONDS` (``P passkey:challenge:<ticket>``), then the browser's answer,
which takes the ticket back (``GETDEL``: a challenge works once, replayed it is
refused) and must have signed that very challenge (compared in constant time), on the
configured origin, for the configured relying-party id
(:func:`daily.service.publicurl.passkey_party`).

A player's passkeys are the hash ``P passkeys:{<player>}``: credential id (base64url)
-> JSON of :class:`Passkey`; it lives as long as the account (renewed with it). The
sign counter is stored and may never go back: an answer whose counter is not above the
stored one (when either is not 0) is refused, and the new counter is written only if
the stored one did not move meanwhile. Sign-in is usernameless (a discoverable
credential): the authenticator's ``userHandle`` is the player id given at registration.

Every refusal names what was wrong and the field at fault (the ``passkey_*`` codes of
:mod:`daily.service.http.contract.error_codes`): a JSON 4xx at the edge, never a 500.

>>> stored = Passkey("AA", "pk", 3, "Phone", "2026-12-03T12:00:00Z").to_stored()
>>> Passkey.from_json(stored).sign_count
3
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

import redis
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import (
    base64url_to_bytes,
    bytes_to_base64url,
    parse_attestation_object,
    parse_authenticator_data,
    parse_client_data_json,
)
from webauthn.helpers.cose import COSEAlgorithmIdentifier
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from daily.service import keymap
from daily.service.clock import Clock, iso
from daily.service.config import Config
from daily.service.players.accounts import Player, Players
from daily.service.refusals import Conflict, Invalid, NotFound

#: A ceremony's options must be answered within this many seconds.
CHALLENGE_SECONDS = 180
#: The most passkeys one player may have.
MAX_PASSKEYS = 10
#: What the browser is told to wait for the person (milliseconds).
TIMEOUT_MS = 120_000
#: Keys the relying party takes: Ed25519, ECDSA P-256, RSA (in that order of preference).
ALGORITHMS = [COSEAlgorithmIdentifier.EDDSA, COSEAlgorithmIdentifier.ECDSA_SHA_256,
              COSEAlgorithmIdentifier.RSASSA_PKCS1_v1_5_SHA_256]
#: The relying party's name shown by authenticators.
RP_NAME = "Daily Dice"

@dataclass(frozen=True)
class Passkey:
    """One stored passkey: its credential id and COSE public key (base64url), the last
    sign counter, and what the player's list shows."""

    id: str
    public_key: str
    sign_count: int
    label: str
    created: str
    last_used: str | None = None
    backed_up: bool = False
    transports: tuple[str, ...] = ()

    def to_stored(self) -> str:
        """The JSON kept in the player's hash."""
        return json.dumps({**asdict(self), "transports": list(self.transports)},
                          separators=(",", ":"))

    @classmethod
    def from_json(cls, raw: str | bytes) -> Passkey:
        """A passkey from its stored JSON."""
        data = json.loads(raw)
        data["transports"] = tuple(data.get("transports") or ())
        return cls(**data)

    def to_json(self) -> dict[str, Any]:
        """The public form (never the key).

        >>> Passkey("AA", "pk", 0, "Phone", "2026-12-03T12:00:00Z").to_json()["label"]
        'Phone'
        """
        return {"id": self.id, "label": self.label, "created": self.created,
                "last_used": self.last_used, "backed_up": self.backed_up}


def _b64(value: str, field: str) -> bytes:
    """Bytes of a base64url field, or the refusal naming it."""
    try:
        return base64url_to_bytes(value)
    except (ValueError, TypeError):
        raise Invalid(f"{field} is not base64url", code="passkey_malformed",
                      field=field) from None


class Passkeys:
    """Registering, listing, deleting and signing in with passkeys, on Redis.

    ``party()`` gives the relying-party id and origin of the moment (the public URL may
    come from the request: :func:`daily.service.publicurl.passkey_party`).
    """

    def __init__(self, conn: redis.Redis, config: Config, clock: Clock, players: Players,
                 party: Callable[[], tuple[str, str]]) -> None:
        self.conn = conn
        self.config = config
        self.clock = clock
        self.players = players
        self.party = party

    def _key(self, player_id: str) -> str:
        return keymap.passkeys(self.config.key_prefix, player_id)

    # ----- challenges --------------------------------------------------------------

    def _hand_out(self, ceremony: str, player_id: str, challenge: bytes) -> str:
        ticket = secrets.token_urlsafe(18)
        note = json.dumps({"ceremony": ceremony, "player": player_id,
                           "challenge": bytes_to_base64url(challenge)})
        self.conn.set(keymap.passkey_challenge(self.config.key_prefix, ticket), note,
                      ex=CHALLENGE_SECONDS)
        return ticket

    def _take(self, ticket: str, ceremony: str, player_id: str) -> bytes:
        """The challenge of ``ticket``, which is used up: a second answer is refused."""
        raw = self.conn.getdel(keymap.passkey_challenge(self.config.key_prefix, ticket))
        stale = Conflict("unknown, used or expired ticket: ask for new options",
                        code="passkey_ticket_stale", field="ticket")
        if raw is None:
            raise stale
        note = json.loads(raw)
        if note["ceremony"] != ceremony or not hmac.compare_digest(note["player"], player_id):
            raise stale
        return base64url_to_bytes(note["challenge"])

    def _check_client_data(self, encoded: str, expected: bytes, origin: str) -> None:
        """The challenge (constant time) and the origin the browser signed."""
        field = "credential.response.clientDataJSON"
        try:
            client = parse_client_data_json(_b64(encoded, field))
        except (WebAuthnException, ValueError, TypeError, KeyError):
            raise Invalid("clientDataJSON is not the JSON of a WebAuthn client",
                          code="passkey_malformed", field=field) from None
        if not hmac.compare_digest(client.challenge, expected):
            raise Invalid("the credential signed another challenge than this ticket's",
                          code="passkey_challenge", field=field)
        if not hmac.compare_digest(client.origin.encode(), origin.encode()):
            raise Invalid(f"the credential comes from origin {client.origin!r}, not {origin!r}",
                          code="passkey_origin", field=field)

    @staticmethod
    def _check_rp(rp_id_hash: bytes, rp_id: str, field: str) -> None:
        if not hmac.compare_digest(rp_id_hash, hashlib.sha256(rp_id.encode()).digest()):
            raise Invalid(f"the credential is not for the relying party {rp_id!r}",
                          code="passkey_rp_id", field=field)

    # ----- registration ------------------------------------------------------------

    def registration_options(self, player: Player) -> dict[str, Any]:
        """Options of ``navigator.credentials.create()`` for a new passkey of ``player``
        (its existing ones excluded), with their ticket."""
        rp_id, _ = self.party()
        challenge = secrets.token_bytes(32)
        existing = [PublicKeyCredentialDescriptor(id=base64url_to_bytes(k.id))
                    for k in self.of_player(player.id)]
        options = generate_registration_options(
            rp_id=rp_id, rp_name=RP_NAME, user_id=player.id.encode(), user_name=player.name,
            user_display_name=player.name, challenge=challenge, timeout=TIMEOUT_MS,
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED,
                user_verification=UserVerificationRequirement.PREFERRED),
            exclude_credentials=existing, supported_pub_key_algs=ALGORITHMS,
        )
        ticket = self._hand_out("register", player.id, challenge)
        return {"ticket": ticket, "expires_in": CHALLENGE_SECONDS,
                "publicKey": json.loads(options_to_json(options))}

    def register(self, player: Player, ticket: str, credential: dict[str, Any],
                 label: str | None = None) -> Passkey:
        """Verify a new credential against the ticket's challenge and keep it."""
        expected = self._take(ticket, "register", player.id)
        rp_id, origin = self.party()
        response = credential["response"]
        self._check_client_data(response["clientDataJSON"], expected, origin)
        field = "credential.response.attestationObject"
        try:
            attestation = parse_attestation_object(_b64(response["attestationObject"], field))
        except (WebAuthnException, ValueError, TypeError, KeyError, IndexError):
            raise Invalid("attestationObject is not a CBOR attestation object",
                          code="passkey_malformed", field=field) from None
        self._check_rp(attestation.auth_data.rp_id_hash, rp_id, field)
        try:
            verified = verify_registration_response(
                credential=credential, expected_challenge=expected, expected_rp_id=rp_id,
                expected_origin=origin, supported_pub_key_algs=ALGORITHMS)
        except (WebAuthnException, ValueError, TypeError, KeyError, IndexError) as exc:
            raise Invalid(f"the new credential does not verify: {exc}",
                          code="passkey_invalid", field="credential") from None
        if not hmac.compare_digest(verified.credential_id, base64url_to_bytes(credential["rawId"])):
            raise Invalid("the credential's id is not the one its authenticator data attests",
                          code="passkey_invalid", field="credential.id")
        now = iso(self.clock())
        key = Passkey(
            id=bytes_to_base64url(verified.credential_id),
            public_key=bytes_to_base64url(verified.credential_public_key),
            sign_count=verified.sign_count, label=label or now[:10], created=now,
            backed_up=verified.credential_backed_up,
            transports=tuple(response.get("transports") or ()),
        )
        self._store_new(player.id, key)
        return key

    def _store_new(self, player_id: str, key: Passkey) -> None:
        """Add ``key`` unless the player has it already or has the most (checked and
        written in one transaction)."""
        hkey = self._key(player_id)
        with self.conn.pipeline() as pipe:
            try:
                pipe.watch(hkey)
                if pipe.hexists(hkey, key.id):
                    raise Conflict("this passkey is registered already", code="passkey_exists",
                                   field="credential.id")
                if pipe.hlen(hkey) >= MAX_PASSKEYS:
                    raise Conflict(f"a player has at most {MAX_PASSKEYS} passkeys: delete one",
                                   code="too_many_passkeys", field="credential")
                pipe.multi()
                pipe.hset(hkey, key.id, key.to_stored())
                pipe.expire(hkey, self.players.ttl_seconds)
                pipe.execute()
            except redis.WatchError:
                raise Conflict("the passkeys changed meanwhile: try again",
                               field="credential") from None

    # ----- sign-in -----------------------------------------------------------------

    def login_options(self) -> dict[str, Any]:
        """Options of ``navigator.credentials.get()`` for any passkey of this site (the
        authenticator offers its own), with their ticket."""
        rp_id, _ = self.party()
        challenge = secrets.token_bytes(32)
        options = generate_authentication_options(
            rp_id=rp_id, challenge=challenge, timeout=TIMEOUT_MS,
            user_verification=UserVerificationRequirement.PREFERRED)
        ticket = self._hand_out("login", "", challenge)
        return {"ticket": ticket, "expires_in": CHALLENGE_SECONDS,
                "publicKey": json.loads(options_to_json(options))}

    def login(self, ticket: str, credential: dict[str, Any]) -> tuple[Player, str]:
        """Verify an assertion; the player it names and a new token for them."""
        expected = self._take(ticket, "login", "")
        rp_id, origin = self.party()
        response = credential["response"]
        self._check_client_data(response["clientDataJSON"], expected, origin)
        field = "credential.response.authenticatorData"
        try:
            auth_data = parse_authenticator_data(_b64(response["authenticatorData"], field))
        except (WebAuthnException, ValueError, TypeError, KeyError, IndexError):
            raise Invalid("authenticatorData cannot be read", code="passkey_malformed",
                          field=field) from None
        self._check_rp(auth_data.rp_id_hash, rp_id, field)
        player_id = self._owner(response.get("userHandle"))
        key = self.get(player_id, credential["id"])
        self._check_counter(auth_data.sign_count, key.sign_count)
        try:
            verified = verify_authentication_response(
                credential=credential, expected_challenge=expected, expected_rp_id=rp_id,
                expected_origin=origin, credential_public_key=base64url_to_bytes(key.public_key),
                credential_current_sign_count=key.sign_count)
        except (WebAuthnException, ValueError, TypeError, KeyError, IndexError) as exc:
            raise Invalid(f"the passkey's answer does not verify: {exc}",
                          code="passkey_invalid", field="credential") from None
        self._used(player_id, key, verified.new_sign_count, verified.credential_backed_up)
        signed_in = self.players.sign_in(player_id)
        if signed_in is None:
            raise NotFound("this passkey's player is gone", code="unknown_passkey",
                           field="credential.id")
        return signed_in

    @staticmethod
    def _check_counter(new: int, stored: int) -> None:
        if (new > 0 or stored > 0) and new <= stored:
            raise Conflict(f"the sign counter went from {stored} to {new}: it must go up",
                           code="passkey_counter", field="credential.response.authenticatorData")

    def _owner(self, user_handle: str | None) -> str:
        """The player id a discoverable credential carries."""
        if not user_handle:
            raise NotFound("the passkey did not say whose it is (no userHandle)",
                           code="unknown_passkey", field="credential.response.userHandle")
        raw = _b64(user_handle, "credential.response.userHandle")
        try:
            player_id = raw.decode("ascii")
        except UnicodeDecodeError:
            player_id = ""
        if not player_id.startswith("p_") or len(player_id) > 40:
            raise NotFound("no player of this site has this passkey", code="unknown_passkey",
                           field="credential.response.userHandle")
        return player_id

    def _used(self, player_id: str, key: Passkey, count: int, backed_up: bool) -> None:
        """Write the new counter, unless another sign-in moved it meanwhile."""
        hkey = self._key(player_id)
        updated = Passkey(**{**asdict(key), "sign_count": count, "backed_up": backed_up,
                             "last_used": iso(self.clock())})
        with self.conn.pipeline() as pipe:
            try:
                pipe.watch(hkey)
                raw = pipe.hget(hkey, key.id)
                if raw is None:
                    raise NotFound("no such passkey", code="unknown_passkey", field="credential.id")
                self._check_counter(count, Passkey.from_json(raw).sign_count)
                pipe.multi()
                pipe.hset(hkey, key.id, updated.to_stored())
                pipe.execute()
            except redis.WatchError:
                raise Conflict("the passkey was used meanwhile: try again",
                               code="passkey_counter", field="credential") from None

    # ----- a player's list ---------------------------------------------------------

    def get(self, player_id: str, credential_id: str) -> Passkey:
        """One of the player's passkeys, or the refusal ``unknown_passkey``."""
        raw = self.conn.hget(self._key(player_id), credential_id)
        if raw is None:
            raise NotFound("no player of this site has this passkey", code="unknown_passkey",
                           field="credential.id")
        return Passkey.from_json(raw)

    def of_player(self, player_id: str) -> list[Passkey]:
        """The player's passkeys, oldest first."""
        found = [Passkey.from_json(raw) for raw in self.conn.hvals(self._key(player_id))]
        return sorted(found, key=lambda k: (k.created, k.id))

    def delete(self, player_id: str, credential_id: str) -> None:
        """Forget one of the player's passkeys (the authenticator may keep it, useless)."""
        if not self.conn.hdel(self._key(player_id), credential_id):
            raise NotFound("you have no passkey with this id", code="unknown_passkey",
                           field="id")

    def has_passkey(self, player_id: str) -> bool:
        """Whether the player has at least one passkey."""
        return bool(self.conn.hlen(self._key(player_id)))
