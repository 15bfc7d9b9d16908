"""``/today``: which dates are open, when they close, and what you played."""

from __future__ import annotations

import datetime as dt
from typing import Any

from flask import Blueprint

from daily import calendar
from daily.service.clock import iso
from daily.service.config import WEEKDAYS
from daily.service.extensions import Basics, current
from daily.service.games.flow import GameService
from daily.service.http.contract.operations import operation
from daily.service.http.contract.responses import Today
from daily.service.players.accounts import Player

bp = Blueprint("today", __name__)


@bp.get("/today")
@operation(Today, auth="optional")
def today(player: Player | None) -> dict[str, Any]:
    """The open dates (2 or 3), the daily rulesets and each set's window.

    ``rulesets`` are the everyday sets; a set with ``"special": true`` is the weekly
    special of its date, described by the top-level ``special`` (``null`` without one).
    """
    services = current(Basics)
    now = services.clock()
    open_dates = calendar.open_dates(now)
    dates = [calendar.last_revealed(now), *open_dates, open_dates[-1] + dt.timedelta(days=1)]
    sets = []
    for day in dates:
        for ruleset in services.config.rulesets_on(day):
            played = None
            if player is not None:
                record = current(GameService).ranked_game(player.id, day.isoformat(), ruleset)
                if record is not None:
                    played = {
                        "game_id": record.id,
                        "over": record.finished_at is not None,
                        "total": record.total,
                        "code": record.code,
                    }
            sets.append({
                "date": day.isoformat(),
                "ruleset": ruleset,
                "status": calendar.status(day, now),
                "opens_at": iso(calendar.opens_at(day)),
                "closes_at": iso(calendar.closes_at(day)),
                "played": played,
                "special": ruleset not in services.config.daily_rulesets,
            })
    return {
        "now": iso(now),
        "open_dates": [d.isoformat() for d in open_dates],
        "rulesets": list(services.config.daily_rulesets),
        "special": _special(services.config),
        "next_reveal_at": iso(calendar.closes_at(open_dates[0])),
        "sets": sets,
    }


def _special(config: Any) -> dict[str, Any] | None:
    weekly = config.weekly_special
    if weekly is None:
        return None
    return {"weekday": WEEKDAYS[weekly.weekday], "rotation": list(weekly.rotation)}
