"""``/games``: start, read and play games; submit a whole move log.

The edge: ``@operation`` validates the body by its model (the one in the OpenAPI
document), the game service does the rest, and its domain refusals become HTTP in
:mod:`daily.service.http.error_handlers`.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, request

from daily.service.extensions import Basics, current
from daily.service.games.flow import GameService
from daily.service.http.contract.bodies import (
    START_MODELS,
    Body,
    ChallengeStart,
    RankedStart,
    Roll,
    Score,
    SubmitLog,
    start_model,
)
from daily.service.http.contract.fields import GameId
from daily.service.http.contract.operations import Choice, operation
from daily.service.http.contract.responses import Game
from daily.service.http.metrics import Metrics
from daily.service.http.ratelimit import counters_to_fold, spend_folded_now
from daily.service.players.accounts import Player
from daily.service.players.creation import CreationGuard
from daily.service.social.challenges import Challenges

bp = Blueprint("games", __name__)

#: The shapes of ``POST /games``: ranked, practice on a day, practice per ruleset.
START = Choice(START_MODELS, start_model, "StartGame")


@bp.post("/games")
@operation(Game, auth="required", body=START, body_required=True, statuses=(200, 201),
           errors=(404, 409, 503))
def start(player: Player, body: Body) -> tuple[dict[str, Any], int]:
    """Start a ranked or practice game, or take a friend's challenge (200 with the same
    game when resuming it).

    Ranked: a daily ruleset on an open date. Practice: a revealed date's dice, or fresh
    random dice with any rule options. A ruleset without a daily set is 404; a date
    that is not open (ranked) or not revealed (practice) is 409. ``opponents`` whose
    strategy table is missing is 503.
    """
    if not isinstance(body, RankedStart):
        spend_folded_now()  # 429 before a practice game or a challenge's is stored
    # (a ranked start spends the request's limits in the script that records the game)
    fields = body.model_dump(exclude_unset=True)
    if isinstance(body, ChallengeStart):
        state, created = current(Challenges).take(player, fields)
    else:
        network = (current(CreationGuard).network_note(request.remote_addr or "unknown",
                                                       current(Basics).clock().date().isoformat())
                   if isinstance(body, RankedStart) else None)
        state, created = current(GameService).start(
            player, ruleset=fields["ruleset"], mode=fields.get("mode", "ranked"),
            date=fields.get("date"), options=fields.get("options"),
            opponents=fields.get("opponents"), network=network, counters=counters_to_fold(),
        )
    if created:
        current(Metrics).games_started.labels(state["mode"], state["ruleset"]).inc()
    return state, 201 if created else 200


@bp.get("/games/<game_id>")
@operation(Game, auth="required", path={"game_id": GameId}, errors=(403, 404))
def show(player: Player, game_id: str) -> dict[str, Any]:
    """The state of one of your games."""
    return current(GameService).get(player, game_id)


@bp.post("/games/<game_id>/roll")
@operation(Game, auth="required", path={"game_id": GameId}, body=Roll, body_required=True,
           errors=(403, 404, 409))
def roll(player: Player, game_id: str, body: Roll) -> dict[str, Any]:
    """Reroll the dice not held, at the position the move was decided at."""
    games = current(GameService)
    return games.roll(player, game_id, body.hold, body.position, counters_to_fold())


@bp.post("/games/<game_id>/score")
@operation(Game, auth="required", path={"game_id": GameId}, body=Score, body_required=True,
           errors=(403, 404, 409))
def score(player: Player, game_id: str, body: Score) -> dict[str, Any]:
    """Fill a box with the dice showing; the next turn's first roll is shown."""
    games = current(GameService)
    return games.score(player, game_id, body.box, body.position, counters_to_fold())


@bp.post("/games/<game_id>/log")
@operation(Game, auth="required", path={"game_id": GameId}, body=SubmitLog,
           body_required=True, errors=(403, 404, 409))
def submit_log(player: Player, game_id: str, body: SubmitLog) -> dict[str, Any]:
    """Verify a whole move log against what was revealed; returns the finished game."""
    games = current(GameService)
    log = body.log if isinstance(body.log, str) else body.log.model_dump(exclude_unset=True)
    return games.submit_log(player, game_id, log)
