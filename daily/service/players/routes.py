"""``/players``: create an anonymous player, read and rename yourself, rotate or revoke
your token, sign out everywhere."""

from __future__ import annotations

import datetime as dt
from typing import Any

from flask import Blueprint, current_app, request

from daily.service.extensions import Basics, current
from daily.service.http.compression import uncompressed
from daily.service.http.contract.bodies import NewPlayer, NoBody, Rename
from daily.service.http.contract.fields import trim_name
from daily.service.http.contract.operations import operation
from daily.service.http.contract.responses import CreatedPlayer, Me, Player, PowChallenge
from daily.service.http.parsing import bearer_token
from daily.service.http.ratelimit import counters_to_fold
from daily.service.players.accounts import Player as PlayerRecord
from daily.service.players.accounts import Players
from daily.service.players.creation import CreationGuard
from daily.service.players.signup import NewPlayers
from daily.service.players.standing import Policy, PublicStanding
from daily.service.results.stats import player_history, player_stats

bp = Blueprint("players", __name__)


def _client() -> tuple[str, dt.datetime]:
    """The client's address (after trusted proxies) and the service's time."""
    return request.remote_addr or "unknown", current(Basics).clock()


@bp.get("/players/challenge")
@operation(PowChallenge)
def challenge() -> dict[str, Any]:
    """A one-time proof-of-work challenge for creating a player.

    ``bits`` 0: none is needed. Otherwise answer it in ``POST /players`` (``pow``)
    within ``expires_in`` seconds, from the same network; each challenge works once.
    """
    ip, now = _client()
    return current(CreationGuard).challenge(ip, now)


@bp.post("/players")
@operation(CreatedPlayer, body=NewPlayer, statuses=(201,))
def create(body: NewPlayer) -> tuple[dict[str, Any], int]:
    """A new anonymous player and its secret token (shown only here).

    New players are limited per address and per network (429 ``too_many_players``),
    and need a proof-of-work when the server asks for one (``GET /players/challenge``).
    """
    ip, now = _client()
    limits = bool(current_app.config.get("RATELIMIT_ENABLED", True))
    proof = (body.pow.challenge, body.pow.nonce) if body.pow is not None else None
    name = trim_name(body.name) if body.name is not None else None
    # one Redis call, which also spends the request's rate limits (players.signup)
    player, token = current(NewPlayers).create(
        name, ip, now, proof, limits=limits, counters=counters_to_fold())
    uncompressed()  # a secret beside a chosen name: never compressed (BREACH)
    return {"player": player.to_json(), "token": token}, 201


@bp.get("/players/me")
@operation(Me, auth="required")
def me(player: PlayerRecord) -> dict[str, Any]:
    """You, your statistics, your ranked history and your days of play (whether your
    games stand on the public top of the boards)."""
    services = current(Basics)
    prefix = services.config.key_prefix
    now = services.clock()
    stats = player_stats(services.conn, player.id, now, prefix=prefix)
    history = player_history(services.conn, player.id, prefix=prefix)
    public = PublicStanding(services.conn, prefix, Policy.from_config(services.config))
    fresh = current(Players).get(player.id) or player  # the name may have changed elsewhere
    return {**fresh.to_json(), "stats": stats, "history": history,
            "public_top": public.of_player(player.id, now)}


@bp.patch("/players/me")
@operation(Player, auth="required", body=Rename, body_required=True)
def rename(player: PlayerRecord, body: Rename) -> dict[str, Any]:
    """Change your display name."""
    renamed = current(Players).rename(player, trim_name(body.name))
    return renamed.to_json()


@bp.post("/players/me/token")
@operation(CreatedPlayer, auth="required", body=NoBody, errors=(409,))
def rotate_token(player: PlayerRecord, body: NoBody) -> dict[str, Any]:
    """A new token for you; the one this request carries stops working at once."""
    token = current(Players).rotate(player, bearer_token() or "")
    uncompressed()
    return {"player": player.to_json(), "token": token}


@bp.delete("/players/me/token")
@operation(None, auth="required", statuses=(204,), errors=(409,))
def revoke_token(player: PlayerRecord) -> tuple[str, int]:
    """Revoke the token of this request (sign out this browser).

    Your other browsers' tokens and your passkeys stay; without either, nobody can act
    as this player any more.
    """
    current(Players).revoke(player, bearer_token() or "")
    return "", 204


@bp.delete("/players/me/tokens")
@operation(None, auth="required", statuses=(204,))
def revoke_all_tokens(player: PlayerRecord) -> tuple[str, int]:
    """Sign out everywhere: every token of yours stops working, this one too.

    Your passkeys stay: sign in with one for a new token (delete a passkey you do not
    know first, ``DELETE /passkeys/{id}``).
    """
    current(Players).revoke_all(player)
    return "", 204
