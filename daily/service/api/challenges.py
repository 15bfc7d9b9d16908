"""``/challenges``: friend challenges on the same dice (see :mod:`daily.service.challenges`)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app

from daily.service.requests import bearer_token, current_player, json_object

bp = Blueprint("challenges", __name__)


@bp.post("/challenges")
def create() -> tuple[dict[str, Any], int]:
    """A challenge from ``{"code": result code}`` or ``{"ruleset", "options"}``."""
    challenges = current_app.extensions["daily"].challenges
    return challenges.create(current_player(), json_object()), 201


@bp.get("/challenges/<code>")
def show(code: str) -> dict[str, Any]:
    """Entries with totals; the turn-by-turn comparison once your own entry is finished."""
    viewer = current_player() if bearer_token() else None
    return current_app.extensions["daily"].challenges.public(code, viewer)
