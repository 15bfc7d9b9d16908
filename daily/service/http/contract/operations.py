"""``@operation``: what a view takes and answers, declared once, used twice.

The decorator validates the request before the view runs - authentication, then path
values, then the query, then the body - and hands the view the validated values
(``player``, each path value, ``query``, ``body``). :mod:`daily.service.http.openapi` reads
the same declaration to write the view's entry in the OpenAPI document, so what is
documented is what is checked. A view without ``@operation`` under ``/api/v1`` fails
``tests/service/test_openapi.py``.

>>> from daily.service.http.contract.responses import Health
>>> @operation(Health, auth="none")
... def probe() -> dict[str, str]:
...     '''Is it up?'''
...     return {"status": "ok", "redis": "ok"}
>>> declared(probe).summary
'Is it up?'
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, TypeAdapter

from daily.service.http.contract.bodies import Body
from daily.service.http.parsing import (
    current_player,
    json_object,
    optional_player,
    read_body,
    read_path,
    read_query,
)

Auth = Literal["none", "optional", "required"]


@dataclass(frozen=True)
class Choice:
    """A body of several shapes: ``select`` picks the model a body is meant to be."""

    models: tuple[type[Body], ...]
    select: Callable[[Mapping[str, Any]], type[Body]]
    name: str


@dataclass(frozen=True)
class Operation:
    """One view's contract."""

    response: type[BaseModel] | None  # None: no body (204)
    summary: str
    description: str
    auth: Auth = "none"
    path: Mapping[str, Any] = field(default_factory=dict)
    query: type[Body] | None = None
    body: type[Body] | Choice | None = None
    body_required: bool = False
    statuses: tuple[int, ...] = (200,)
    errors: tuple[int, ...] = ()
    needs_redis: bool = True
    media_type: str = "application/json"

    def error_statuses(self) -> list[int]:
        """Every error status the operation can answer, in order."""
        found = set(self.errors) | {429}
        if self.auth == "required":
            found.add(401)
        if self.auth == "optional":
            found.add(401)  # a bad token is refused even where none is needed
        if self.body is not None:
            found |= {400, 413, 422}
        if self.path or self.query is not None:
            found.add(422)
        if self.needs_redis:
            found.add(503)
        return sorted(found)


_ATTRIBUTE = "__operation__"


def operation(
    response: type[BaseModel] | None,
    *,
    auth: Auth = "none",
    path: Mapping[str, Any] | None = None,
    query: type[Body] | None = None,
    body: type[Body] | Choice | None = None,
    body_required: bool = False,
    statuses: tuple[int, ...] = (200,),
    errors: tuple[int, ...] = (),
    needs_redis: bool = True,
    media_type: str = "application/json",
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Declare a view's contract and validate its requests by it.

    ``path`` maps each path value to its type; ``statuses`` are the success statuses
    (the response model is the body of each); ``errors`` the statuses beyond those every
    operation of this kind has (401 with ``auth``, 400/413/422 with a body, 422 with
    parameters, 429, and 503 unless ``needs_redis`` is false); ``media_type`` that of a
    success (``application/jsonl``: the model is the document of each line).
    """
    adapters = {name: TypeAdapter(kind) for name, kind in (path or {}).items()}

    def decorate(view: Callable[..., Any]) -> Callable[..., Any]:
        doc = (view.__doc__ or "").strip()
        summary, _, rest = doc.partition("\n")
        declared_op = Operation(
            response=response, summary=summary.strip(), description=rest.strip(),
            auth=auth, path=dict(path or {}), query=query, body=body,
            body_required=body_required, statuses=statuses, errors=errors,
            needs_redis=needs_redis, media_type=media_type,
        )

        @functools.wraps(view)
        def checked(**values: Any) -> Any:
            if auth == "required":
                values["player"] = current_player()
            elif auth == "optional":
                values["player"] = optional_player()
            for name, adapter in adapters.items():
                values[name] = read_path(adapter, name, values[name])
            if query is not None:
                values["query"] = read_query(query)
            if isinstance(body, Choice):
                raw = json_object()
                values["body"] = read_body(body.select(raw), raw)
            elif body is not None:
                values["body"] = read_body(body)
            return view(**values)

        setattr(checked, _ATTRIBUTE, declared_op)
        return checked

    return decorate


def declared(view: Callable[..., Any]) -> Operation:
    """The contract of a view (``AttributeError`` if it has none)."""
    found: Operation = getattr(view, _ATTRIBUTE)
    return found


def has_contract(view: Callable[..., Any]) -> bool:
    """Whether the view was declared with :func:`operation`."""
    return hasattr(view, _ATTRIBUTE)
