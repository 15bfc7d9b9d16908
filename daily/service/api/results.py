"""``/results/<code>``: a shared result; the dice only once the day is revealed."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from daily.service.codes import parse_code
from daily.service.context import current_services
from daily.service.contract.fields import ResultCode
from daily.service.contract.operations import operation
from daily.service.contract.responses import Result

bp = Blueprint("results", __name__)


@bp.get("/results/<code>")
@operation(Result, path={"code": ResultCode}, errors=(404,))
def show(code: str) -> dict[str, Any]:
    """The verified result behind a code (case-insensitive, look-alikes tolerated)."""
    return current_services().games.public_result(parse_code(code))
