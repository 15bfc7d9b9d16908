"""``/leaderboards/<date>/<ruleset>``: top N, your rank and the page around you."""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint

from daily.dice import parse_date
from daily.rules import canonical_name
from daily.service import keymap
from daily.service.extensions import Basics, current
from daily.service.http.contract.bodies import LeaderboardQuery
from daily.service.http.contract.fields import Date, RulesetName
from daily.service.http.contract.operations import operation
from daily.service.http.contract.responses import Leaderboard as LeaderboardDoc
from daily.service.players.accounts import Player, Players
from daily.service.players.standing import Policy, PublicStanding
from daily.service.refusals import NotFound
from daily.service.results.leaderboard import Leaderboard
from daily.service.review.gates import day_ceiling_value
from daily.service.review.queue import ReviewQueue

bp = Blueprint("leaderboards", __name__)


@bp.get("/leaderboards/<date>/<ruleset>")
@operation(LeaderboardDoc, auth="optional", path={"date": Date, "ruleset": RulesetName},
           query=LeaderboardQuery, errors=(404,))
def show(player: Player | None, date: str, ruleset: str, query: LeaderboardQuery) -> dict[str, Any]:
    """The board of a day set: the top, your rank and the rows around you."""
    services = current(Basics)
    day = parse_date(date)
    name = canonical_name(ruleset)
    if name not in services.config.rulesets_on(day):
        raise NotFound(f"{name} has no daily leaderboard", field="ruleset")
    limit = query.limit if query.limit is not None else 100
    board = Leaderboard(services.conn, day, name, prefix=services.config.key_prefix)
    now = services.clock()
    standing = PublicStanding(services.conn, services.config.key_prefix,
                              Policy.from_config(services.config))
    public = standing.public_top(board, limit, now)
    view = board.view(limit, player.id if player else None, names=current(Players).names,
                      top=public.entries)
    for row, (_entry, verdict) in zip(view["top"], public.rows, strict=True):
        row["marks"] = list(verdict.marks)
    around = standing.of_games(day, name, [(r["game_id"], r["player"]["id"])
                                           for r in view["around"]], now)
    for row in view["around"]:
        row["marks"] = list(around[row["game_id"]].marks)
    view["left_out"] = public.counts()
    view["top_open"] = public.open
    view["provisional_days"] = standing.policy.provisional_days
    par = services.conn.get(keymap.par(services.config.key_prefix, day, name))
    view["par"] = json.loads(par) if par is not None else None
    view["ceiling"] = day_ceiling_value(services.conn, services.config.key_prefix, day, name)
    review = None
    if player and view["me"] is None:
        entry = ReviewQueue(services.conn, services.config.key_prefix).of_player(
            day.isoformat(), name, player.id
        )
        review = entry.public() if entry is not None else None
    view["review"] = review
    return view
