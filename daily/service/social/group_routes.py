"""``/groups``: friends' leagues (see :mod:`daily.service.social.groups`)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from daily.service.extensions import current
from daily.service.http.contract.bodies import GroupQuery, NewGroup, NoBody
from daily.service.http.contract.fields import GroupCode
from daily.service.http.contract.operations import operation
from daily.service.http.contract.responses import Group, GroupInvite, Groups
from daily.service.players.accounts import Player
from daily.service.social.groups import Groups as GroupService

bp = Blueprint("groups", __name__)


def _groups() -> GroupService:
    return current(GroupService)


@bp.get("/groups")
@operation(Groups, auth="required")
def mine(player: Player) -> dict[str, Any]:
    """Your groups."""
    return {"groups": _groups().mine(player)}


@bp.post("/groups")
@operation(Group, auth="required", body=NewGroup, body_required=True, statuses=(201,),
           errors=(409,))
def create(player: Player, body: NewGroup) -> tuple[dict[str, Any], int]:
    """Create a group; you are its first member."""
    return _groups().create(player, body.model_dump(exclude_unset=True)), 201


@bp.post("/groups/<code>/members")
@operation(Group, auth="required", path={"code": GroupCode}, body=NoBody, errors=(404, 409))
def join(player: Player, code: str, body: NoBody) -> dict[str, Any]:
    """Join a group by its code."""
    return _groups().join(player, code)


@bp.delete("/groups/<code>/members/me")
@operation(None, auth="required", path={"code": GroupCode}, statuses=(204,),
           errors=(404, 409))
def leave(player: Player, code: str) -> tuple[str, int]:
    """Leave a group."""
    _groups().leave(player, code)
    return "", 204


@bp.get("/groups/<code>/invite")
@operation(GroupInvite, auth="optional", path={"code": GroupCode}, errors=(404,))
def invite(player: Player | None, code: str) -> dict[str, Any]:
    """What an invite link shows: the group's name and size (no token needed)."""
    return _groups().invite(player, code)


@bp.get("/groups/<code>")
@operation(Group, auth="required", path={"code": GroupCode}, query=GroupQuery,
           errors=(403, 404))
def show(player: Player, code: str, query: GroupQuery) -> dict[str, Any]:
    """The group's board of each daily set (``?date=``), the week's standings, streaks."""
    return _groups().show(player, code, query.date)
