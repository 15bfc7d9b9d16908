"""``/games/<id>/hint`` and ``/games/<id>/analysis``: the strategy engine over HTTP.

Only for practice games and for games on a revealed day: a ranked game of a day that
is still open gets 403, so no one can ask the optimal player during a ranked day.
The tables come from ``<data>/tables`` (``daily strategy build RULESET``); a missing
or stale table is a 503 naming the command that builds it. Triple Yahtzee has no exact
table: its hints and analysis come from the lookahead player and say ``"heuristic":
true`` (the one-column table it needs is built by ``daily strategy build
triple-yahtzee``).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app

from daily.rules import Ruleset
from daily.service.errors import ApiError
from daily.service.requests import current_player, json_object
from daily.strategy.advisor import Advisor, Position
from daily.strategy.analysis import analyse
from daily.strategy.spec import StrategyError
from daily.strategy.store import advisor_for
from daily.strategy.triple import TripleAdvisor

bp = Blueprint("strategy", __name__)

MAX_TOP = 20


def _advisor(rules: Ruleset) -> Advisor | TripleAdvisor:
    """The process's warm advisor of the ruleset (503 naming the build command if none)."""
    try:
        return advisor_for(rules, current_app.extensions["daily"].config.tables_dir)
    except StrategyError as exc:
        raise ApiError(503, "unavailable", exc.message, field="table") from None


@bp.post("/games/<game_id>/hint")
def hint(game_id: str) -> dict[str, Any]:
    """The best action now and the next best ones: ``{"top": 3}`` (optional)."""
    body = json_object()
    top = body.get("top", 3)
    if isinstance(top, bool) or not isinstance(top, int) or not 0 <= top <= MAX_TOP:
        raise ApiError(422, "invalid_field", f"top is a whole number 0..{MAX_TOP}", field="top")
    result, _ = current_app.extensions["daily"].games.for_advice(current_player(), game_id)
    if result.complete:
        raise ApiError(409, "conflict", "the game is over; ask for its analysis", field="id")
    game = result.game
    advisor = _advisor(result.rules)
    out = advisor.hint(Position.from_game(game), top)
    out.update(turn=game.turn + 1, roll=game.roll + 1, heuristic=advisor.heuristic)
    return out


@bp.get("/games/<game_id>/analysis")
def analysis(game_id: str) -> dict[str, Any]:
    """Every decision of a finished game against optimal play."""
    result, slots = current_app.extensions["daily"].games.for_advice(current_player(), game_id)
    if not result.complete:
        raise ApiError(409, "conflict", "the game is not finished yet", field="id")
    advisor = _advisor(result.rules)
    engine = advisor if isinstance(advisor, TripleAdvisor) else advisor.table
    report = analyse(engine, result.log, slots=slots)
    out = report.to_json()
    out["text"] = [d.describe() for d in report.mistakes()]
    return out
