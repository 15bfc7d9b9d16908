"""Domain errors are mapped to HTTP in one place: only the request layer raises ApiError.

Services and blueprints raise the kinds of :mod:`daily.service.refusals`; the statuses
live in :data:`daily.service.http.error_handlers.DOMAIN_STATUS`. :class:`ApiError` is left to the
modules that parse a request (body, query, token) at the HTTP edge.
"""

from __future__ import annotations

import ast
from pathlib import Path

from daily.service import refusals as domain
from daily.service.http.error_handlers import DOMAIN_STATUS, classify

SERVICE = Path(__file__).resolve().parents[2] / "daily" / "service"
#: The request layer: parsing bodies, queries and tokens (and the rate limit's token check).
EDGE = {"http/error_handlers.py", "http/parsing.py", "http/contract/bodies.py",
        "http/ratelimit.py"}


def _uses_api_error(path: Path) -> bool:
    tree = ast.parse(path.read_text(), str(path))
    return any(
        (isinstance(node, ast.Name) and node.id == "ApiError")
        or (isinstance(node, ast.alias) and node.name == "ApiError")
        for node in ast.walk(tree)
    )


def test_only_the_request_layer_uses_api_error() -> None:
    users = {str(p.relative_to(SERVICE)) for p in SERVICE.rglob("*.py") if _uses_api_error(p)}
    assert users - EDGE == set()
    assert "http/parsing.py" in users  # the scan sees what it is meant to see


def test_every_domain_kind_has_its_status_in_one_table() -> None:
    kinds = [k for k in vars(domain).values()
             if isinstance(k, type) and issubclass(k, domain.ServiceError)
             and k is not domain.ServiceError]
    assert set(kinds) == set(DOMAIN_STATUS)
    extra: dict[type, dict[str, int]] = {domain.RateLimited: {"retry_after": 1}}
    for kind in kinds:
        status, code = classify(kind("refused", **extra.get(kind, {})))
        assert (status, code) == (DOMAIN_STATUS[kind], kind.default_code)
