"""``/groups``: friends' leagues (see :mod:`daily.service.groups`)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, request

from daily.service.requests import current_player, json_object

bp = Blueprint("groups", __name__)


def _groups() -> Any:
    return current_app.extensions["daily"].groups


@bp.get("/groups")
def mine() -> dict[str, Any]:
    """Your groups."""
    return {"groups": _groups().mine(current_player())}


@bp.post("/groups")
def create() -> tuple[dict[str, Any], int]:
    """Create a group: ``{"name": "Friday club"}``; you are its first member."""
    return _groups().create(current_player(), json_object()), 201


@bp.post("/groups/<code>/members")
def join(code: str) -> dict[str, Any]:
    """Join a group by its code."""
    json_object()
    return _groups().join(current_player(), code)


@bp.delete("/groups/<code>/members/me")
def leave(code: str) -> tuple[str, int]:
    """Leave a group."""
    _groups().leave(current_player(), code)
    return "", 204


@bp.get("/groups/<code>")
def show(code: str) -> dict[str, Any]:
    """The group's board of each daily set (``?date=``), the week's standings, streaks."""
    return _groups().show(current_player(), code, request.args.get("date"))
