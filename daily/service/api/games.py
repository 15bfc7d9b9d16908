"""``/games``: start, read and play games; submit a whole move log.

The edge: the body is read and checked here, the game service does the rest, and its
domain refusals become HTTP in :mod:`daily.service.errors`.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app

from daily.service.requests import (
    current_player,
    json_object,
    only_fields,
    position_field,
    required,
)

bp = Blueprint("games", __name__)


def _counted(state: dict[str, Any], *, finishing: bool) -> dict[str, Any]:
    metrics = current_app.extensions["daily"].metrics
    if finishing and state["over"]:
        metrics.games_finished.labels(state["mode"], state["ruleset"]).inc()
    return state


@bp.post("/games")
def start() -> tuple[dict[str, Any], int]:
    """Start a ranked or practice game, or take a friend challenge (``{"challenge": code}``);
    200 with the same game when resuming."""
    player = current_player()
    body = json_object()
    if "challenge" not in body:
        only_fields(body, ("ruleset", "date", "mode", "options", "opponents"))
    services = current_app.extensions["daily"]
    if "challenge" in body:
        state, created = services.challenges.take(player, body)
    else:
        state, created = services.games.start(
            player, ruleset=body.get("ruleset"), mode=body.get("mode", "ranked"),
            date=body.get("date"), options=body.get("options"),
            opponents=body.get("opponents"),
        )
    if created:
        services.metrics.games_started.labels(state["mode"], state["ruleset"]).inc()
    return state, 201 if created else 200


@bp.get("/games/<game_id>")
def show(game_id: str) -> dict[str, Any]:
    """The state of one of your games."""
    return current_app.extensions["daily"].games.get(current_player(), game_id)


@bp.post("/games/<game_id>/roll")
def roll(game_id: str) -> dict[str, Any]:
    """Reroll the dice not held: ``{"hold": "10100", "position": 3}``."""
    player = current_player()
    body = json_object()
    only_fields(body, ("hold", "position"))
    hold = required(body, "hold")
    games = current_app.extensions["daily"].games
    return games.roll(player, game_id, hold, position_field(body))


@bp.post("/games/<game_id>/score")
def score(game_id: str) -> dict[str, Any]:
    """Fill a box: ``{"box": "full_house", "position": 4}``; the next turn's first roll is shown."""
    player = current_player()
    body = json_object()
    only_fields(body, ("box", "position"))
    box = required(body, "box")
    games = current_app.extensions["daily"].games
    state = games.score(player, game_id, box, position_field(body))
    return _counted(state, finishing=True)


@bp.post("/games/<game_id>/log")
def submit_log(game_id: str) -> dict[str, Any]:
    """Verify a whole move log against what was revealed; returns the finished game."""
    player = current_player()
    body = json_object()
    only_fields(body, ("log",))
    games = current_app.extensions["daily"].games
    state = games.submit_log(player, game_id, required(body, "log"))
    return _counted(state, finishing=True)
