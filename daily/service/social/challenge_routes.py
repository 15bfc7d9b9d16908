"""``/challenges``: friend challenges on the same dice (:mod:`.challenges`)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from daily.service.extensions import current
from daily.service.http.contract.bodies import CHALLENGE_MODELS, Body, challenge_model
from daily.service.http.contract.fields import ChallengeCode
from daily.service.http.contract.operations import Choice, operation
from daily.service.http.contract.responses import Challenge, ChallengeLink
from daily.service.players.accounts import Player
from daily.service.social.challenges import Challenges

bp = Blueprint("challenges", __name__)

NEW_CHALLENGE = Choice(CHALLENGE_MODELS, challenge_model, "NewChallenge")


@bp.post("/challenges")
@operation(ChallengeLink, auth="required", body=NEW_CHALLENGE, body_required=True,
           statuses=(201,), errors=(404, 409))
def create(player: Player, body: Body) -> tuple[dict[str, Any], int]:
    """A challenge from a result code (``{"code"}``) or on fresh dice (``{"ruleset",
    "options"}``)."""
    challenges = current(Challenges)
    return challenges.create(player, body.model_dump(exclude_unset=True)), 201


@bp.get("/challenges/<code>")
@operation(Challenge, auth="optional", path={"code": ChallengeCode}, errors=(404,))
def show(player: Player | None, code: str) -> dict[str, Any]:
    """Entries with totals; the turn-by-turn comparison once your own entry is finished."""
    return current(Challenges).public(code, player)
