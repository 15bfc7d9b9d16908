"""``/leaderboards/<date>/<ruleset>``: top N, your rank and the page around you."""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, current_app

from daily.dice import parse_date
from daily.rules import canonical_name
from daily.service import keymap
from daily.service.errors import ApiError
from daily.service.leaderboard import Leaderboard
from daily.service.requests import int_arg, optional_player

bp = Blueprint("leaderboards", __name__)


@bp.get("/leaderboards/<date>/<ruleset>")
def show(date: str, ruleset: str) -> dict[str, Any]:
    """The board of a day set (``?limit=`` 1..1000, default 100)."""
    services = current_app.extensions["daily"]
    day = parse_date(date)
    name = canonical_name(ruleset)
    if name not in services.config.rulesets_on(day):
        raise ApiError(404, "not_found", f"{name} has no daily leaderboard", field="ruleset")
    limit = int_arg("limit", 100, 1, 1000)
    player = optional_player()
    board = Leaderboard(services.conn, day, name, prefix=services.config.key_prefix)
    view = board.view(limit, player.id if player else None)
    par = services.conn.get(keymap.par(services.config.key_prefix, day, name))
    view["par"] = json.loads(par) if par is not None else None
    return view
