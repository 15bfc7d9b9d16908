"""``/players``: create an anonymous player, read and rename yourself, rotate or revoke
your token."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app

from daily.service.errors import ApiError
from daily.service.players import check_name
from daily.service.requests import bearer_token, current_player, json_object, only_fields
from daily.service.stats import player_history, player_stats

bp = Blueprint("players", __name__)


def _only_name(body: dict[str, Any]) -> None:
    for key in body:
        if key != "name":
            raise ApiError(422, "invalid_field", f"unknown field {key!r}; allowed: name", field=key)


@bp.post("/players")
def create() -> tuple[dict[str, Any], int]:
    """A new anonymous player and its secret token (shown only here)."""
    body = json_object()
    _only_name(body)
    name = check_name(body["name"]) if body.get("name") is not None else None
    player, token = current_app.extensions["daily"].players.create(name)
    return {"player": player.to_json(), "token": token}, 201


@bp.get("/players/me")
def me() -> dict[str, Any]:
    """The player, their statistics and ranked history."""
    services = current_app.extensions["daily"]
    player = current_player()
    prefix = services.config.key_prefix
    stats = player_stats(services.conn, player.id, services.clock(), prefix=prefix)
    history = player_history(services.conn, player.id, prefix=prefix)
    fresh = services.players.get(player.id) or player  # the name may have changed elsewhere
    return {**fresh.to_json(), "stats": stats, "history": history}


@bp.patch("/players/me")
def rename() -> dict[str, Any]:
    """Change the display name."""
    player = current_player()
    body = json_object()
    _only_name(body)
    if "name" not in body:
        raise ApiError(422, "invalid_field", "missing field 'name'", field="name")
    renamed = current_app.extensions["daily"].players.rename(player, check_name(body["name"]))
    return renamed.to_json()


@bp.post("/players/me/token")
def rotate_token() -> dict[str, Any]:
    """A new token for the caller; the one this request carries stops working at once."""
    player = current_player()
    only_fields(json_object(), ())
    token = current_app.extensions["daily"].players.rotate(player, bearer_token() or "")
    return {"player": player.to_json(), "token": token}


@bp.delete("/players/me/token")
def revoke_token() -> tuple[str, int]:
    """Revoke the caller's token: nobody can act as this player any more."""
    player = current_player()
    current_app.extensions["daily"].players.revoke(player, bearer_token() or "")
    return "", 204
