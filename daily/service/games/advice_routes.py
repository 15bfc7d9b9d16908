"""``/games/<id>/hint`` and ``/games/<id>/analysis``: the strategy engine over HTTP.

Only for practice games and for games on a revealed day: a ranked game of a day that
is still open gets 403, so no one can ask the optimal player during a ranked day.
The tables come from ``<data>/tables`` (``daily strategy build RULESET``); a missing
or stale table is a 503 ``table_not_ready`` naming the command that builds it, with the
table's state (building: how far, how long to go). Triple Yahtzee has no exact
table: its hints and analysis come from the lookahead player and say ``"heuristic":
true`` (the one-column table it needs is built by ``daily strategy build
triple-yahtzee``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Blueprint

from daily.rules import Ruleset
from daily.service.extensions import Basics, current
from daily.service.games.flow import GameService
from daily.service.http.contract.bodies import Hint
from daily.service.http.contract.fields import GameId
from daily.service.http.contract.operations import operation
from daily.service.http.contract.responses import Analysis, HintAnswer
from daily.service.http.ratelimit import counters_to_fold
from daily.service.players.accounts import Player
from daily.service.refusals import Conflict, Unavailable
from daily.strategy.advisor import Advisor
from daily.strategy.analysis import analyse
from daily.strategy.spec import Position, StrategyError
from daily.strategy.tables.lookup import advisor_for
from daily.strategy.tables.status import table_status
from daily.strategy.triple import TripleAdvisor

bp = Blueprint("strategy", __name__)


def _advisor(rules: Ruleset, tables_dir: Path | None = None) -> Advisor | TripleAdvisor:
    """The process's warm advisor of the ruleset; without its table a 503
    ``table_not_ready`` naming the build command, with the table's state as ``/health``
    gives it (``table``: ready, building with percent and eta_seconds, or missing), so
    the hint and the page's note say the same thing."""
    folder = tables_dir or current(Basics).config.tables_dir
    try:
        return advisor_for(rules, folder)
    except StrategyError as exc:
        raise Unavailable(exc.message, code="table_not_ready", field="table",
                          detail={"table": table_status(rules, folder)}) from None


@bp.post("/games/<game_id>/hint")
@operation(HintAnswer, auth="required", path={"game_id": GameId}, body=Hint,
           errors=(403, 404, 409))
def hint(player: Player, game_id: str, body: Hint) -> dict[str, Any]:
    """The best action now and the next best ones (practice games and revealed days).

    ``top`` (0 to 20, default 3) is how many alternatives besides the best.
    """
    services = current(Basics)  # the game is read in the call that spends the limits
    with current(GameService).game_to_advise(player, game_id, counters_to_fold()) as game:
        if game.over:
            raise Conflict("the game is over; ask for its analysis", field="id")
        advisor = _advisor(game.rules, services.config.tables_dir)
        out = advisor.hint(Position.from_game(game), 3 if body.top is None else body.top)
        out.update(turn=game.turn + 1, roll=game.roll + 1, heuristic=advisor.heuristic)
    return out


@bp.get("/games/<game_id>/analysis")
@operation(Analysis, auth="required", path={"game_id": GameId}, errors=(403, 404, 409))
def analysis(player: Player, game_id: str) -> dict[str, Any]:
    """Every decision of a finished game against optimal play (practice, revealed days)."""
    result, slots = current(GameService).for_advice(player, game_id)
    if not result.complete:
        raise Conflict("the game is not finished yet", field="id")
    advisor = _advisor(result.rules)
    engine = advisor if isinstance(advisor, TripleAdvisor) else advisor.table
    report = analyse(engine, result.log, slots=slots)
    out = report.to_json()
    out["text"] = [d.describe() for d in report.mistakes()]
    return out
