"""``/passkeys``: register a passkey, sign in with one, list and delete yours
(:mod:`daily.service.players.passkeys`)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from daily.service.extensions import current
from daily.service.http.contract.bodies import NoBody
from daily.service.http.contract.ceremonies import (
    CredentialId,
    PasskeyInfo,
    PasskeyList,
    PasskeyLogin,
    PasskeyOptions,
    PasskeyRegistration,
    SignedIn,
)
from daily.service.http.contract.fields import trim_name
from daily.service.http.contract.operations import operation
from daily.service.players.accounts import Player
from daily.service.players.passkeys import MAX_PASSKEYS, Passkeys

bp = Blueprint("passkeys", __name__)


def _passkeys() -> Passkeys:
    return current(Passkeys)


@bp.post("/passkeys/register/options")
@operation(PasskeyOptions, auth="required", body=NoBody)
def register_options(player: Player, body: NoBody) -> dict[str, Any]:
    """The options of a new passkey for you (``navigator.credentials.create()``).

    Send the credential with the ``ticket`` to ``POST /passkeys/register`` within
    ``expires_in`` seconds; a ticket works once.
    """
    return _passkeys().registration_options(player)


@bp.post("/passkeys/register")
@operation(PasskeyInfo, auth="required", body=PasskeyRegistration, body_required=True,
           statuses=(201,), errors=(409,))
def register(player: Player, body: PasskeyRegistration) -> tuple[dict[str, Any], int]:
    """Keep a new passkey of yours ("none" attestation; the origin and relying-party id
    are the service's)."""
    label = trim_name(body.label) if body.label is not None else None
    key = _passkeys().register(player, body.ticket,
                               body.credential.model_dump(exclude_none=True), label)
    return key.to_json(), 201


@bp.post("/passkeys/login/options")
@operation(PasskeyOptions, body=NoBody)
def login_options(body: NoBody) -> dict[str, Any]:
    """The options of a passkey sign-in (``navigator.credentials.get()``; no token
    needed): the authenticator offers the passkeys it has for this site."""
    return _passkeys().login_options()


@bp.post("/passkeys/login")
@operation(SignedIn, body=PasskeyLogin, body_required=True, errors=(404, 409))
def login(body: PasskeyLogin) -> dict[str, Any]:
    """Sign in with a passkey: the player and a token of this browser's own.

    The player's other tokens keep working (at most 10 passkey sign-ins are kept; the
    least recently used goes first), so signing in here signs out no other browser.
    """
    player, token = _passkeys().login(body.ticket, body.credential.model_dump(exclude_none=True))
    return {"player": player.to_json(), "token": token}


@bp.get("/passkeys")
@operation(PasskeyList, auth="required")
def listing(player: Player) -> dict[str, Any]:
    """Your passkeys (never their keys)."""
    return {"passkeys": [k.to_json() for k in _passkeys().of_player(player.id)],
            "max": MAX_PASSKEYS}


@bp.delete("/passkeys/<credential_id>")
@operation(None, auth="required", path={"credential_id": CredentialId}, statuses=(204,),
           errors=(404,))
def delete(player: Player, credential_id: str) -> tuple[str, int]:
    """Forget one of your passkeys."""
    _passkeys().delete(player.id, credential_id)
    return "", 204
