"""Request and response models of ``/api/v1/passkeys`` (WebAuthn, docs/api.md).

A ceremony is two requests: ``.../options`` hands out the options of
``navigator.credentials.create()`` or ``.get()`` (``publicKey``, in the JSON form of
WebAuthn Level 3, binary values in base64url) with a one-time ``ticket``; the second
request sends the ticket back with the browser's credential in the same JSON form
(``PublicKeyCredential.toJSON()``). Every binary field is base64url without padding.

>>> B64URL_PATTERN
'^[A-Za-z0-9_-]+$'
>>> PasskeyLogin.model_validate({"ticket": "x" * 24, "credential": {"id": "AA",
...     "rawId": "AA", "type": "public-key", "response": {"clientDataJSON": "AA",
...     "authenticatorData": "AA", "signature": "AA"}}}).credential.response.userHandle is None
True
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from daily.service.http.contract.bodies import Body
from daily.service.http.contract.fields import PATTERN_MEANINGS, Name, omittable
from daily.service.http.contract.responses import Doc

#: Binary data of WebAuthn's JSON forms: base64url, no padding.
B64URL_PATTERN = "^[A-Za-z0-9_-]+$"
#: A ceremony's ticket: what ``.../options`` handed out (24 base64url characters).
TICKET_PATTERN = "^[A-Za-z0-9_-]{24}$"
PATTERN_MEANINGS[B64URL_PATTERN] = "is base64url (A-Z, a-z, 0-9, - and _, no padding)"
PATTERN_MEANINGS[TICKET_PATTERN] = "is the ticket of the ceremony's options (24 characters)"

B64Url = Annotated[str, Field(pattern=B64URL_PATTERN, max_length=16384)]
CredentialId = Annotated[str, Field(pattern=B64URL_PATTERN, max_length=1366,
                                    description="a credential id, base64url")]
Ticket = Annotated[str, Field(pattern=TICKET_PATTERN,
                              description="the ticket of the ceremony's options")]
Transport = Literal["usb", "nfc", "ble", "smart-card", "hybrid", "internal", "cable"]


class _Credential(Body):
    """What every ``PublicKeyCredential.toJSON()`` has."""

    id: CredentialId
    rawId: CredentialId
    type: Literal["public-key"]
    authenticatorAttachment: Literal["platform", "cross-platform"] = omittable()
    clientExtensionResults: dict[str, Any] = omittable()


class AttestationResponse(Body):
    """``AuthenticatorAttestationResponse`` (only the "none" attestation is asked for)."""

    clientDataJSON: B64Url
    attestationObject: B64Url
    transports: list[Transport] = omittable(max_length=8)
    authenticatorData: B64Url = omittable()
    publicKey: B64Url = omittable()
    publicKeyAlgorithm: int = omittable()


class NewCredential(_Credential):
    """The result of ``navigator.credentials.create()``."""

    response: AttestationResponse


class AssertionResponse(Body):
    """``AuthenticatorAssertionResponse``; ``userHandle`` names the player."""

    clientDataJSON: B64Url
    authenticatorData: B64Url
    signature: B64Url
    userHandle: B64Url = omittable()


class Assertion(_Credential):
    """The result of ``navigator.credentials.get()``."""

    response: AssertionResponse


class PasskeyRegistration(Body):
    """``POST /passkeys/register``: the ticket of ``/passkeys/register/options`` and the
    new credential; ``label`` names the passkey in your list (default: the date)."""

    ticket: Ticket
    credential: NewCredential
    label: Name = omittable()


class PasskeyLogin(Body):
    """``POST /passkeys/login``: the ticket of ``/passkeys/login/options`` and the
    assertion of one of your passkeys."""

    ticket: Ticket
    credential: Assertion


# ----- answers ---------------------------------------------------------------------


class PasskeyOptions(Doc):
    """The options of one ceremony: hand ``publicKey`` to ``navigator.credentials``
    (after decoding its base64url values), then send the result with ``ticket`` within
    ``expires_in`` seconds. A ticket works once."""

    ticket: str
    expires_in: int
    publicKey: dict[str, Any] = Field(
        description="PublicKeyCredentialCreationOptionsJSON or ...RequestOptionsJSON")


class PasskeyInfo(Doc):
    """One of your passkeys (never its key)."""

    id: str = Field(description="the credential id, base64url")
    label: str
    created: str
    last_used: str | None
    backed_up: bool = Field(description="the authenticator says it is synced or backed up")


class PasskeyList(Doc):
    """Your passkeys, oldest first."""

    passkeys: list[PasskeyInfo]
    max: int = Field(description="how many passkeys a player may have")


class SignedIn(Doc):
    """A passkey sign-in: the player and a new token for this browser; the player's
    previous token stops working (the passkey carries the player)."""

    player: dict[str, str]
    token: str
