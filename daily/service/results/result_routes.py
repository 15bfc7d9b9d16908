"""``/results/<code>``: a shared result; the dice only once the day is revealed."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from daily.service.extensions import current
from daily.service.games.codes import parse_code
from daily.service.games.flow import GameService
from daily.service.http.contract.fields import ResultCode
from daily.service.http.contract.operations import operation
from daily.service.http.contract.responses import Result

bp = Blueprint("results", __name__)


@bp.get("/results/<code>")
@operation(Result, path={"code": ResultCode}, errors=(404,))
def show(code: str) -> dict[str, Any]:
    """The verified result behind a code (case-insensitive, look-alikes tolerated)."""
    return current(GameService).public_result(parse_code(code))
